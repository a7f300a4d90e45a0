// A complete, buildable Node v24.21.0 tree from Debian's DFSG source package:
// every dependency the DFSG tarball strips is provisioned from the sources
// this project may use (Debian source packages from forky/sid, bookworm's
// own -dev packages, the npm registry), built here from source, with one
// exception: libuv and simdjson, whose sid source tarballs the archive does
// not serve (404), come from sid's prebuilt -dev packages (pinned .deb,
// SHA-256 checked, dpkg-deb -x into the prefix, never into /usr) plus a small
// compat library of our own for the few glibc 2.38 / GCC 13 symbols those
// sid-built archives reference (DEBIAN_BINARY_DEPS, COMPAT_SOURCES). Nothing
// it fetches is committed to this project; this file is the recipe. Apt
// packages come from tools/node/full-tree-setup.sh (run once by hand; CI
// never builds Node).
//
//   node tools/node/full-tree.ts provision   fetch + build deps, assemble the tree repo, configure
//   node tools/node/full-tree.ts configure   (re)run ./configure in the tree only
//   node tools/node/full-tree.ts status      print the dependency table and the configure flags
//
// Layout (override with NODE24_DIR / NODE24_DEPS):
//   /work/node24            git repo, one commit "v24.21.0 (Debian source + provisioned deps)";
//                           out/Release is the build dir (ignored through .git/info/exclude)
//   /work/node24-deps/debsrc   Debian source tarballs (apt-get source --download-only)
//   /work/node24-deps/debs     sid binary .debs (libuv1-dev, libsimdjson-dev) and their dpkg-deb -x trees
//   /work/node24-deps/npm      npm tarballs (npm pack) and build tools (npm install)
//   /work/node24-deps/src      unpacked sources, /build their builds,
//   /work/node24-deps/prefix   static (-fPIC) libraries + headers that ./configure's
//                              --shared-X-includes/-libpath point at (linked statically)
//
// Every step is idempotent (stamp files), so a rerun continues where it stopped.
import { spawnSync, type SpawnSyncOptions } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, cpSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { FIXTURES } from '../lib/paths.ts';

export const TREE = process.env.NODE24_DIR || '/work/node24';
export const DEPS = process.env.NODE24_DEPS || '/work/node24-deps';
export const PREFIX = join(DEPS, 'prefix');
const DEBSRC = join(DEPS, 'debsrc');
const DEBS = join(DEPS, 'debs');
const NPM_DIR = join(DEPS, 'npm');
const NPM_TOOLS = join(DEPS, 'npm-tools');
const SRC = join(DEPS, 'src');
const BUILD = join(DEPS, 'build');
export const COMMIT_MESSAGE = 'v24.21.0 (Debian source + provisioned deps)';

/** Debian's nodejs source package this tree is made from (the project's fixture). */
export const NODEJS_SOURCE = { pkg: 'nodejs', version: '24.21.0+dfsg+~cs24.13.4-1', orig: 'nodejs_24.21.0+dfsg+~cs24.13.4.orig.tar.xz', debian: 'nodejs_24.21.0+dfsg+~cs24.13.4-1.debian.tar.xz' };

export type Provided = 'prefix' | 'tree' | 'system' | 'missing';

export interface DebianDep {
  key: string;
  /** Debian source package. */
  pkg: string;
  /** Preferred version (exact, as apt knows it); the newest available >= min is used when it is gone. */
  version: string;
  min: string;
  why: string;
}

// The C/C++ libraries Debian's tarball strips, from forky/sid source packages.
// Only the upstream tarball (.orig) is used; Debian's own patches are not needed.
export const DEBIAN_DEPS: DebianDep[] = [
  { key: 'cares', pkg: 'c-ares', version: '1.34.8-1', min: '1.34.0', why: 'ares_nameser.h and the 1.34 API; bookworm has 1.18.1' },
  { key: 'nghttp2', pkg: 'nghttp2', version: '1.70.0-1', min: '1.61.0', why: 'nghttp2_option_set_stream_reset_rate_limit and friends; bookworm has 1.52.0' },
  { key: 'ada', pkg: 'ada-url', version: '3.4.4-1', min: '3.0.0', why: 'not in bookworm' },
  { key: 'simdutf', pkg: 'simdutf', version: '8.2.0-1', min: '6.0.0', why: 'V8 compiles deps/v8/third_party/simdutf itself; not in bookworm' },
  { key: 'llhttp', pkg: 'llhttp', version: '9.3.3~really9.3.0+~cs12.11.8-4', min: '9.3.0', why: 'not in bookworm' },
  { key: 'histogram', pkg: 'libhdr-histogram', version: '0.11.8-4', min: '0.11.0', why: 'not in bookworm' },
  { key: 'sqlite', pkg: 'sqlite3', version: '3.53.4-2', min: '3.46.1', why: 'node:sqlite needs the session extension and >= 3.46; bookworm has 3.40.1' },
  { key: 'zstd', pkg: 'libzstd', version: '1.5.7+dfsg-4', min: '1.5.6', why: 'zlib.zstd*; bookworm has 1.5.4' },
  { key: 'brotli', pkg: 'brotli', version: '1.2.0-4', min: '1.1.0', why: 'shared dictionaries (BrotliEncoderPrepareDictionary, 1.1); bookworm has 1.0.9' },
  { key: 'gtest', pkg: 'googletest', version: '1.18.0-1', min: '1.14.0', why: 'cctest (not the node binary); bookworm has 1.12.1' },
  { key: 'icu', pkg: 'icu', version: '78.3-2', min: '78.1', why: 'full-icu from source as deps/icu (Node 24.21 bundles ICU 78.3; bookworm has 72, Node needs >= 73)' },
];

/** Where the sid binary packages are fetched from (the pool; no binary index for sid is configured). */
export const DEBIAN_MIRROR = process.env.NODE24_DEBIAN_MIRROR || 'http://deb.debian.org/debian';

export interface DebianBinaryDep {
  key: string;
  /** Binary package (a -dev package with the headers and the static library). */
  pkg: string;
  /** Its source package: the pool directory, and `apt-cache showsrc` for newer versions if the pinned one is gone. */
  source: string;
  /** Pinned version and the SHA-256 of its amd64 .deb (as first fetched from the pool). */
  version: string;
  sha256: string;
  min: string;
  /** Paths inside the .deb copied to PREFIX/include (files or directories). */
  headers: string[];
  /** Static archives inside the .deb copied to PREFIX/lib (the .so symlinks are not: they would dangle). */
  libs: string[];
  /** ./configure --shared-X-libname: the static archive (the compat library follows it, see binaryLibname). */
  libname: string;
  why: string;
}

/**
 * libuv >= 1.51 and simdjson >= 3.13 from sid's binary -dev packages: the
 * archive lists their sid sources (libuv1 1.53.0-1, simdjson 4.6.11-1) but
 * answers 404 for the .orig tarballs, and bookworm's libuv 1.44.2 /
 * simdjson 3.0.1 do not compile Node 24 (see SYSTEM_FALLBACKS). The .debs
 * hold the headers and a static archive each, built on sid (glibc >= 2.38,
 * GCC >= 13, as the symbols they reference show): COMPAT_SOURCES supplies what those archives reference that
 * bookworm's glibc 2.36 / libstdc++ (GCC 12) lack.
 */
