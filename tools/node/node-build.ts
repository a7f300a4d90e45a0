// `make node-build NODE_DIR=…`: the series on a new branch of a Node
// checkout, the native binding wired in, ./configure and make.
//
//   node tools/node/node-build.ts [--node-dir DIR] [--branch NAME] [--base-ref REF]
//     [--expect-base vX.Y.Z|COMMIT|any] [--patches DIR] [--configure-flags "…"]
//     [--build full|object|none]
//
// Each flag also reads from the environment (NODE_DIR, BRANCH, BASE_REF,
// EXPECT_BASE, PATCHES, CONFIGURE_FLAGS, NODE_BUILD; JOBS for make -j).
// Safe by default: it refuses a dirty tree, a base other than the expected
// one, an existing branch name, or a tree whose wiring anchors are missing,
// before changing anything; if applying the series fails it goes back to
// the original branch and deletes the branch it made.
import { parseFlags } from '../lib/args.ts';
import { checkBase, expectedBase, type BaseMatch } from './base-check.ts';
import { seriesForCheckout } from './checkout-series.ts';
import { BuildError, buildBindingObject, configure, makeNode, splitFlags, type Configured, type ObjectBuild } from './build-steps.ts';
import { branchExists, currentBranch, git, GitError, requireBranchName, requireClean, requireIdentity, requireRepo, tryGit } from './git.ts';
import { reportBinary, reportObject, type BinaryReport, type ObjectReport } from './report.ts';
import { applyPatches, commitWiring, listPatches, placeBindingSource, type Patch } from './series.ts';
import { BINDING_SOURCE, bindingSites, describeEdit, wireText, wireTree, WiringError, type Edit } from './wiring.ts';

export const DEFAULT_BRANCH = 'webstreams-overlay';
export const WIRING_SUBJECT = "src: add internalBinding('webstreams') to the build";
export type BuildMode = 'full' | 'object' | 'none';

export interface NodeBuildOptions {
  nodeDir: string;
  branch: string;
  /** Where the branch starts; must be the expected base. */
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
  bindingSource: 'copied' | 'from-series';
  edits: Edit[];
  wiringCommit?: string;
  head: string;
  configured?: Configured;
  binary?: BinaryReport;
  object?: ObjectBuild & { report: ObjectReport };
}

/** Throws the wiring error for `commit` (read from git, not the work tree) if an anchor is missing. */
export function checkAnchorsAt(dir: string, commit: string): void {
  for (const site of bindingSites()) {
    const r = tryGit(dir, ['show', `${commit}:${site.file}`]);
    if (!r.ok) throw new WiringError(`${site.file} is missing at ${commit.slice(0, 12)} in ${dir}; is it a Node source tree?`);
    wireText(r.stdout, site);
  }
}

/** Checks, branch, series, wiring: everything before configure. Rolls back on failure. */
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
  if (patches.length === 0) o.log(`no patches in ${patchesDir}: the branch gets only the native binding`);
  // The anchors are checked on the base before anything changes.
  checkAnchorsAt(dir, base.commit);

  const original = currentBranch(dir) ?? git(dir, ['rev-parse', 'HEAD']);
  git(dir, ['switch', '--quiet', '--create', o.branch, base.commit]);
  o.log(`created branch ${o.branch} at ${base.commit.slice(0, 12)} (was on ${original})`);
  try {
    applyPatches(dir, patches, o.log);
    const bindingSource = placeBindingSource(dir);
    o.log(bindingSource === 'copied' ? `copied src-native/node_webstreams.cc to ${BINDING_SOURCE}` : `${BINDING_SOURCE} comes from the series`);
    const edits = wireTree(dir);
    for (const e of edits) o.log(describeEdit(e));
    const wiringCommit = commitWiring(dir, `${WIRING_SUBJECT}\n\nWires ${BINDING_SOURCE} into node.gyp, src/node_binding.cc and\nsrc/node_external_reference.h (tools/node/wiring.ts of webstreams-overlay).\n`);
    if (wiringCommit) o.log(`committed the wiring as ${wiringCommit.slice(0, 12)}`);
    return { dir, branch: o.branch, base, patches, bindingSource, edits, wiringCommit, head: git(dir, ['rev-parse', 'HEAD']) };
  } catch (err) {
    // Back to where the user was; the branch is ours to delete (made above, nothing else on it).
    tryGit(dir, ['am', '--abort']);
    tryGit(dir, ['reset', '--hard', '--quiet']);
    tryGit(dir, ['clean', '-fdq', '--', 'src']);
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
    result.configured = configure(prepared.dir, o.mode === 'object' && !o.configureFlags.includes('--ninja') ? [...o.configureFlags, '--ninja'] : o.configureFlags, o.log);
    if (o.mode === 'full') {
      result.binary = reportBinary(makeNode(prepared.dir, o.log));
    } else {
      const built = buildBindingObject(prepared.dir, o.log);
      result.object = { ...built, report: reportObject(built.object) };
    }
  } catch (err) {
    // The branch is complete and stays; only the build failed.
    throw new BuildError(`${(err as Error).message}
branch ${o.branch} (series + wiring, ${prepared.head.slice(0, 12)}) stays checked out in ${prepared.dir}; ` +
      'after fixing the cause, rerun ./configure and make there');
  }
  return result;
}

