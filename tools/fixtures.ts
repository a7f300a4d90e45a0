// `make fixtures`: the upstream files the harness runs but never commits
// (WPT streams and the folders of the streams built on them, Node's
// test/common and test/parallel, typings/), copied
// from NODE_DIR when set, else unpacked from Debian's `nodejs` source
// package. Cached in .fixtures/node; `make fixtures-clean` drops the cache.
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { FIXTURES } from './lib/paths.ts';
import { nodeVersionOf } from './lib/base-source.ts';
import { FIXTURE_PATHS, FIXTURE_STAMP, FIXTURE_SUBSTITUTES, NODE_FIXTURES, readFixtureInfo, wptCommitOf, type FixtureInfo } from './lib/fixture-paths.ts';

const APT_CACHE = join(FIXTURES, 'apt');
const SOURCES_FILE = '/etc/apt/sources.list.d/webstreams-overlay-src.sources';
const SOURCES = `Types: deb-src
URIs: http://deb.debian.org/debian
Suites: forky sid
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
`;

function log(message: string): void {
  process.stderr.write(`fixtures: ${message}\n`);
}

function run(cmd: string, args: string[], cwd?: string): { ok: boolean; out: string } {
  const r = spawnSync(cmd, args, { cwd, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
  return { ok: r.status === 0, out: `${r.stdout ?? ''}${r.stderr ?? ''}${r.error ? String(r.error) : ''}` };
}

/** Runs a command as root (directly, or through sudo). */
function asRoot(args: string[]): { ok: boolean; out: string } {
  if (process.getuid?.() === 0) return run(args[0], args.slice(1));
  return run('sudo', ['-n', ...args]);
}

function copyFromCheckout(nodeDir: string): string {
  if (!existsSync(join(nodeDir, 'test', 'fixtures', 'wpt', 'streams'))) {
    throw new Error(`NODE_DIR=${nodeDir} has no test/fixtures/wpt/streams; is it a Node checkout?`);
  }
  for (const pattern of FIXTURE_PATHS) {
    const slash = pattern.lastIndexOf('/');
    const dir = pattern.slice(0, slash);
    const leaf = pattern.slice(slash + 1);
    const glob = new RegExp(`^${leaf.replace(/[.+]/g, '\\$&').replace(/\*/g, '.*')}$`);
    const from = join(nodeDir, dir);
    if (!existsSync(from)) continue;
    for (const name of readdirSync(from)) {
      if (glob.test(name)) cpSync(join(from, name), join(NODE_FIXTURES, dir, name), { recursive: true });
    }
  }
  return `checkout ${nodeDir}`;
}

/** Debian source versions of nodejs the apt sources know, newest first. */
function sourceVersions(): string[] {
  const r = run('apt-cache', ['showsrc', 'nodejs']);
  const versions = [...new Set([...r.out.matchAll(/^Version: (.+)$/gm)].map((m) => m[1].trim()))];
  return versions.sort((a, b) => (run('dpkg', ['--compare-versions', a, 'gt', b]).ok ? -1 : 1));
}

function ensureDebSrc(): string[] {
  let versions = sourceVersions();
  if (versions.some((v) => Number.parseInt(v, 10) >= 22)) return versions;
  log(`adding ${SOURCES_FILE} (deb-src for forky and sid) and running apt-get update`);
  const write = asRoot(['sh', '-c', `cat > ${SOURCES_FILE} <<'EOF'\n${SOURCES}EOF`]);
  if (!write.ok) throw new Error(`cannot write ${SOURCES_FILE} (need root or sudo): ${write.out}`);
  const update = asRoot(['apt-get', 'update']);
  if (!update.ok) throw new Error(`apt-get update failed:\n${update.out}`);
  versions = sourceVersions();
  if (versions.length === 0) throw new Error('apt knows no source package for nodejs');
  return versions;
}

/** Downloads the newest nodejs source package whose files download. */
function downloadSource(): { version: string; tarball: string } {
  mkdirSync(APT_CACHE, { recursive: true });
  const cached = readdirSync(APT_CACHE).find((f) => /^nodejs_.*\.orig\.tar\.xz$/.test(f));
  const dsc = readdirSync(APT_CACHE).find((f) => /^nodejs_.*\.dsc$/.test(f));
  if (cached && dsc) return { version: dsc.replace(/^nodejs_(.*)\.dsc$/, '$1'), tarball: join(APT_CACHE, cached) };
  const tried: string[] = [];
  for (const version of ensureDebSrc()) {
    log(`trying nodejs=${version}`);
    const r = run('apt-get', ['source', '--download-only', `nodejs=${version}`], APT_CACHE);
    const tarball = readdirSync(APT_CACHE).find((f) => /^nodejs_.*\.orig\.tar\.xz$/.test(f));
    if (r.ok && tarball) return { version, tarball: join(APT_CACHE, tarball) };
    tried.push(`${version}: ${r.out.split('\n').find((l) => l.startsWith('E:')) ?? 'failed'}`);
    for (const f of readdirSync(APT_CACHE)) rmSync(join(APT_CACHE, f), { force: true });
  }
  throw new Error(`no nodejs source package could be downloaded:\n  ${tried.join('\n  ')}`);
}

function unpackFromDebian(): string {
  const { version, tarball } = downloadSource();
  log(`unpacking ${FIXTURE_PATHS.length} paths from ${tarball}`);
  mkdirSync(NODE_FIXTURES, { recursive: true });
  const patterns = FIXTURE_PATHS.map((p) => `node-v*/${p}`);
  execFileSync('tar', ['-xJf', tarball, '-C', NODE_FIXTURES, '--strip-components=1', '--wildcards', ...patterns], {
    stdio: 'inherit',
  });
  return `debian nodejs ${version}`;
}

/** Copies in the FIXTURE_SUBSTITUTES the source lacks; returns what it used. */
function substitute(): Record<string, string> {
  const require = createRequire(import.meta.url);
  const used: Record<string, string> = {};
  for (const [path, npmFile] of Object.entries(FIXTURE_SUBSTITUTES)) {
    const target = join(NODE_FIXTURES, path);
    if (existsSync(target)) continue;
    const from = require.resolve(npmFile);
    const pkg = npmFile.split('/')[0];
    const version = (JSON.parse(readFileSync(require.resolve(`${pkg}/package.json`), 'utf8')) as { version: string }).version;
    mkdirSync(dirname(target), { recursive: true });
    cpSync(from, target);
    used[path] = `npm ${pkg}@${version} ${npmFile.slice(pkg.length + 1)}`;
    log(`${path}: not in the source, took ${used[path]}`);
  }
  return used;
}

function main(): void {
  const nodeDir = process.env.NODE_DIR;
  const wanted = nodeDir ? `checkout ${nodeDir}` : 'debian';
  const info = readFixtureInfo();
  const samePaths = JSON.stringify(info?.paths) === JSON.stringify(FIXTURE_PATHS);
  if (info && samePaths && (info.origin === wanted || (!nodeDir && info.origin.startsWith('debian ')))) {
    const substituted = substitute();
    if (Object.keys(substituted).length > 0) {
      writeFileSync(join(NODE_FIXTURES, FIXTURE_STAMP), `${JSON.stringify({ ...info, substituted: { ...info.substituted, ...substituted } }, null, 2)}\n`);
    }
    log(`cached: ${info.origin} (${NODE_FIXTURES}); \`make fixtures-clean\` to refetch`);
    return;
  }
  if (info && !samePaths) log(`the cached fixtures were taken by other paths; taking them again`);
  rmSync(NODE_FIXTURES, { recursive: true, force: true });
  mkdirSync(NODE_FIXTURES, { recursive: true });
  let origin: string;
  try {
    origin = nodeDir ? copyFromCheckout(nodeDir) : unpackFromDebian();
  } catch (err) {
    rmSync(NODE_FIXTURES, { recursive: true, force: true });
    throw err;
  }
  const substituted = substitute();
  const got: FixtureInfo = {
    origin,
    version: nodeVersionOf(join(NODE_FIXTURES, 'src', 'node_version.h')),
    paths: FIXTURE_PATHS,
    ...(Object.keys(substituted).length > 0 ? { substituted } : {}),
  };
  // Node's tests are CommonJS; the project's package.json says "module".
  writeFileSync(join(NODE_FIXTURES, 'package.json'), '{ "type": "commonjs" }\n');
  writeFileSync(join(NODE_FIXTURES, FIXTURE_STAMP), `${JSON.stringify(got, null, 2)}\n`);
  log(`ready: Node ${got.version} from ${got.origin}, WPT streams at ${wptCommitOf('streams')}`);
}

try {
  main();
} catch (err) {
  console.error(`fixtures: ${(err as Error).message}`);
  console.error('fixtures: set NODE_DIR=<node checkout>, or make Debian\'s deb-src for forky/sid reachable');
  process.exit(1);
}