export const DEBIAN_BINARY_DEPS: DebianBinaryDep[] = [
  {
    key: 'libuv', pkg: 'libuv1-dev', source: 'libuv1', version: '1.53.0-1', sha256: 'd46de9fa494f03e5ac6974e34cee07159d600942e50d036a19763158ed06e8c5', min: '1.51.0',
    headers: ['usr/include/uv.h', 'usr/include/uv'], libs: ['usr/lib/x86_64-linux-gnu/libuv.a'], libname: 'uv',
    why: 'uv_tcp_keepalive_ex (1.51), uv_getrusage_thread, uv_thread_setname, uv_udp_try_send2, UV_TTY_MODE_RAW_VT (1.50); bookworm has 1.44.2',
  },
  {
    key: 'simdjson', pkg: 'libsimdjson-dev', source: 'simdjson', version: '4.6.11-1', sha256: '47494de08c356d6be4bbf36f6cfb2fe5d0598233b0a00de38694e3cf8c79d277', min: '3.13.0',
    headers: ['usr/include/simdjson.h'], libs: ['usr/lib/x86_64-linux-gnu/libsimdjson_static.a'], libname: 'simdjson_static',
    why: 'node:module package.json reader, config file; bookworm has 3.0.1',
  },
];

/** The static library COMPAT_SOURCES is built into (PREFIX/lib/lib<name>.a), linked after libuv and simdjson. */
export const COMPAT_LIB = 'webstreams_compat';

/**
 * The -libname of a sid-built archive: itself, then the compat library (each
 * names what it needs). gyp keeps only the first -lwebstreams_compat (right
 * after -luv, before -lsimdjson_static); it still resolves simdjson's
 * reference because Node's link rule puts $libs inside -Wl,--start-group …
 * --end-group (testLink links the same way).
 */
export function binaryLibname(key: string): string {
  const dep = DEBIAN_BINARY_DEPS.find((d) => d.key === key);
  if (!dep) throw new ProvisionError(`no binary dependency ${key}`);
  return `${dep.libname},${COMPAT_LIB}`;
}

/**
 * Symbols the sid-built archives reference that bookworm does not define,
 * and the definitions that stand in for them. Provisioning checks that the
 * archives need nothing else (nm against bookworm's libc, libm, libgcc,
 * libstdc++) and test-links them whole with bookworm's g++.
 *
 * - __isoc23_{sscanf,fscanf,strtol} (glibc 2.38, chosen by sid's headers in
 *   C23/_GNU_SOURCE mode) differ from the C99 functions only in accepting
 *   binary numbers: the 0b prefix for strtol base 0 or 2 and scanf %i, and
 *   scanf's %b. libuv 1.53 calls strtol with base 10 only and its scanf
 *   formats use %u %lu %llu %lld %lf %s %*s (checked on the .deb's
 *   libuv.a), so forwarding to the C99 functions is exact for it.
 * - std::ios_base_library_init() (GLIBCXX_3.4.32, GCC 13+) is what a GCC 13+
 *   <iostream> references instead of defining a static std::ios_base::Init:
 *   it only makes sure libstdc++'s own stream initialization is linked in.
 *   GCC 12's libstdc++ has none; a GCC 12 translation unit that includes
 *   <iostream> initializes the streams with its static ios_base::Init, so
 *   the object defining this (empty) function includes <iostream>, and
 *   whenever simdjson is linked the streams are initialized the GCC 12 way.
 *
 * All are hidden: the node binary (-rdynamic) does not export them.
 */
export const COMPAT_SOURCES: { file: string; symbols: string[]; text: string }[] = [
  {
    file: 'glibc238.c',
    symbols: ['__isoc23_fscanf', '__isoc23_sscanf', '__isoc23_strtol'],
    text: `/* tools/node/full-tree.ts (webstreams-overlay): glibc 2.38 symbols for sid-built static archives on glibc 2.36. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#define COMPAT __attribute__((visibility("hidden")))

COMPAT int __isoc23_sscanf(const char *restrict s, const char *restrict format, ...) {
  va_list ap;
  va_start(ap, format);
  int r = vsscanf(s, format, ap);
  va_end(ap);
  return r;
}

COMPAT int __isoc23_fscanf(FILE *restrict stream, const char *restrict format, ...) {
  va_list ap;
  va_start(ap, format);
  int r = vfscanf(stream, format, ap);
  va_end(ap);
  return r;
}

COMPAT long __isoc23_strtol(const char *restrict nptr, char **restrict endptr, int base) {
  return strtol(nptr, endptr, base);
}
`,
  },
  {
    file: 'glibcxx3432.cc',
    symbols: ['_ZSt21ios_base_library_initv'],
    text: `// tools/node/full-tree.ts (webstreams-overlay): GLIBCXX_3.4.32 for sid-built static archives on GCC 12's libstdc++.
// <iostream> gives this object GCC 12's static std::ios_base::Init, which initializes the standard streams.
#include <iostream>

namespace std {
__attribute__((visibility("hidden"))) void ios_base_library_init() {}
}
`,
  },
];

export interface NpmDep {
  key: string;
  spec: string;
  /** Where in the tree it ends up. */
  dest: string;
}

// The JS dependencies Node embeds (js2c) from deps/: node.gyp's deps_files and
// configure.py's shareable builtins (undici, amaro).
export const NPM_DEPS: NpmDep[] = [
  { key: 'acorn', spec: 'acorn@8.18.0', dest: 'deps/acorn/acorn' }, // src/acorn_version.h
  { key: 'acorn-walk', spec: 'acorn-walk@8.3.5', dest: 'deps/acorn/acorn-walk' },
  { key: 'minimatch', spec: 'minimatch@10.2.4', dest: 'deps/minimatch' }, // bundled to index.js like update-minimatch.sh
  { key: 'undici', spec: 'undici@7.29.1', dest: 'deps/undici' }, // src/undici_version.h; bundled to undici.js like update-undici.sh
  { key: 'amaro', spec: 'amaro@1.1.11', dest: 'deps/amaro' }, // src/amaro_version.h (TypeScript type stripping)
  { key: 'gyp', spec: 'node-gyp@12.4.0', dest: 'tools/gyp' }, // its gyp-next stands in for the stripped tools/gyp
];

/** Build tools from npm: esbuild (the bundles), llparse + tsx (llhttp's C from its TypeScript source). */
export const NPM_TOOL_SPECS = ['esbuild@0.27.3', 'llparse@7.3.0', 'tsx@4.19.3'];

// bookworm packages used as they are (tools/node/full-tree-setup.sh installs them).
export const SYSTEM_DEPS = [
  { key: 'openssl', pkg: 'libssl-dev', why: 'OpenSSL 3.0 is supported by Node 24 for shared builds (QUIC, which wants 3.5, is off by default)' },
  { key: 'zlib', pkg: 'zlib1g-dev', why: 'plain zlib 1.2.13 is enough for --shared-zlib' },
];

/**
 * bookworm packages that stand in when a Debian source cannot be fetched and
 * the older version still builds (checked by compiling Node's users of it).
 */
export const SYSTEM_FALLBACKS: Record<string, { pkg: string; why: string }> = {
  // None qualifies. bookworm's libsimdjson-dev 3.0.1 was tried for simdjson and does not
  // compile Node 24's users of it: no simdjson::pad, no value::raw_json, no
  // get_string(std::string&) / get_string(std::optional<std::string>&) overloads
  // (src/node_modules.cc, node_config_file.cc, node_sea.cc, node_snapshotable.cc), and
  // SIMDJSON_VERSION is not a string (src/node_metadata.cc). bookworm's libuv1-dev 1.44.2
  // lacks uv_tcp_keepalive_ex, uv_getrusage_thread, uv_thread_setname, uv_pipe_bind2,
  // uv_get_available_memory, UV_TCP_REUSEPORT, UV_TTY_MODE_RAW_VT, UV_PIPE_NO_TRUNCATE, ...
};

const log = (m: string) => process.stderr.write(`full-tree: ${m}\n`);

export class ProvisionError extends Error {}

