// `make compare NODE_DIR=… [BASE_REF=main]`: two real Node binaries from a
// checkout, then the project's comparison on them. This is only the front
// end that produces the binaries; the comparison is tools/compare.ts,
// called as
//
//   node tools/compare.ts --old <base binary> --new <patched binary> <options…>
//
// with the options given after `--` (the Makefile passes RUNS, QUICK,
// FILTER, SET, NAME through).
//
//   node tools/node/compare-checkout.ts [--node-dir DIR] [--base-ref REF]
//     [--old BIN] [--new BIN] [--branch NAME] [--expect-base …]
//     [--configure-flags "…"] [--patches DIR] [--cache DIR] [--plan] [-- compare options…]
//
// - The base binary is BASE_REF (default main) built in NODE_DIR (HEAD is
//   detached there for the build, then put back); the patched binary is
//   `make node-build`'s, on a new branch from the same commit. Node's
//   build is incremental, so the second build only redoes what the series
//   touches.
// - Both are cached in out/node-bin/ (base by commit, patched by commit +
//   series + binding source + configure flags) and reused on the next run.
// - OLD=<binary> and/or NEW=<binary> skip building that side; with both,
//   NODE_DIR is not needed.
// - Every refusal of node-build (dirty tree, wrong base, existing branch,
//   missing anchors) happens before the first (hours-long) build.
import { spawnSync } from 'node:child_process';
import { accessSync, constants, copyFileSync, existsSync, mkdirSync, readFileSync, statSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { dirname, isAbsolute, join, relative, resolve } from 'node:path';
import { parseFlags } from '../lib/args.ts';
import { OUT, ROOT } from '../lib/paths.ts';
import { checkBase, expectedBase } from './base-check.ts';
import { seriesForCheckout } from './checkout-series.ts';
import { configure, makeNode, splitFlags } from './build-steps.ts';
import { branchExists, currentBranch, git, GitError, requireBranchName, requireClean, requireIdentity, requireRepo, resolveCommit, tryGit } from './git.ts';
import { DEFAULT_BRANCH, nodeBuild } from './node-build.ts';
import { listPatches } from './series.ts';

export const COMPARE_TOOL = join(ROOT, 'tools', 'compare.ts');
export const BIN_CACHE = join(OUT, 'node-bin');

export interface CompareCheckoutOptions {
  nodeDir?: string;
  baseRef: string;
  old?: string;
  new?: string;
  branch: string;
  expectBase?: string;
  configureFlags: string[];
  /** A series to apply as it is; unset: the overlay's, rebased onto the checkout where needed. */
  patchesDir?: string;
  cache: string;
  compareTool: string;
  passThrough: string[];
  plan: boolean;
  log: (m: string) => void;
}

export interface Side {
  binary: string;
  /** prebuilt (OLD=/NEW=), cached (reused from out/node-bin) or build (to be built). */
  source: 'prebuilt' | 'cached' | 'build';
}

export interface Plan {
  old: Side;
  new: Side;
  baseCommit?: string;
  /** The series the patched binary gets (when it is built). */
  patchesDir?: string;
  /** The compare invocation, argv[0] being the Node running it. */
  compare: string[];
}

/** A prebuilt Node binary: an executable file whose --version answers vX.Y.Z. */
export function checkBinary(what: string, path: string): string {
  const abs = isAbsolute(path) ? path : resolve(path);
  if (!existsSync(abs) || !statSync(abs).isFile()) throw new GitError(`${what}=${path} is not a file (give the path to a node binary)`);
  try {
    accessSync(abs, constants.X_OK);
  } catch {
    throw new GitError(`${what}=${path} is not executable`);
  }
  const r = spawnSync(abs, ['--version'], { encoding: 'utf8', timeout: 30_000 });
  if (r.status !== 0 || !/^v\d+\.\d+\.\d+/.test(r.stdout.trim())) {
    throw new GitError(`${what}=${path} does not answer --version like node (got ${JSON.stringify((r.stdout || r.stderr || String(r.error)).trim().slice(0, 80))})`);
  }
  return abs;
}

/** Cache key of the patched binary: everything that goes into it besides the base. */
export function patchedKey(baseCommit: string, o: CompareCheckoutOptions, patchesDir: string): string {
  const hash = createHash('sha256').update(`${baseCommit}\n${o.configureFlags.join('\0')}\n`);
  for (const p of listPatches(patchesDir)) hash.update(readFileSync(p.file));
  return hash.digest('hex').slice(0, 16);
}

/** What would be built, reused or taken as given; runs every refusal check before any build. */
export function plan(o: CompareCheckoutOptions): Plan {
  const given = (what: 'OLD' | 'NEW', path: string | undefined): Side | undefined => (path ? { binary: checkBinary(what, path), source: 'prebuilt' } : undefined);
  let oldSide = given('OLD', o.old);
  let newSide = given('NEW', o.new);
  let baseCommit: string | undefined;
  let patchesDir: string | undefined;
  if (!oldSide || !newSide) {
    if (!o.nodeDir) throw new GitError('NODE_DIR is required to build a binary: make compare NODE_DIR=/path/to/node [BASE_REF=main], or give both OLD=<node binary> NEW=<node binary>');
    const dir = requireRepo(o.nodeDir);
    requireClean(dir);
    baseCommit = resolveCommit(dir, o.baseRef);
    if (!baseCommit) throw new GitError(`BASE_REF=${o.baseRef} names no commit in ${dir}`);
    if (o.expectBase) checkBase(dir, baseCommit, expectedBase(o.expectBase));
    if (!oldSide) {
      const cached = join(o.cache, `base-${baseCommit.slice(0, 12)}`, 'node');
      oldSide = { binary: cached, source: existsSync(cached) ? 'cached' : 'build' };
    }
    if (!newSide) {
      // The series as it fits this checkout: a conflict stops here, before any build.
      patchesDir = o.patchesDir ?? seriesForCheckout(dir, baseCommit, o.log).patchesDir;
      const cached = join(o.cache, `patched-${patchedKey(baseCommit, o, patchesDir)}`, 'node');
      newSide = { binary: cached, source: existsSync(cached) ? 'cached' : 'build' };
    }
    if (newSide.source === 'build') {
      // node-build's own refusals, now rather than after the base build.
      requireIdentity(dir);
      requireBranchName(dir, o.branch);
      if (branchExists(dir, o.branch)) {
        throw new GitError(`branch '${o.branch}' already exists in ${dir}; it is left alone. Pass BRANCH=<new name>, or delete it yourself (git branch -D ${o.branch})`);
      }
    }
  }
  if (!existsSync(o.compareTool)) {
    throw new GitError(`${o.compareTool} is missing: the comparison itself is tools/compare.ts (make compare)`);
  }
  return { old: oldSide, new: newSide, baseCommit, patchesDir, compare: compareArgv(o, oldSide, newSide) };
}

function compareArgv(o: CompareCheckoutOptions, old: Side, fresh: Side): string[] {
  return [process.execPath, o.compareTool, '--old', old.binary, '--new', fresh.binary, ...o.passThrough];
}

function switchBack(dir: string, original: string): void {
  const args = /^[0-9a-f]{40}$/.test(original) ? ['switch', '--quiet', '--detach', original] : ['switch', '--quiet', original];
  const r = tryGit(dir, args);
  if (!r.ok) throw new GitError(`could not switch ${dir} back to ${original}: ${r.stderr.trim()}`);
}

function keep(binary: string, into: string): void {
  mkdirSync(dirname(into), { recursive: true });
  copyFileSync(binary, into);
}

/** Builds what the plan says to build, leaving NODE_DIR on the branch or commit it was on. */
export function buildSides(o: CompareCheckoutOptions, p: Plan): void {
  if (p.old.source !== 'build' && p.new.source !== 'build') return;
  const dir = requireRepo(o.nodeDir!);
  // A given binary inside NODE_DIR (say NEW=$NODE_DIR/out/Release/node from
  // make node-build) would be overwritten by the build: keep a copy first.
  for (const side of [p.old, p.new]) {
    if (side.source === 'prebuilt' && !relative(dir, side.binary).startsWith('..')) {
      const copy = join(o.cache, `given-${createHash('sha256').update(readFileSync(side.binary)).digest('hex').slice(0, 16)}`, 'node');
      keep(side.binary, copy);
      o.log(`${side.binary} is inside NODE_DIR, which the build overwrites; using a copy: ${copy}`);
      side.binary = copy;
    }
  }
  p.compare = compareArgv(o, p.old, p.new);
  const original = currentBranch(dir) ?? git(dir, ['rev-parse', 'HEAD']);
  try {
    if (p.old.source === 'build') {
      o.log(`building the base binary: ${o.baseRef} = ${p.baseCommit!.slice(0, 12)} (HEAD detached there for the build)`);
      git(dir, ['switch', '--quiet', '--detach', p.baseCommit!]);
      configure(dir, o.configureFlags, o.log);
      keep(makeNode(dir, o.log), p.old.binary);
      o.log(`base binary: ${p.old.binary}`);
    }
    if (p.new.source === 'build') {
      o.log(`building the patched binary: make node-build on branch ${o.branch} from ${p.baseCommit!.slice(0, 12)}`);
      const r = nodeBuild({
        nodeDir: dir, branch: o.branch, baseRef: p.baseCommit!, expectBase: o.expectBase, patchesDir: p.patchesDir,
        configureFlags: o.configureFlags, mode: 'full', log: o.log,
      });
      keep(r.binary!.path, p.new.binary);
      o.log(`patched binary: ${p.new.binary} (branch ${o.branch} stays for inspection)`);
    }
  } finally {
    switchBack(dir, original);
    o.log(`${dir} is back on ${original}`);
  }
}

export function optionsFromCli(): CompareCheckoutOptions {
  const dash = process.argv.indexOf('--');
  const own = dash < 0 ? process.argv.slice(2) : process.argv.slice(2, dash);
  const passThrough = dash < 0 ? [] : process.argv.slice(dash + 1);
  process.argv.splice(2, Infinity, ...own);
  const { values, positionals } = parseFlags({
    'node-dir': { type: 'string' },
    'base-ref': { type: 'string' },
    old: { type: 'string' },
    new: { type: 'string' },
    branch: { type: 'string' },
    'expect-base': { type: 'string' },
    'configure-flags': { type: 'string' },
    patches: { type: 'string' },
    cache: { type: 'string' },
    'compare-tool': { type: 'string' },
    plan: { type: 'boolean', default: false },
  }, 'node tools/node/compare-checkout.ts [--node-dir DIR] [--base-ref REF] [--old BIN] [--new BIN] [--plan] [-- compare options…]');
  if (positionals.length) throw new GitError(`unexpected argument '${positionals[0]}'; options for tools/compare.ts go after --`);
  const env = Object.fromEntries(Object.entries(process.env).filter(([, v]) => v !== '')) as NodeJS.ProcessEnv;
  return {
    nodeDir: values['node-dir'] ?? env.NODE_DIR,
    baseRef: values['base-ref'] ?? env.BASE_REF ?? 'main',
    old: values.old ?? env.OLD,
    new: values.new ?? env.NEW,
    branch: values.branch ?? env.BRANCH ?? DEFAULT_BRANCH,
    expectBase: values['expect-base'] ?? env.EXPECT_BASE,
    configureFlags: splitFlags(values['configure-flags'] ?? env.CONFIGURE_FLAGS),
    patchesDir: values.patches ?? env.PATCHES,
    cache: values.cache ?? env.NODE_BIN_CACHE ?? BIN_CACHE,
    compareTool: values['compare-tool'] ?? env.COMPARE_TOOL ?? COMPARE_TOOL,
    passThrough,
    plan: values.plan,
    log: (m) => process.stderr.write(`compare-checkout: ${m}\n`),
  };
}

function describeSide(name: string, s: Side): string {
  const how = { prebuilt: 'given', cached: 'reused from the cache', build: 'to build' }[s.source];
  return `${name.padEnd(4)} ${s.binary} (${how})`;
}

if (import.meta.main) {
  try {
    const o = optionsFromCli();
    const p = plan(o);
    console.log(`${describeSide('old', p.old)}\n${describeSide('new', p.new)}\ncompare: ${p.compare.slice(1).map((a) => (/\s/.test(a) ? JSON.stringify(a) : a)).join(' ')}`);
    if (o.plan) process.exit(0);
    buildSides(o, p);
    o.log(`running ${p.compare.slice(1).join(' ')}`);
    const r = spawnSync(p.compare[0], p.compare.slice(1), { stdio: 'inherit', cwd: ROOT });
    process.exit(r.status ?? 1);
  } catch (err) {
    console.error(`compare-checkout: ${(err as Error).message}`);
    process.exit(1);
  }
}
