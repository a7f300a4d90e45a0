// `make node-build NODE_DIR=…`: the series on a new branch of a Node
// checkout (rebased onto it first when its lib is not the series' base),
// then ./configure and make.
//
//   node tools/node/node-build.ts [--node-dir DIR] [--branch NAME] [--base-ref REF]
//     [--expect-base vX.Y.Z|COMMIT|any] [--patches DIR] [--configure-flags "…"]
//     [--build full|configure|none]
//
// Each flag also reads from the environment (NODE_DIR, BRANCH, BASE_REF,
// EXPECT_BASE, PATCHES, CONFIGURE_FLAGS, NODE_BUILD; JOBS for make -j).
// Safe by default: it refuses a dirty tree, an existing branch name, or
// (with EXPECT_BASE) another base, before changing anything; a series that
// does not rebase cleanly stops with the report before any branch; if
// applying the series fails it goes back to the original branch and
// deletes the branch it made.
import { parseFlags } from '../lib/args.ts';
import { checkBase, expectedBase, type BaseMatch } from './base-check.ts';
import { BuildError, configure, makeNode, splitFlags, type Configured } from './build-steps.ts';
import { seriesForCheckout } from './checkout-series.ts';
import { branchExists, currentBranch, git, GitError, requireBranchName, requireClean, requireIdentity, requireRepo, tryGit } from './git.ts';
import { reportBinary, type BinaryReport } from './report.ts';
import { applyPatches, listPatches, type Patch } from './series.ts';

export const DEFAULT_BRANCH = 'webstreams-overlay';
/** full: configure and make; configure: stop after ./configure; none: stop after the branch. */
export type BuildMode = 'full' | 'configure' | 'none';

export interface NodeBuildOptions {
  nodeDir: string;
  branch: string;
  /** Where the branch starts. */
  baseRef: string;
  /** A version, commit or `any` the base must be; unset: any base, the series rebased onto it. */
  expectBase?: string;
  /** A series to apply as it is; unset: the overlay's series, rebased onto the checkout where needed. */
  patchesDir?: string;
  configureFlags: string[];
  mode: BuildMode;
  log: (message: string) => void;
}

export interface NodeBuildResult {
  dir: string;
  branch: string;
  base: BaseMatch;
  patches: Patch[];
  head: string;
  configured?: Configured;
  binary?: BinaryReport;
}

/** Checks, branch, series: everything before configure. Rolls back on failure. */
export function prepareBranch(o: NodeBuildOptions): Omit<NodeBuildResult, 'configured' | 'binary' | 'object'> {
  const dir = requireRepo(o.nodeDir);
  requireClean(dir);
  requireIdentity(dir);
  const base = checkBase(dir, o.baseRef, o.expectBase ? expectedBase(o.expectBase) : { spec: 'any', source: '' });
  if (!o.expectBase) base.how = 'any base (EXPECT_BASE unset)';
  o.log(`base ${base.commit.slice(0, 12)} (${base.version}): ${base.how}`);
  requireBranchName(dir, o.branch);
  if (branchExists(dir, o.branch)) {
    throw new GitError(`branch '${o.branch}' already exists in ${dir}; it is left alone. Pass BRANCH=<new name>, or delete it yourself (git branch -D ${o.branch})`);
  }
  let patchesDir = o.patchesDir;
  if (patchesDir === undefined) {
    const fitted = seriesForCheckout(dir, base.commit, o.log);
    o.log(`series: ${fitted.how}`);
    patchesDir = fitted.patchesDir;
  }
  const patches = listPatches(patchesDir);
  if (patches.length === 0) o.log(`no patches in ${patchesDir}: the branch is the base`);

  const original = currentBranch(dir) ?? git(dir, ['rev-parse', 'HEAD']);
  git(dir, ['switch', '--quiet', '--create', o.branch, base.commit]);
  o.log(`created branch ${o.branch} at ${base.commit.slice(0, 12)} (was on ${original})`);
  try {
    applyPatches(dir, patches, o.log);
    return { dir, branch: o.branch, base, patches, head: git(dir, ['rev-parse', 'HEAD']) };
  } catch (err) {
    // Back to where the user was; the branch is ours to delete (made above, nothing else on it).
    tryGit(dir, ['am', '--abort']);
    tryGit(dir, ['reset', '--hard', '--quiet']);
    const back = tryGit(dir, switchBackArgs(original));
    const deleted = back.ok && tryGit(dir, ['branch', '-D', o.branch]).ok;
    const state = back.ok ? `back on ${original}${deleted ? `, branch ${o.branch} deleted` : `; branch ${o.branch} could not be deleted`}` : `could not switch back to ${original}: ${back.stderr.trim()}`;
    throw new GitError(`${(err as Error).message}\nrolled back: ${state}`);
  }
}