function run(cmd: string, args: string[], opts: SpawnSyncOptions & { quiet?: boolean; allowFail?: boolean } = {}): { status: number; stdout: string; stderr: string } {
  const r = spawnSync(cmd, args, { encoding: 'utf8', maxBuffer: 512 * 1024 * 1024, ...opts, stdio: opts.quiet ? 'pipe' : ['ignore', 'pipe', 'pipe'] });
  if (r.error) throw new ProvisionError(`cannot run ${cmd}: ${r.error.message}`);
  const out = { status: r.status ?? 1, stdout: String(r.stdout ?? ''), stderr: String(r.stderr ?? '') };
  if (!opts.quiet && (out.stdout || out.stderr)) process.stderr.write((out.stdout + out.stderr).split('\n').slice(-15).join('\n') + '\n');
  if (out.status !== 0 && !opts.allowFail) throw new ProvisionError(`${cmd} ${args.join(' ')} exited with ${out.status} (cwd ${String(opts.cwd ?? '.')})\n${out.stderr.slice(-3000)}`);
  return out;
}

const sh = (script: string, cwd: string, env: NodeJS.ProcessEnv = {}) => run('sh', ['-ec', script], { cwd, env: { ...process.env, ...env } });

function sha256(file: string): string {
  return createHash('sha256').update(readFileSync(file)).digest('hex');
}

function versionGe(a: string, b: string): boolean {
  return spawnSync('dpkg', ['--compare-versions', a, 'ge', b]).status === 0;
}

/** The upstream part of a Debian version: 1:1.3.1-2 -> 1.3.1 (dfsg/really suffixes kept). */
export function upstreamOf(version: string): string {
  return version.replace(/^\d+:/, '').replace(/-[^-]+$/, '');
}

/** The upstream release a Debian version stands for: 9.3.3~really9.3.0+~cs12.11.8-4 -> 9.3.0, 1.5.7+dfsg-4 -> 1.5.7. */
export function releaseOf(version: string): string {
  const up = upstreamOf(version);
  return (/really([^+~]+)/.exec(up)?.[1] ?? up).replace(/[+~].*$/, '');
}

interface SourceFile { url: string; name: string; size: number; sha256: string }

/** The files of `pkg=version` as apt's index lists them (no download). */
function sourceFiles(pkg: string, version: string): SourceFile[] | undefined {
  const tmp = join(DEPS, '.print-uris');
  rmSync(tmp, { recursive: true, force: true });
  mkdirSync(tmp, { recursive: true });
  const r = run('apt-get', ['source', '--print-uris', `${pkg}=${version}`], { cwd: tmp, quiet: true, allowFail: true });
  if (r.status !== 0) return undefined;
  const files: SourceFile[] = [];
  for (const line of r.stdout.split('\n')) {
    const m = /^'([^']+)' (\S+) (\d+) SHA256:([0-9a-f]{64})/.exec(line);
    if (m) files.push({ url: m[1], name: m[2], size: Number(m[3]), sha256: m[4] });
  }
  return files;
}

function availableVersions(pkg: string): string[] {
  const r = run('apt-cache', ['showsrc', pkg], { quiet: true, allowFail: true });
  const versions = [...r.stdout.matchAll(/^Version: (\S+)$/gm)].map((m) => m[1]);
  return [...new Set(versions)].sort((a, b) => (versionGe(a, b) ? (versionGe(b, a) ? 0 : -1) : 1));
}

export interface Fetched { dep: DebianDep; version: string; orig: string; note?: string }

/**
 * The upstream tarball of a Debian source package, checked against the
 * SHA-256 in apt's index. `apt-get source --download-only` is allowed to
 * fail on the .dsc or the Debian diff (this archive does not serve every
 * file): only the .orig tarball is needed.
 */
export function fetchDebianOrig(dep: DebianDep): Fetched | { dep: DebianDep; error: string } {
  mkdirSync(DEBSRC, { recursive: true });
  const candidates = [dep.version, ...availableVersions(dep.pkg).filter((v) => v !== dep.version && versionGe(upstreamOf(v), dep.min))];
  const errors: string[] = [];
  for (const version of candidates) {
    const files = sourceFiles(dep.pkg, version);
    if (!files) { errors.push(`${version}: not in apt's source index`); continue; }
    const orig = files.find((f) => /\.orig\.tar\.[a-z0-9]+$/.test(f.name));
    if (!orig) { errors.push(`${version}: no .orig tarball listed`); continue; }
    const path = join(DEBSRC, orig.name);
    if (!(existsSync(path) && sha256(path) === orig.sha256)) {
      const r = run('apt-get', ['source', '--download-only', `${dep.pkg}=${version}`], { cwd: DEBSRC, quiet: true, allowFail: true });
      if (!existsSync(path)) {
        const why = /404\s+Not Found/.test(r.stdout + r.stderr) ? 'the archive answers 404 Not Found for it' : (r.stderr.trim().split('\n').pop() ?? 'download failed');
        errors.push(`${version}: ${orig.name}: ${why}`);
        continue;
      }
      if (sha256(path) !== orig.sha256) { rmSync(path); errors.push(`${version}: ${orig.name}: SHA-256 mismatch`); continue; }
    }
    return { dep, version, orig: path, note: version === dep.version ? undefined : `preferred ${dep.version} unavailable` };
  }
  return { dep, error: errors.join('; ') };
}

/** Unpacks a tarball into SRC/<key>-<upstream version> (stripping its top directory); returns the directory. */
function unpack(f: Fetched): string {
  const dir = join(SRC, `${f.dep.key}-${upstreamOf(f.version)}`);
  if (existsSync(join(dir, '.unpacked'))) return dir;
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  run('tar', ['-xf', f.orig, '-C', dir, '--strip-components=1'], { quiet: true });
  writeFileSync(join(dir, '.unpacked'), `${f.orig}\n`);
  return dir;
}

const CFLAGS = '-O2 -fPIC';
const cmakeCommon = (build: string) => [
  '-G', 'Ninja', '-B', build, `-DCMAKE_INSTALL_PREFIX=${PREFIX}`, '-DCMAKE_INSTALL_LIBDIR=lib', '-DCMAKE_BUILD_TYPE=Release',
  '-DCMAKE_POSITION_INDEPENDENT_CODE=ON', '-DBUILD_SHARED_LIBS=OFF', '-DBUILD_TESTING=OFF',
];

function cmakeBuild(key: string, src: string, extra: string[]): void {
  const build = join(BUILD, key);
  rmSync(build, { recursive: true, force: true });
  run('cmake', ['-S', src, ...cmakeCommon(build), ...extra]);
  run('ninja', ['-C', build, 'install']);
}

