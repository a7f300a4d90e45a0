// tools/node/full-tree.ts and full-build.sh: the pure parts (flags, version
// parsing, the dependency table, the build log's failure summary). Fetching
// and building the real tree needs apt, npm and hours; it is not run here.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT } from '../../tools/lib/paths.ts';
import {
  COMPAT_LIB, COMPAT_SOURCES, configureFlags, DEBIAN_BINARY_DEPS, DEBIAN_DEPS, DEBIAN_MIRROR, DEBIAN_PATCHES, formatTable, NPM_DEPS, poolUrl, PREFIX,
  releaseOf, SYSTEM_DEPS, upstreamOf,
} from '../../tools/node/full-tree.ts';

test('every dependency the DFSG tarball strips has a provider', () => {
  const keys = new Set([...DEBIAN_DEPS, ...DEBIAN_BINARY_DEPS, ...NPM_DEPS, ...SYSTEM_DEPS].map((d) => d.key));
  for (const stripped of ['libuv', 'openssl', 'zlib', 'brotli', 'cares', 'nghttp2', 'ada', 'simdjson', 'simdutf', 'llhttp',
    'histogram', 'sqlite', 'zstd', 'gtest', 'icu', 'acorn', 'acorn-walk', 'minimatch', 'undici', 'amaro', 'gyp']) {
    assert.ok(keys.has(stripped), `${stripped} has no provider`);
  }
  assert.deepEqual(DEBIAN_PATCHES, ['deps/v8-no-static-zlib.patch']);
});

test('configure flags: full ICU from deps/icu, every shared library from the prefix, simdutf in the tree', () => {
  const flags = configureFlags();
  assert.ok(flags.includes('--ninja'));
  assert.ok(flags.includes('--with-intl=full-icu'));
  assert.ok(!flags.some((f) => f.startsWith('--without-intl') || f === '--without-amaro' || f === '--without-sqlite'));
  assert.ok(!flags.some((f) => f.startsWith('--shared-simdutf')), 'V8 compiles deps/v8/third_party/simdutf anyway; Node shares it');
  for (const lib of ['libuv', 'cares', 'nghttp2', 'ada', 'http-parser', 'hdr-histogram', 'sqlite', 'zstd', 'brotli', 'gtest', 'simdjson']) {
    assert.ok(flags.includes(`--shared-${lib}`), lib);
    assert.ok(flags.includes(`--shared-${lib}-includes=${join(PREFIX, 'include')}`), lib);
    assert.ok(flags.includes(`--shared-${lib}-libpath=${join(PREFIX, 'lib')}`), lib);
  }
  assert.ok(flags.includes('--shared-brotli-libname=brotlienc,brotlidec,brotlicommon'), 'static archives in link order');
  // The sid-built archives by their static names (bookworm's libuv.so / libsimdjson.so must not be picked), then the compat library.
  assert.ok(flags.includes(`--shared-libuv-libname=uv,${COMPAT_LIB}`));
  assert.ok(flags.includes(`--shared-simdjson-libname=simdjson_static,${COMPAT_LIB}`));
  assert.ok(flags.includes('--shared-openssl') && flags.includes('--shared-zlib'));
});

test('libuv and simdjson: pinned sid .debs from the pool; the compat library covers what bookworm lacks', () => {
  const seen = new Set<string>();
  for (const dep of DEBIAN_BINARY_DEPS) {
    assert.ok(!DEBIAN_DEPS.some((d) => d.key === dep.key), `${dep.key} is not also built from source`);
    assert.match(dep.sha256, /^[0-9a-f]{64}$/, dep.key);
    assert.ok(dep.libs.every((l) => l.endsWith('.a')), `${dep.key}: static archives only`);
    seen.add(dep.key);
  }
  assert.deepEqual([...seen].sort(), ['libuv', 'simdjson']);
  assert.equal(poolUrl({ pkg: 'libuv1-dev', source: 'libuv1' }, '1.53.0-1'), `${DEBIAN_MIRROR}/pool/main/libu/libuv1/libuv1-dev_1.53.0-1_amd64.deb`);
  assert.equal(poolUrl({ pkg: 'libsimdjson-dev', source: 'simdjson' }, '4.6.11-1'), `${DEBIAN_MIRROR}/pool/main/s/simdjson/libsimdjson-dev_4.6.11-1_amd64.deb`);
  assert.equal(poolUrl({ pkg: 'x-dev', source: 'x' }, '2:1.0-1'), `${DEBIAN_MIRROR}/pool/main/x/x/x-dev_1.0-1_amd64.deb`, 'no epoch in pool file names');
  const symbols = COMPAT_SOURCES.flatMap((c) => c.symbols).sort();
  assert.deepEqual(symbols, ['_ZSt21ios_base_library_initv', '__isoc23_fscanf', '__isoc23_sscanf', '__isoc23_strtol']);
  for (const c of COMPAT_SOURCES) {
    for (const s of c.symbols) {
      const plain = s === '_ZSt21ios_base_library_initv' ? 'ios_base_library_init' : s;
      assert.ok(c.text.includes(plain), `${c.file} defines ${plain}`);
    }
    assert.match(c.text, /visibility\("hidden"\)/, `${c.file}: hidden, not exported by node -rdynamic`);
  }
});

test('Debian versions: upstream part and the release they stand for', () => {
  assert.equal(upstreamOf('1:1.3.dfsg+really1.3.1-2'), '1.3.dfsg+really1.3.1');
  assert.equal(releaseOf('9.3.3~really9.3.0+~cs12.11.8-4'), '9.3.0');
  assert.equal(releaseOf('1.5.7+dfsg-4'), '1.5.7');
  assert.equal(releaseOf('78.3-2'), '78.3');
});

test('the dependency table has one row per dependency', () => {
  const table = formatTable([
    { dep: 'cares', source: 'Debian source c-ares 1.34.8-1', version: '1.34.8', provided: 'prefix', how: 'static' },
    { dep: 'libuv', source: 'Debian source libuv1', version: 'wanted >= 1.51.0', provided: 'missing', how: '404' },
  ]);
  assert.equal(table.split('\n').length, 4);
  assert.match(table, /^\| libuv \| Debian source libuv1 \| wanted >= 1\.51\.0 \| missing: 404 \|$/m);
});

test('full-build.sh status splits the latest run\'s failed edges by cause', () => {
  const dir = mkdtempSync(join(tmpdir(), 'full-build-'));
  const log = join(dir, 'base.log');
  writeFileSync(log, [
    '=== start 2026-01-01T00:00:00+00:00 old run',
    'FAILED: obj/old.o', 'old error',
    '=== start 2026-01-02T00:00:00+00:00 ninja',
    '[1/9] CXX obj/a.o',
    'FAILED: obj/tools/node_js2c.js2c.o', 'ccache g++ -c js2c.cc', 'uv.h:2:2: error: #error "libuv is not provisioned (404)"',
    '[3/9] CXX obj/b.o',
    'FAILED: obj/src/x.o', 'g++ -c x.cc', 'x.cc:1:1: error: something else',
    '',
  ].join('\n'));
  const r = spawnSync('sh', [join(ROOT, 'tools', 'node', 'full-build.sh'), 'status'], {
    encoding: 'utf8', env: { ...process.env, NODE24_DIR: join(dir, 'no-tree'), BUILD_LOG: log, BUILD_PID: join(dir, 'base.pid') },
  });
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, /^not running/m);
  assert.match(r.stdout, /^failed edges: 2 \(1 for an unprovisioned dependency, 1 other\)$/m);
});