/** git args that return to `original`: a branch name, or a commit id when HEAD was detached. */
function switchBackArgs(original: string): string[] {
  return /^[0-9a-f]{40}$/.test(original) ? ['switch', '--quiet', '--detach', original] : ['switch', '--quiet', original];
}

export function nodeBuild(o: NodeBuildOptions): NodeBuildResult {
  const prepared = prepareBranch(o);
  const result: NodeBuildResult = { ...prepared };
  if (o.mode === 'none') return result;
  try {
    result.configured = configure(prepared.dir, o.configureFlags, o.log);
    if (o.mode === 'full') result.binary = reportBinary(makeNode(prepared.dir, o.log), prepared.dir);
  } catch (err) {
    // The branch is complete and stays; only the build failed.
    throw new BuildError(`${(err as Error).message}
branch ${o.branch} (the series, ${prepared.head.slice(0, 12)}) stays checked out in ${prepared.dir}; ` +
      'after fixing the cause, rerun ./configure and make there');
  }
  return result;
}

export function formatResult(r: NodeBuildResult): string {
  const lines = [
    `checkout   ${r.dir}`,
    `branch     ${r.branch} at ${r.head.slice(0, 12)}, from ${r.base.commit.slice(0, 12)} (${r.base.version}; ${r.base.how})`,
    `patches    ${r.patches.length} applied${r.patches.length ? `: ${r.patches.map((p) => `${String(p.index).padStart(4, '0')}-${p.slug}`).join(', ')}` : ''}`,
  ];
  if (r.configured) lines.push(`configure  ${r.configured.argv.join(' ')}${r.configured.gypFrom ? ' (gyp from node-gyp)' : ''}`);
  if (r.binary) lines.push(`binary     ${r.binary.path}`, `version    ${r.binary.version}`, `webstreams ${r.binary.lib}`);
  return lines.join('\n');
}

export function optionsFromCli(): NodeBuildOptions {
  const { values } = parseFlags({
    'node-dir': { type: 'string' },
    branch: { type: 'string' },
    'base-ref': { type: 'string' },
    'expect-base': { type: 'string' },
    patches: { type: 'string' },
    'configure-flags': { type: 'string' },
    build: { type: 'string' },
  }, 'node tools/node/node-build.ts --node-dir DIR [--branch NAME] [--base-ref REF] [--expect-base vX.Y.Z|COMMIT|any] [--patches DIR] [--configure-flags "…"] [--build full|configure|none]');
  // An empty variable (`make node-build BRANCH=`) counts as unset.
  const env = Object.fromEntries(Object.entries(process.env).filter(([, v]) => v !== '')) as NodeJS.ProcessEnv;
  const nodeDir = values['node-dir'] ?? env.NODE_DIR;
  if (!nodeDir) throw new GitError('NODE_DIR is required: make node-build NODE_DIR=/path/to/node');
  const mode = values.build ?? env.NODE_BUILD ?? 'full';
  if (mode !== 'full' && mode !== 'configure' && mode !== 'none') throw new GitError(`NODE_BUILD must be full, configure or none, not '${mode}'`);
  return {
    nodeDir,
    branch: values.branch ?? env.BRANCH ?? DEFAULT_BRANCH,
    baseRef: values['base-ref'] ?? env.BASE_REF ?? 'HEAD',
    expectBase: values['expect-base'] ?? env.EXPECT_BASE,
    patchesDir: values.patches ?? env.PATCHES,
    configureFlags: splitFlags(values['configure-flags'] ?? env.CONFIGURE_FLAGS),
    mode,
    log: (m) => process.stderr.write(`node-build: ${m}\n`),
  };
}

if (import.meta.main) {
  try {
    const result = nodeBuild(optionsFromCli());
    console.log(`node-build: done\n${formatResult(result)}`);
  } catch (err) {
    console.error(`node-build: ${(err as Error).message}`);
    process.exit(1);
  }
}