/** Builds one Debian-sourced library into PREFIX (static, -fPIC). */
function buildNative(key: string, src: string): void {
  switch (key) {
    case 'cares':
      cmakeBuild(key, src, ['-DCARES_STATIC=ON', '-DCARES_SHARED=OFF', '-DCARES_STATIC_PIC=ON', '-DCARES_BUILD_TOOLS=OFF', '-DCARES_BUILD_TESTS=OFF']);
      break;
    case 'nghttp2':
      cmakeBuild(key, src, ['-DENABLE_LIB_ONLY=ON', '-DBUILD_STATIC_LIBS=ON', '-DENABLE_DOC=OFF', '-DENABLE_FAILMALLOC=OFF']);
      break;
    case 'ada':
      cmakeBuild(key, src, ['-DADA_TESTING=OFF', '-DADA_TOOLS=OFF', '-DADA_BENCHMARKS=OFF', '-DADA_USE_SIMDUTF=OFF']);
      break;
    case 'brotli':
      cmakeBuild(key, src, ['-DBROTLI_DISABLE_TESTS=ON', '-DBROTLI_BUILD_TOOLS=OFF']);
      break;
    case 'zstd':
      cmakeBuild(key, join(src, 'build', 'cmake'), ['-DZSTD_BUILD_SHARED=OFF', '-DZSTD_BUILD_STATIC=ON', '-DZSTD_BUILD_PROGRAMS=OFF', '-DZSTD_BUILD_TESTS=OFF', '-DZSTD_BUILD_CONTRIB=OFF']);
      break;
    case 'histogram':
      cmakeBuild(key, src, ['-DHDR_HISTOGRAM_BUILD_SHARED=OFF', '-DHDR_HISTOGRAM_BUILD_STATIC=ON', '-DHDR_HISTOGRAM_BUILD_PROGRAMS=OFF', '-DHDR_LOG_REQUIRED=OFF']);
      break;
    case 'gtest':
      cmakeBuild(key, src, ['-DBUILD_GMOCK=ON', '-DINSTALL_GTEST=ON']);
      break;
    case 'sqlite': {
      // The amalgamation (needs tclsh), compiled with the options Node's own deps/sqlite/sqlite.gyp uses.
      const build = join(BUILD, key);
      rmSync(build, { recursive: true, force: true });
      mkdirSync(build, { recursive: true });
      sh(`"${src}/configure" --disable-shared >/dev/null && make sqlite3.c sqlite3.h sqlite3ext.h >/dev/null`, build);
      const defines = ['SQLITE_DEFAULT_MEMSTATUS=0', 'SQLITE_ENABLE_COLUMN_METADATA', 'SQLITE_ENABLE_DBSTAT_VTAB', 'SQLITE_ENABLE_FTS3',
        'SQLITE_ENABLE_FTS3_PARENTHESIS', 'SQLITE_ENABLE_FTS5', 'SQLITE_ENABLE_GEOPOLY', 'SQLITE_ENABLE_MATH_FUNCTIONS',
        'SQLITE_ENABLE_PREUPDATE_HOOK', 'SQLITE_ENABLE_RBU', 'SQLITE_ENABLE_RTREE', 'SQLITE_ENABLE_SESSION'].map((d) => `-D${d}`).join(' ');
      sh(`gcc ${CFLAGS} ${defines} -c sqlite3.c -o sqlite3.o && ar rcs libsqlite3.a sqlite3.o && mkdir -p "${PREFIX}/lib" "${PREFIX}/include" && cp libsqlite3.a "${PREFIX}/lib/" && cp sqlite3.h sqlite3ext.h "${PREFIX}/include/"`, build);
      break;
    }
    case 'llhttp': {
      // llhttp's C is generated from its TypeScript by llparse (npm), as its `make release` does.
      const tools = ensureNpmTools();
      rmSync(join(src, 'node_modules'), { recursive: true, force: true });
      run('ln', ['-s', join(tools, 'node_modules'), join(src, 'node_modules')]);
      run(process.execPath, ['--import', 'tsx', 'bin/generate.ts'], { cwd: src });
      const build = join(BUILD, key);
      rmSync(build, { recursive: true, force: true });
      mkdirSync(build, { recursive: true });
      sh(`for f in "${src}/build/c/llhttp.c" "${src}/src/native/api.c" "${src}/src/native/http.c"; do gcc ${CFLAGS} -I"${src}/build" -c "$f" -o "$(basename "$f" .c).o"; done
ar rcs libllhttp.a llhttp.o api.o http.o && mkdir -p "${PREFIX}/lib" "${PREFIX}/include" && cp libllhttp.a "${PREFIX}/lib/" && cp "${src}/build/llhttp.h" "${PREFIX}/include/"`, build);
      break;
    }
    default:
      throw new ProvisionError(`no build recipe for ${key}`);
  }
}

/** npm build tools in NPM_TOOLS/node_modules (installed once). */
function ensureNpmTools(): string {
  const stamp = join(NPM_TOOLS, '.installed');
  const want = NPM_TOOL_SPECS.join(' ');
  if (existsSync(stamp) && readFileSync(stamp, 'utf8') === want) return NPM_TOOLS;
  mkdirSync(NPM_TOOLS, { recursive: true });
  if (!existsSync(join(NPM_TOOLS, 'package.json'))) writeFileSync(join(NPM_TOOLS, 'package.json'), '{ "private": true }\n');
  run('npm', ['install', '--no-audit', '--no-fund', '--save-exact', ...NPM_TOOL_SPECS], { cwd: NPM_TOOLS });
  writeFileSync(stamp, want);
  return NPM_TOOLS;
}

/** `npm pack` of one spec into NPM_DIR, unpacked to NPM_DIR/<key>/package; returns that directory. */
function npmPackage(dep: NpmDep): string {
  const dir = join(NPM_DIR, dep.key);
  const stamp = join(dir, '.spec');
  if (existsSync(stamp) && readFileSync(stamp, 'utf8') === dep.spec) return join(dir, 'package');
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const r = run('npm', ['pack', '--json', dep.spec, '--pack-destination', dir], { cwd: dir, quiet: true });
  const [info] = JSON.parse(r.stdout) as { filename: string }[];
  run('tar', ['-xzf', join(dir, info.filename), '-C', dir], { quiet: true });
  writeFileSync(stamp, dep.spec);
  return join(dir, 'package');
}

export interface DepRow { dep: string; source: string; version: string; provided: Provided; how: string; url?: string; sha256?: string }

const STATE = () => join(DEPS, 'state.json');

function saveRows(rows: DepRow[]): void {
  mkdirSync(DEPS, { recursive: true });
  writeFileSync(STATE(), `${JSON.stringify(rows, null, 2)}\n`);
}

export function loadRows(): DepRow[] {
  return existsSync(STATE()) ? JSON.parse(readFileSync(STATE(), 'utf8')) as DepRow[] : [];
}

/** Headers that stop any compile including them, for a library that could not be provisioned. */
function poisonHeaders(key: string, why: string): void {
  const headers: Record<string, string[]> = { libuv: ['uv.h'], simdjson: ['simdjson.h'] };
  for (const h of headers[key] ?? []) {
    mkdirSync(join(PREFIX, 'include'), { recursive: true });
    writeFileSync(join(PREFIX, 'include', h), `/* written by tools/node/full-tree.ts: ${key} could not be provisioned */\n#error "${key} is not provisioned (${why.replace(/"/g, "'")}); rerun tools/node/full-tree.ts provision once it can be fetched"\n`);
  }
}

/** The pool URL of an amd64 binary package: pool/main/<lib?|?>/<source>/<pkg>_<version without epoch>_amd64.deb. */
export function poolUrl(dep: Pick<DebianBinaryDep, 'pkg' | 'source'>, version: string): string {
  const dir = dep.source.startsWith('lib') ? dep.source.slice(0, 4) : dep.source[0];
  return `${DEBIAN_MIRROR}/pool/main/${dir}/${dep.source}/${dep.pkg}_${version.replace(/^\d+:/, '')}_amd64.deb`;
}

export interface FetchedDeb { dep: DebianBinaryDep; version: string; deb: string; url: string; sha256: string; note?: string }

/**
 * The amd64 .deb of a binary dependency, from the pool by URL (no sid binary
 * index is configured). The pinned version must match its pinned SHA-256; if
 * the pool no longer has it (sid drops superseded versions), the versions
 * `apt-cache showsrc` lists for its source (>= min) are tried, unpinned, and
 * the row says so.
 */