export function formatResult(r: NodeBuildResult): string {
  const lines = [
    `checkout   ${r.dir}`,
    `branch     ${r.branch} at ${r.head.slice(0, 12)}, from ${r.base.commit.slice(0, 12)} (${r.base.version}; ${r.base.how})`,
    `patches    ${r.patches.length} applied${r.patches.length ? `: ${r.patches.map((p) => `${String(p.index).padStart(4, '0')}-${p.slug}`).join(', ')}` : ''}`,
    `binding    ${BINDING_SOURCE} ${r.bindingSource === 'copied' ? 'copied from src-native/' : 'from the series'}; ${r.wiringCommit ? `wiring commit ${r.wiringCommit.slice(0, 12)}` : 'wiring already in the series'}`,
    ...r.edits.map((e) => `           ${describeEdit(e)}`),
  ];
  if (r.configured) lines.push(`configure  ${r.configured.argv.join(' ')}${r.configured.gypFrom ? ' (gyp from node-gyp)' : ''}`);
  if (r.binary) {
    lines.push(`binary     ${r.binary.path}`, `version    ${r.binary.version}`, `internalBinding('webstreams'): ${r.binary.binding}`);
  }
  if (r.object) {
    const s = r.object.report.symbols;
    const mark = (ok: boolean) => (ok ? 'yes' : 'NO');
    lines.push(
      `object     ${r.object.object} (${r.object.report.bytes} bytes, ${r.object.seconds.toFixed(1)} s; target ${r.object.target})`,
      `           registers the binding: ${mark(s.register)}; external references: ${mark(s.externalReferences)}; Fast API path: ${mark(s.fastApi)}`,
      `           not a binary: NODE_BUILD=object builds only this object (use NODE_BUILD=full for out/Release/node)`,
    );
    if (r.object.diagnostics) lines.push(`compiler said:\n${r.object.diagnostics}`);
  }
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
  }, 'node tools/node/node-build.ts --node-dir DIR [--branch NAME] [--base-ref REF] [--expect-base vX.Y.Z|COMMIT|any] [--patches DIR] [--configure-flags "…"] [--build full|object|none]');
  // An empty variable (`make node-build BRANCH=`) counts as unset.
  const env = Object.fromEntries(Object.entries(process.env).filter(([, v]) => v !== '')) as NodeJS.ProcessEnv;
  const nodeDir = values['node-dir'] ?? env.NODE_DIR;
  if (!nodeDir) throw new GitError('NODE_DIR is required: make node-build NODE_DIR=/path/to/node');
  const mode = values.build ?? env.NODE_BUILD ?? 'full';
  if (mode !== 'full' && mode !== 'object' && mode !== 'none') throw new GitError(`NODE_BUILD must be full, object or none, not '${mode}'`);
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
