// What `make fixtures` brings in, and where the rest of the harness finds it.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { FIXTURES } from './paths.ts';

/** A Node source tree holding only FIXTURE_PATHS. */
export const NODE_FIXTURES = join(FIXTURES, 'node');
export const FIXTURE_STAMP = 'fixtures.json';
export const WPT_ROOT = join(NODE_FIXTURES, 'test', 'fixtures', 'wpt');
/** Node's typings/ (primordials, internalBinding shapes), for bases that bring none of their own. */
export const NODE_TYPINGS = join(NODE_FIXTURES, 'typings');

/** Paths in a Node tree; `*` globs the last segment only. */
export const FIXTURE_PATHS = [
  'test/fixtures/wpt/streams',
  // TextDecoderStream, TextEncoderStream and CompressionStream are
  // TransformStreams, Blob#stream() a byte stream: their WPT folders run
  // too (`tools/wpt.ts --dir`).
  'test/fixtures/wpt/encoding/streams',
  'test/fixtures/wpt/compression',
  // The files the compression tests compress (two, 80 KB).
  'test/fixtures/wpt/media',
  // Blob#stream() (the folder's other files run no web streams).
  'test/fixtures/wpt/FileAPI/blob',
  'test/fixtures/wpt/FileAPI/support',
  'test/fixtures/wpt/resources',
  'test/fixtures/wpt/common',
  'test/fixtures/wpt/interfaces',
  'test/fixtures/wpt/versions.json',
  'test/common',
  'test/wpt/test-streams.js',
  'test/wpt/status/streams.json',
  // All of test/parallel: tools/node-tests.ts runs every test that uses web
  // streams (Blob, fetch, the adapters, compression, ...), whatever its name.
  'test/parallel/test-*',
  // The keys some of those tests read through test/common/fixtures.
  'test/fixtures/keys',
  // Tests outside test/parallel that use web streams (NODE_TEST_FOLDERS):
  // WebAssembly.compileStreaming() reads Response bodies, and the modules
  // it compiles.
  'test/es-module/test-*',
  'test/fixtures/simple.wasm',
  'test/fixtures/crash.wasm',
  // Upstream's check that every benchmark/webstreams file runs in test mode.
  'test/benchmark/test-benchmark-webstreams.js',
  // Node's own web streams benchmarks: what the lint of the benchmarks the
  // patches ship is calibrated on (tools/lint.ts).
  'benchmark/webstreams',
  'typings',
  'src/node_version.h',
];

/**
 * The folders of a Node tree's test/ whose tests tools/node-tests.ts selects
 * by their use of web streams. Left out: test/report (its one such test
 * opens sockets with fetch() to check a report's network section, and its
 * reverse-DNS subtest depends on the machine's resolver: it fails on plain
 * node v26.12.1 here, where `::1` has no name) and test/system-ca (fetch()
 * against a CA the system must be set to trust by hand, per its README).
 */
export const NODE_TEST_FOLDERS = ['parallel', 'es-module'];

/**
 * Files a source may lack, and the npm module file that stands in for each.
 * Debian's dfsg source drops WPT's copy of pako (one minified file, see its
 * debian/copyright); the compression tests inflate with it what
 * CompressionStream wrote.
 */
export const FIXTURE_SUBSTITUTES: Record<string, string> = {
  'test/fixtures/wpt/compression/third_party/pako/pako_inflate.min.js': 'pako/dist/pako_inflate.min.js',
};

export interface FixtureInfo {
  /** Debian source package or checkout the files came from. */
  origin: string;
  /** The Node release the files belong to (src/node_version.h), e.g. v24.21.0. */
  version: string;
  /** The FIXTURE_PATHS the files were taken by; a cache taken by other paths is refetched. */
  paths?: string[];
  /** FIXTURE_SUBSTITUTES the source lacked: the path, and what stands in for it. */
  substituted?: Record<string, string>;
}

export function readFixtureInfo(): FixtureInfo | undefined {
  const stamp = join(NODE_FIXTURES, FIXTURE_STAMP);
  return existsSync(stamp) ? JSON.parse(readFileSync(stamp, 'utf8')) : undefined;
}

/** The fixture info, or a clear error telling how to get it. */
export function requireFixtures(): FixtureInfo {
  const info = readFixtureInfo();
  if (!info) throw new Error(`no fixtures in ${NODE_FIXTURES}; run \`make fixtures\``);
  return info;
}

/** The WPT commit a folder of the fixtures comes from (test/fixtures/wpt/versions.json). */
export function wptCommitOf(dir: string): string {
  const versions = JSON.parse(readFileSync(join(WPT_ROOT, 'versions.json'), 'utf8')) as Record<string, { commit?: string }>;
  const module = Object.keys(versions)
    .filter((key) => dir === key || dir.startsWith(`${key}/`))
    .sort((a, b) => b.length - a.length)[0];
  const commit = module === undefined ? undefined : versions[module].commit;
  if (!commit) throw new Error(`test/fixtures/wpt/versions.json names no commit for ${dir}`);
  return commit;
}