export function fetchDebianBinary(dep: DebianBinaryDep): FetchedDeb | { dep: DebianBinaryDep; error: string } {
  mkdirSync(DEBS, { recursive: true });
  const others = availableVersions(dep.source).filter((v) => v !== dep.version && versionGe(upstreamOf(v), dep.min));
  const errors: string[] = [];
  for (const version of [dep.version, ...others]) {
    const url = poolUrl(dep, version);
    const deb = join(DEBS, url.slice(url.lastIndexOf('/') + 1));
    const pinned = version === dep.version ? dep.sha256 : undefined;
    if (!(existsSync(deb) && (!pinned || sha256(deb) === pinned))) {
      const part = `${deb}.part`;
      const r = run('curl', ['-fsSL', '--retry', '3', '-o', part, url], { quiet: true, allowFail: true });
      if (r.status !== 0) {
        rmSync(part, { force: true });
        errors.push(`${version}: ${url}: ${r.stderr.trim().split('\n').pop() || `curl exited with ${r.status}`}`);
        continue;
      }
      renameSync(part, deb);
    }
    const sum = sha256(deb);
    if (pinned && sum !== pinned) { rmSync(deb); errors.push(`${version}: ${url}: SHA-256 ${sum}, pinned ${pinned}`); continue; }
    const fields = run('dpkg-deb', ['-f', deb, 'Package', 'Version', 'Architecture'], { quiet: true, allowFail: true }).stdout.trim();
    const want = `Package: ${dep.pkg}\nVersion: ${version}\nArchitecture: amd64`;
    if (fields !== want) { errors.push(`${version}: ${url}: control fields ${JSON.stringify(fields)}, expected ${JSON.stringify(want)}`); continue; }
    return { dep, version, deb, url, sha256: sum, note: pinned ? undefined : `pinned ${dep.version} unavailable; SHA-256 not pinned` };
  }
  return { dep, error: errors.join('; ') };
}

/** dpkg-deb -x into DEBS/<pkg>_<version>, then the headers and static archives into PREFIX (nothing into /usr). */
function installDeb(f: FetchedDeb): void {
  const stamp = join(PREFIX, `.installed-${f.dep.key}`);
  const want = `${f.version} ${f.sha256}`;
  const files = [...f.dep.headers.map((h) => join(PREFIX, 'include', basename(h))), ...f.dep.libs.map((l) => join(PREFIX, 'lib', basename(l)))];
  if (existsSync(stamp) && readFileSync(stamp, 'utf8') === want && files.every((p) => existsSync(p))) return;
  log(`${f.dep.key}: unpacking ${basename(f.deb)} into ${PREFIX}`);
  const root = join(DEBS, `${f.dep.pkg}_${f.version}`);
  rmSync(root, { recursive: true, force: true });
  mkdirSync(root, { recursive: true });
  run('dpkg-deb', ['-x', f.deb, root], { quiet: true });
  mkdirSync(join(PREFIX, 'include'), { recursive: true });
  mkdirSync(join(PREFIX, 'lib'), { recursive: true });
  for (const h of f.dep.headers) {
    if (!existsSync(join(root, h))) throw new ProvisionError(`${basename(f.deb)} has no ${h}`);
    const dest = join(PREFIX, 'include', basename(h));
    rmSync(dest, { recursive: true, force: true }); // the #error stand-in (poisonHeaders), or an older copy
    cpSync(join(root, h), dest, { recursive: true });
  }
  for (const l of f.dep.libs) {
    if (!existsSync(join(root, l))) throw new ProvisionError(`${basename(f.deb)} has no ${l}`);
    copyFileSync(join(root, l), join(PREFIX, 'lib', basename(l)));
  }
  writeFileSync(stamp, want);
}

/** Builds COMPAT_SOURCES into PREFIX/lib/lib<COMPAT_LIB>.a (replaced only when its bytes change: ar is deterministic). */
function buildCompat(): string {
  const dir = join(BUILD, 'compat');
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const objs: string[] = [];
  for (const c of COMPAT_SOURCES) {
    writeFileSync(join(dir, c.file), c.text);
    const obj = c.file.replace(/\.[a-z]+$/, '.o');
    run(c.file.endsWith('.c') ? 'gcc' : 'g++', [...CFLAGS.split(' '), '-Wall', '-Wextra', '-Werror', '-c', c.file, '-o', obj], { cwd: dir, quiet: true });
    objs.push(obj);
  }
  const name = `lib${COMPAT_LIB}.a`;
  run('ar', ['rcsD', name, ...objs], { cwd: dir, quiet: true });
  const defined = nmSymbols([join(dir, name)]).defined;
  const missing = COMPAT_SOURCES.flatMap((c) => c.symbols).filter((s) => !defined.has(s));
  if (missing.length) throw new ProvisionError(`${name} does not define ${missing.join(', ')}`);
  const dest = join(PREFIX, 'lib', name);
  mkdirSync(join(PREFIX, 'lib'), { recursive: true });
  if (!(existsSync(dest) && sha256(dest) === sha256(join(dir, name)))) copyFileSync(join(dir, name), dest);
  return dest;
}

/** Defined and (strongly) undefined symbols of object files, archives or (dynamic: true) shared objects. */
function nmSymbols(files: string[], dynamic = false): { defined: Set<string>; undefined: Set<string> } {
  const defined = new Set<string>();
  const undef = new Set<string>();
  for (const f of files) {
    for (const line of run('nm', [...(dynamic ? ['-D'] : []), '-P', f], { quiet: true }).stdout.split('\n')) {
      const m = /^(\S+) ([A-Za-z]) /.exec(line);
      if (!m) continue;
      const name = m[1].replace(/@.*$/, '');
      if (m[2] === 'U') undef.add(name);
      else if (!/^[wv]$/.test(m[2])) defined.add(name);
    }
  }
  return { defined, undefined: undef };
}

/** Symbols the static linker itself (or crt*.o) provides. */
const LINKER_SYMBOLS = ['_GLOBAL_OFFSET_TABLE_', '_DYNAMIC', '__dso_handle', '__ehdr_start', '__executable_start', '__bss_start', '_edata', '_end', '__TMC_END__'];

/** What bookworm's C/C++ runtime defines: libc, libm, libgcc(_s), libstdc++, the dynamic loader, libc_nonshared. */
function systemSymbols(): Set<string> {
  const file = (name: string, cc = 'gcc') => run(cc, [`-print-file-name=${name}`], { quiet: true }).stdout.trim();
  const shared = [file('libc.so.6'), file('libm.so.6'), file('libgcc_s.so.1'), file('libstdc++.so', 'g++'), file('ld-linux-x86-64.so.2')];
  const archives = [file('libgcc.a'), file('libc_nonshared.a')];
  for (const f of [...shared, ...archives]) if (!f.startsWith('/') || !existsSync(f)) throw new ProvisionError(`cannot find bookworm's ${f} (gcc -print-file-name)`);
  return new Set([...nmSymbols(shared, true).defined, ...nmSymbols(archives).defined, ...LINKER_SYMBOLS]);
}

/**
 * The symbols the prebuilt archives need from outside themselves that
 * bookworm does not define: each must be one COMPAT_SOURCES defines.
 */
export function foreignSymbols(archive: string, system: Set<string>): string[] {
  const { defined, undefined: undef } = nmSymbols([archive]);
  return [...undef].filter((s) => !defined.has(s) && !system.has(s)).sort();
}

