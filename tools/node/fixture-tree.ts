// A whole Node source tree for the in-tree checks: Debian's nodejs source
// tarball (cached by `make fixtures` in .fixtures/apt) unpacked to
// .fixtures/node-full without doc/ and test/ (about 120 MB), plus the
// ./configure flags that tree needs on Debian.
//
//   node tools/node/fixture-tree.ts     unpacks it (cached) and prints its path
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { FIXTURES } from '../lib/paths.ts';
import { nodeVersionOf } from '../lib/base-source.ts';

export const NODE_FULL = join(FIXTURES, 'node-full');
const APT_CACHE = join(FIXTURES, 'apt');
const STAMP = '.webstreams-fixture.json';

/**
 * ./configure flags for the DFSG tree on Debian, after debian/rules: every
 * library the tarball strips (uv, openssl, zlib, brotli, c-ares, nghttp2/3,
 * ngtcp2, ada, simdjson, simdutf, llhttp, histogram, sqlite, zstd, gtest)
 * comes from the system, npm/corepack/amaro are left out. Debian builds with
 * --with-intl=system-icu; this uses --without-intl because bookworm's ICU 72
 * is older than the 73 Node 24 requires. --ninja so the binding object can
 * be built alone.
 */
export const FIXTURE_CONFIGURE_FLAGS = [
  '--ninja', '--without-npm', '--without-corepack', '--without-amaro', '--without-intl',
  '--shared-libuv', '--shared-openssl', '--shared-zlib', '--shared-brotli', '--shared-cares',
  '--shared-nghttp2', '--shared-nghttp3', '--shared-ngtcp2', '--shared-ada', '--shared-simdjson',
  '--shared-simdutf', '--shared-http-parser', '--shared-hdr-histogram', '--shared-sqlite',
  '--shared-zstd', '--shared-gtest',
];

export interface NodeTree {
  dir: string;
  version: string;
  tarball: string;
}

function tarball(): string {
  const name = existsSync(APT_CACHE) ? readdirSync(APT_CACHE).find((f) => /^nodejs_.*\.orig\.tar\.xz$/.test(f)) : undefined;
  if (!name) {
    throw new Error(`no nodejs source tarball in ${APT_CACHE}; run \`make fixtures\` (without NODE_DIR: the in-tree checks need Debian's source package)`);
  }
  return join(APT_CACHE, name);
}

/** The unpacked tree, unpacking it first if needed (about 2 s). */
export function ensureNodeTree(log: (m: string) => void = () => {}): NodeTree {
  const source = tarball();
  const stampFile = join(NODE_FULL, STAMP);
  if (existsSync(stampFile)) {
    const stamp = JSON.parse(readFileSync(stampFile, 'utf8')) as NodeTree;
    if (stamp.tarball === source) return stamp;
  }
  log(`unpacking ${source} to ${NODE_FULL} (without doc/ and test/)`);
  // Unpack beside and rename, so a concurrent or interrupted run never sees half a tree.
  const tmp = `${NODE_FULL}.tmp-${process.pid}`;
  rmSync(tmp, { recursive: true, force: true });
  mkdirSync(tmp, { recursive: true });
  execFileSync('tar', ['-xJf', source, '-C', tmp, '--strip-components=1', '--exclude=node-v*/doc', '--exclude=node-v*/test'], { stdio: 'inherit' });
  const tree: NodeTree = { dir: NODE_FULL, version: nodeVersionOf(join(tmp, 'src', 'node_version.h')), tarball: source };
  writeFileSync(join(tmp, STAMP), `${JSON.stringify(tree, null, 2)}\n`);
  rmSync(NODE_FULL, { recursive: true, force: true });
  try {
    renameSync(tmp, NODE_FULL);
  } catch (err) {
    rmSync(tmp, { recursive: true, force: true });
    if (!existsSync(stampFile)) throw err;
  }
  return tree;
}

if (import.meta.main) {
  try {
    const tree = ensureNodeTree((m) => process.stderr.write(`fixture-tree: ${m}\n`));
    console.log(`${tree.dir} (Node ${tree.version})`);
  } catch (err) {
    console.error(`fixture-tree: ${(err as Error).message}`);
    process.exit(1);
  }
}