/** A program that uses both prebuilt libraries on the paths that need the compat symbols. */
const LINK_TEST = `// tools/node/full-tree.ts: test-link of the sid-built libuv.a + libsimdjson_static.a with bookworm's g++.
#include <uv.h>
#include <simdjson.h>
#include <cstdio>
#include <string>

static int worked = 0;
static void work(uv_work_t*) { worked = 1; }
static void after(uv_work_t*, int status) { if (status == 0) worked++; }

int main() {
  uv_loop_t* loop = uv_default_loop();
  uv_work_t req;
  if (uv_queue_work(loop, &req, work, after) != 0) return 2;  // the threadpool reads UV_THREADPOOL_SIZE (strtol)
  uv_run(loop, UV_RUN_DEFAULT);
  uv_cpu_info_t* cpus;
  int ncpus;
  if (uv_cpu_info(&cpus, &ncpus) != 0 || ncpus < 1) return 3;  // /proc/stat, /proc/cpuinfo (sscanf, fscanf)
  uv_free_cpu_info(cpus, ncpus);
  unsigned long long constrained = uv_get_constrained_memory();  // cgroup files (sscanf)
  simdjson::ondemand::parser parser;
  simdjson::padded_string json(std::string(R"({"name":"webstreams","n":[1,2,3]})"));
  simdjson::ondemand::document doc;
  if (parser.iterate(json).get(doc) != simdjson::SUCCESS) return 4;
  std::string_view name;
  if (doc["name"].get_string().get(name) != simdjson::SUCCESS) return 5;
  std::printf("libuv %s: threadpool %d, %d cpus, constrained memory %llu; simdjson %s (%s): name=%.*s\\n",
              uv_version_string(), worked, ncpus, constrained, SIMDJSON_VERSION,
              simdjson::get_active_implementation()->name().c_str(), int(name.size()), name.data());
  return worked == 2 && name == "webstreams" ? 0 : 6;
}
`;

/**
 * Compiles LINK_TEST with Node's C++ flags against PREFIX/include and links
 * it with bookworm's g++ twice: with every member of both archives
 * (--whole-archive: every symbol any member references must resolve), and
 * as Node links (-rdynamic, the configure libnames inside a group); runs
 * both and checks the compat symbols are not exported. Returns the output.
 */
export function testLink(): string {
  const dir = join(BUILD, 'link-test');
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'link-test.cc'), LINK_TEST);
  const inc = join(PREFIX, 'include');
  const lib = join(PREFIX, 'lib');
  run('g++', ['-O2', '-std=gnu++20', '-fno-exceptions', '-fno-rtti', '-pthread', '-Wall', '-Werror', `-I${inc}`, '-c', 'link-test.cc', '-o', 'link-test.o'], { cwd: dir, quiet: true });
  const libnames = DEBIAN_BINARY_DEPS.map((d) => `-l${d.libname}`);
  run('g++', ['-pthread', '-o', 'whole', 'link-test.o', `-L${lib}`, '-Wl,--whole-archive', ...libnames, '-Wl,--no-whole-archive', `-l${COMPAT_LIB}`, '-ldl'], { cwd: dir, quiet: true });
  const nodeStyle = DEBIAN_BINARY_DEPS.flatMap((d) => binaryLibname(d.key).split(',').map((l) => `-l${l}`));
  run('g++', ['-pthread', '-rdynamic', '-o', 'node-style', '-Wl,--start-group', 'link-test.o', `-L${lib}`, ...nodeStyle, '-ldl', '-Wl,--end-group'], { cwd: dir, quiet: true });
  const exported = nmSymbols([join(dir, 'node-style')], true).defined;
  const leaked = COMPAT_SOURCES.flatMap((c) => c.symbols).filter((s) => exported.has(s));
  if (leaked.length) throw new ProvisionError(`the test link exports ${leaked.join(', ')} (the compat symbols should be hidden)`);
  const outputs = ['whole', 'node-style'].map((exe) => run(join(dir, exe), [], { cwd: dir, quiet: true, env: { ...process.env, UV_THREADPOOL_SIZE: '3' } }).stdout.trim());
  if (outputs[0] !== outputs[1]) throw new ProvisionError(`test-link outputs differ: ${outputs.join(' | ')}`);
  return outputs[0];
}

/** The sid binary dependencies and the compat library; returns their table rows. */
export function provisionBinary(): DepRow[] {
  const rows: DepRow[] = [];
  const installed: FetchedDeb[] = [];
  for (const dep of DEBIAN_BINARY_DEPS) {
    const f = fetchDebianBinary(dep);
    if ('error' in f) {
      log(`${dep.key}: NOT AVAILABLE: ${f.error}`);
      rows.push({ dep: dep.key, source: `Debian binary ${dep.pkg} (sid, amd64)`, version: `wanted >= ${dep.min}`, provided: 'missing', how: `cannot be fetched: ${f.error}. Needed for: ${dep.why}` });
      poisonHeaders(dep.key, f.error);
      continue;
    }
    installDeb(f);
    installed.push(f);
  }
  if (!installed.length) return rows;
  const compat = buildCompat();
  const system = systemSymbols();
  const provided = new Set(COMPAT_SOURCES.flatMap((c) => c.symbols));
  const needs = new Map<string, string[]>();
  for (const f of installed) {
    for (const l of f.dep.libs) {
      const foreign = foreignSymbols(join(PREFIX, 'lib', basename(l)), system);
      const unknown = foreign.filter((s) => !provided.has(s));
      if (unknown.length) throw new ProvisionError(`${basename(l)} (${f.dep.pkg} ${f.version}) references ${unknown.join(', ')}, which neither bookworm nor ${basename(compat)} defines: add them to COMPAT_SOURCES`);
      needs.set(f.dep.key, [...(needs.get(f.dep.key) ?? []), ...foreign]);
    }
  }
  const linked = installed.length === DEBIAN_BINARY_DEPS.length ? testLink() : undefined;
  for (const f of installed) {
    const need = needs.get(f.dep.key) ?? [];
    rows.push({
      dep: f.dep.key,
      source: `Debian binary ${f.dep.pkg} ${f.version} (sid, amd64; source ${f.dep.source})${f.note ? ` (${f.note})` : ''}`,
      version: releaseOf(f.version),
      provided: 'prefix',
      how: `prebuilt on sid, dpkg-deb -x: ${[...f.dep.headers, ...f.dep.libs].map((p) => basename(p)).join(', ')} into ${PREFIX} (static; --shared-… flags point there); ` +
        `needs ${need.length ? need.join(', ') : 'nothing'} from lib${COMPAT_LIB}.a`,
      url: f.url,
      sha256: f.sha256,
    });
  }
  rows.push({
    dep: 'compat',
    source: 'tools/node/full-tree.ts (COMPAT_SOURCES)',
    version: '-',
    provided: 'prefix',
    how: `${compat}: ${COMPAT_SOURCES.map((c) => `${c.file} (${c.symbols.join(', ')})`).join(', ')}, for the sid-built archives on bookworm (glibc 2.36, GCC 12); ` +
      (linked ? `test-linked with bookworm's g++ (whole archives and Node's link order): ${linked}` : 'not test-linked (a binary dependency is missing)'),
  });
  return rows;
}

/** Fetches and builds every Debian-sourced library; returns the table rows. */
export function provisionNative(): { rows: DepRow[]; fetched: Map<string, string> } {
  const rows: DepRow[] = [];
  const fetched = new Map<string, string>();
  for (const dep of DEBIAN_DEPS) {
    const f = fetchDebianOrig(dep);
    if ('error' in f) {
      const fallback = SYSTEM_FALLBACKS[dep.key];
      const installed = fallback && run('dpkg-query', ['-W', '-f=${Version}', fallback.pkg], { quiet: true, allowFail: true }).stdout;
      if (fallback && installed) {
        log(`${dep.key}: Debian source unavailable (${f.error}); using bookworm's ${fallback.pkg} ${installed}`);
        rows.push({ dep: dep.key, source: `bookworm ${fallback.pkg} (Debian source ${dep.pkg} unavailable: ${f.error})`, version: installed, provided: 'system', how: fallback.why });
        continue;
      }
      log(`${dep.key}: NOT AVAILABLE: ${f.error}`);
      rows.push({ dep: dep.key, source: `Debian source ${dep.pkg} (forky/sid)`, version: `wanted >= ${dep.min}`, provided: 'missing', how: `cannot be fetched: ${f.error}. Needed for: ${dep.why}` });
      poisonHeaders(dep.key, f.error);
      continue;
    }
    const src = unpack(f);
    fetched.set(dep.key, src);
    const up = releaseOf(f.version);
    const source = `Debian source ${dep.pkg} ${f.version}${f.note ? ` (${f.note})` : ''}`;
    if (dep.key === 'icu' || dep.key === 'simdutf') {
      rows.push({ dep: dep.key, source, version: up, provided: 'tree', how: dep.key === 'icu' ? 'deps/icu (full-icu, built by tools/icu/icu-generic.gyp)' : 'amalgamated (singleheader/amalgamate.py) into deps/v8/third_party/simdutf, built by V8\'s gyp and shared by Node' });
      continue;
    }
    const stamp = join(PREFIX, `.built-${dep.key}`);
    if (!(existsSync(stamp) && readFileSync(stamp, 'utf8') === f.version)) {
      log(`${dep.key}: building ${dep.pkg} ${f.version} into ${PREFIX}`);
      buildNative(dep.key, src);
      writeFileSync(stamp, f.version);
    }
    rows.push({ dep: dep.key, source, version: up, provided: 'prefix', how: `built here (static, -fPIC) into ${PREFIX}; --shared-… flags point there` });
  }
  for (const s of SYSTEM_DEPS) {
    const v = run('dpkg-query', ['-W', '-f=${Version}', s.pkg], { quiet: true, allowFail: true }).stdout || 'not installed';
    rows.push({ dep: s.key, source: `bookworm ${s.pkg}`, version: v, provided: 'system', how: s.why });
  }
  rows.push(...provisionBinary());
  return { rows, fetched };
}

/** The Debian tarballs of the nodejs source package: the project's fixture cache, else apt-get source. */
function nodejsTarballs(): { orig: string; debian: string } {
  for (const dir of [process.env.NODE24_APT_DIR, join(FIXTURES, 'apt'), DEBSRC].filter((d): d is string => Boolean(d))) {
    const orig = join(dir, NODEJS_SOURCE.orig);
    const debian = join(dir, NODEJS_SOURCE.debian);
    if (existsSync(orig) && existsSync(debian)) return { orig, debian };
  }
  mkdirSync(DEBSRC, { recursive: true });
  run('apt-get', ['source', '--download-only', `${NODEJS_SOURCE.pkg}=${NODEJS_SOURCE.version}`], { cwd: DEBSRC, allowFail: true });
  const orig = join(DEBSRC, NODEJS_SOURCE.orig);
  const debian = join(DEBSRC, NODEJS_SOURCE.debian);
  if (!existsSync(orig) || !existsSync(debian)) throw new ProvisionError(`cannot get ${NODEJS_SOURCE.orig} and ${NODEJS_SOURCE.debian} (make fixtures in /work/main caches them)`);
  return { orig, debian };
}

/** Build products of the tree, kept out of `git status` without touching the tree's files. */
const EXCLUDES = ['/out/', '/config.gypi', '/config.status', '/config.mk', '/icu_config.gypi', '/node', '/node_g', '/deps/icu-tmp/', '__pycache__/', '*.pyc', '/tools/v8_gypfiles/*.pyc', '/test/fixtures/hello.txt', '/.ninja_*'];

/** The patches from Debian's series that this tree needs (the rest are for Debian's system-library layout). */
export const DEBIAN_PATCHES = [
  // V8's bundled Chromium zlib (deps/v8/third_party/zlib) is stripped and no allowed source has it.
  'deps/v8-no-static-zlib.patch',
];

function assembleTree(fetched: Map<string, string>, rows: DepRow[]): void {
  const treeRows = join(DEPS, 'tree-rows.json');
  if (existsSync(join(TREE, '.git'))) {
    log(`${TREE} is already a git repository; left as it is (delete it to assemble anew)`);
    if (existsSync(treeRows)) rows.push(...(JSON.parse(readFileSync(treeRows, 'utf8')) as DepRow[]));
    return;
  }
  const before = rows.length;
  const { orig, debian } = nodejsTarballs();
  const tmp = `${TREE}.tmp-${process.pid}`;
  rmSync(tmp, { recursive: true, force: true });
  mkdirSync(tmp, { recursive: true });
  log(`unpacking ${orig} to ${tmp}`);
  run('tar', ['-xJf', orig, '-C', tmp, '--strip-components=1'], { quiet: true });
  const debDir = join(DEPS, 'nodejs-debian');
  rmSync(debDir, { recursive: true, force: true });
  mkdirSync(debDir, { recursive: true });
  run('tar', ['-xJf', debian, '-C', debDir], { quiet: true });
  for (const p of DEBIAN_PATCHES) {
    log(`applying Debian's ${p}`);
    run('patch', ['-p1', '--forward', '-i', join(debDir, 'debian', 'patches', p)], { cwd: tmp, quiet: true });
  }

  // JS deps from npm.
  const tools = ensureNpmTools();
  const esbuild = join(tools, 'node_modules', '.bin', 'esbuild');
  for (const dep of NPM_DEPS) {
    const pkg = npmPackage(dep);
    const dest = join(tmp, dep.dest);
    const version = (JSON.parse(readFileSync(join(pkg, 'package.json'), 'utf8')) as { version: string }).version;
    rmSync(dest, { recursive: true, force: true });
    mkdirSync(dest, { recursive: true });
    let how = `${dep.dest}/ (npm package as published)`;
    if (dep.key === 'minimatch') {
      cpSync(pkg, dest, { recursive: true });
      // Its runtime dependencies (brace-expansion, balanced-match) go into the bundle.
      run('npm', ['install', '--omit=dev', '--ignore-scripts', '--no-package-lock', '--no-audit', '--no-fund'], { cwd: dest, quiet: true });
      run(esbuild, ['./dist/commonjs/index.js', '--bundle', '--platform=node', '--outfile=index.js', '--log-level=warning'], { cwd: dest, quiet: true });
      rmSync(join(dest, 'node_modules'), { recursive: true, force: true });
      how = 'deps/minimatch/index.js = esbuild bundle of dist/commonjs (as tools/dep_updaters/update-minimatch.sh)';
    } else if (dep.key === 'undici') {
      const srcDir = join(dest, 'src');
      cpSync(pkg, srcDir, { recursive: true });
      run(esbuild, ['index-fetch.js', '--bundle', '--platform=node', '--outfile=undici-fetch.js', '--define:esbuildDetection=1', '--keep-names', '--log-level=warning'], { cwd: srcDir, quiet: true });
      run(process.execPath, ['scripts/strip-comments.js'], { cwd: srcDir, quiet: true });
      renameSync(join(srcDir, 'undici-fetch.js'), join(dest, 'undici.js'));
      copyFileSync(join(srcDir, 'LICENSE'), join(dest, 'LICENSE'));
      how = 'deps/undici/undici.js = esbuild bundle of index-fetch.js (its build:node script, as update-undici.sh); package in deps/undici/src';
    } else if (dep.key === 'gyp') {
      cpSync(join(pkg, 'gyp'), dest, { recursive: true });
      how = `tools/gyp = gyp-next ${readFileSync(join(pkg, 'gyp', 'pyproject.toml'), 'utf8').match(/^version = "([^"]+)"/m)?.[1] ?? '?'} from node-gyp (Debian strips tools/gyp)`;
    } else {
      cpSync(pkg, dest, { recursive: true });
      if (dep.key === 'amaro') how = 'deps/amaro/dist/index.js (swc wasm inside); TypeScript type stripping';
    }
    rows.push({ dep: dep.key, source: `npm ${dep.spec}`, version, provided: 'tree', how });
  }
  writeFileSync(treeRows, `${JSON.stringify(rows.slice(before), null, 2)}\n`);

  // simdutf: V8's third_party copy, amalgamated from the Debian source.
  const simdutf = fetched.get('simdutf');
  if (simdutf) {
    const dest = join(tmp, 'deps', 'v8', 'third_party', 'simdutf');
    mkdirSync(dest, { recursive: true });
    const gen = join(BUILD, 'simdutf-amalgamation');
    rmSync(gen, { recursive: true, force: true });
    mkdirSync(gen, { recursive: true });
    run('python3', [join(simdutf, 'singleheader', 'amalgamate.py'), '--output-dir', gen, '--no-zip', '--no-readme'], { quiet: true });
    for (const f of ['simdutf.h', 'simdutf.cpp']) copyFileSync(join(gen, f), join(dest, f));
    for (const f of ['LICENSE-MIT', 'LICENSE-APACHE']) if (existsSync(join(simdutf, f))) copyFileSync(join(simdutf, f), join(dest, f));
  }
  // ICU: the whole icu4c source (with its prebuilt icudt78l.dat) as deps/icu, which ./configure picks up for full-icu.
  const icu = fetched.get('icu');
  if (icu) {
    cpSync(icu, join(tmp, 'deps', 'icu'), { recursive: true });
    rmSync(join(tmp, 'deps', 'icu', '.unpacked'), { force: true });
  }
  // What debian/rules does for a shared OpenSSL: node.gyp copies this file into out/.
  mkdirSync(join(tmp, 'deps', 'openssl'), { recursive: true });
  writeFileSync(join(tmp, 'deps', 'openssl', 'nodejs-openssl.cnf'), '# Built with a shared (system) OpenSSL: nothing Node-specific to configure.\n');

  run('git', ['init', '-q', '-b', 'v24.x-base'], { cwd: tmp, quiet: true });
  writeFileSync(join(tmp, '.git', 'info', 'exclude'), `# build products (tools/node/full-tree.ts)\n${EXCLUDES.join('\n')}\n`);
  run('git', ['add', '-A', '-f', '.'], { cwd: tmp, quiet: true });
  run('git', ['-c', 'user.name=webstreams-overlay', '-c', 'user.email=webstreams-overlay@localhost', 'commit', '-q', '-m', COMMIT_MESSAGE, '-m', commitBody(rows)], { cwd: tmp, quiet: true });
  run('git', ['tag', 'v24.21.0-provisioned'], { cwd: tmp, quiet: true });
  rmSync(TREE, { recursive: true, force: true });
  renameSync(tmp, TREE);
  log(`assembled ${TREE} (${run('git', ['rev-parse', '--short', 'HEAD'], { cwd: TREE, quiet: true }).stdout.trim()})`);
}

/** The tree commit's body: what is in the tree; the libraries outside it can change later. */
export function commitBody(rows: DepRow[]): string {
  const inTree = rows.filter((r) => r.provided === 'tree').map((r) => `  ${r.dep} ${r.version}: ${r.source}; ${r.how}`).join('\n');
  return `Debian's ${NODEJS_SOURCE.orig} (nodejs ${NODEJS_SOURCE.version}) with Debian's ${DEBIAN_PATCHES.join(', ')} applied, plus:\n` +
    `${inTree}\n  deps/openssl/nodejs-openssl.cnf (as debian/rules makes it for a shared OpenSSL)\n\n` +
    `The C/C++ libraries outside the tree (${PREFIX}, bookworm) and what could not be had: ` +
    `${STATE()} (node tools/node/full-tree.ts status in webstreams-overlay).\n\nAssembled by tools/node/full-tree.ts (webstreams-overlay).`;
}

/**
 * ./configure flags for the provisioned tree. Everything Debian strips
 * comes from PREFIX (static libs) or deps/; OpenSSL and zlib from bookworm.
 */
export function configureFlags(): string[] {
  const inc = join(PREFIX, 'include');
  const lib = join(PREFIX, 'lib');
  const shared = (flag: string, libname: string) => [`--shared-${flag}`, `--shared-${flag}-includes=${inc}`, `--shared-${flag}-libpath=${lib}`, `--shared-${flag}-libname=${libname}`];
  return [
    '--ninja', '--without-npm', '--without-corepack',
    '--with-intl=full-icu',
    '--shared-openssl', '--shared-zlib',
    ...shared('libuv', binaryLibname('libuv')),
    ...shared('cares', 'cares'),
    ...shared('nghttp2', 'nghttp2'),
    ...shared('ada', 'ada'),
    ...shared('http-parser', 'llhttp'),
    ...shared('hdr-histogram', 'hdr_histogram_static'),
    ...shared('sqlite', 'sqlite3'),
    ...shared('zstd', 'zstd'),
    ...shared('brotli', 'brotlienc,brotlidec,brotlicommon'),
    ...shared('gtest', 'gtest'),
    ...shared('simdjson', binaryLibname('simdjson')),
  ];
}

function withoutHostCompilers(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const out = { ...env };
  for (const k of ['GYP_CROSSCOMPILE', 'AR_host', 'CC_host', 'CXX_host', 'AR_target', 'CC_target', 'CXX_target']) delete out[k];
  return out;
}

export const CCACHE_DIR = process.env.CCACHE_DIR || '/work/.ccache';

export function configureTree(): void {
  const flags = configureFlags();
  mkdirSync(CCACHE_DIR, { recursive: true });
  run('ccache', ['--max-size=20G'], { env: { ...process.env, CCACHE_DIR }, quiet: true });
  log(`./configure ${flags.join(' ')}`);
  run('python3', ['./configure', ...flags], {
    cwd: TREE,
    // No CC_host/CXX_host: gyp takes either as a cross-compile and then emits host and
    // target copies of V8's actions with the same outputs (ninja: "multiple rules generate").
    env: { ...withoutHostCompilers(process.env), CC: 'ccache gcc', CXX: 'ccache g++', PKG_CONFIG_PATH: join(PREFIX, 'lib', 'pkgconfig') },
  });
  writeFileSync(join(DEPS, 'configure-flags.txt'), `${flags.join('\n')}\n`);
}

export function formatTable(rows: DepRow[]): string {
  const lines = ['| dep | source | version | provided |', '| --- | --- | --- | --- |'];
  for (const r of rows) lines.push(`| ${r.dep} | ${r.source} | ${r.version} | ${r.provided}: ${r.how} |`);
  return lines.join('\n');
}

if (import.meta.main) {
  const cmd = process.argv[2] ?? 'status';
  try {
    if (cmd === 'provision') {
      mkdirSync(DEPS, { recursive: true });
      const { rows, fetched } = provisionNative();
      assembleTree(fetched, rows);
      saveRows(rows);
      configureTree();
      console.log(formatTable(rows));
      const missing = rows.filter((r) => r.provided === 'missing');
      if (missing.length) console.log(`\nNOT PROVISIONED: ${missing.map((r) => r.dep).join(', ')} (see the table); the build cannot link until they are.`);
    } else if (cmd === 'configure') {
      configureTree();
    } else if (cmd === 'status') {
      console.log(formatTable(loadRows()));
      console.log(`\n./configure ${configureFlags().join(' ')}`);
    } else {
      throw new ProvisionError(`unknown command ${cmd}: provision | configure | status`);
    }
  } catch (err) {
    console.error(`full-tree: ${(err as Error).message}`);
    process.exit(1);
  }
}
