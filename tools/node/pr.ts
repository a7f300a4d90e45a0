// `make pr`: one PR per overlay layer, stacked unless the series says
// otherwise. Dry run by default: it
// writes each PR body to out/pr/ and prints the git and API calls it would
// make; with NODE_DIR it also creates the layer branches there (in a
// temporary worktree: the user's work tree and HEAD are not touched), each
// commit signed off by the checkout's git identity. With --submit (make pr
// SUBMIT=1), GITHUB_TOKEN and a fork remote it pushes the branches and opens
// the PRs with @octokit/rest, PR k based on layer k-1's branch (on the PR
// base itself for a series whose series.json says "independent"). It refuses
// a placeholder identity, and opening PRs where the checkout's
// doc/contributing/ai-guidelines.md forbids automated tooling to do so
// (nodejs/node does): there it pushes nothing and says to open them by hand.
//
//   node tools/node/pr.ts [--submit] [--node-dir DIR] [--base-ref REF] [--expect-base …]
//     [--repo OWNER/NAME] [--pr-base BRANCH] [--remote NAME] [--fork-owner NAME]
//     [--branch-prefix P] [--draft] [--api-url URL] [--overlay DIR] [--patches DIR]
//     [--out DIR] [--compare-dir DIR] [--results DIR] [--series NAME] [--independent]
//
// Environment: NODE_DIR, BASE_REF, EXPECT_BASE, PR_REPO, PR_BASE,
// FORK_REMOTE, FORK_OWNER, BRANCH_PREFIX, GITHUB_API_URL, GITHUB_TOKEN.
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { parseFlags } from '../lib/args.ts';
import { listLayers } from '../lib/layers.ts';
import { compareRoot, LIB_OVERLAY, OUT, PATCHES, ROOT } from '../lib/paths.ts';
import { checkBase, expectedBase, type BaseMatch } from './base-check.ts';
import { committerIdentity, GitError, placeholderIdentity, requireIdentity, requireRepo, tryGit } from './git.ts';
import { seriesForCheckout } from './checkout-series.ts';
import { describeCalls, describeSteps, submit, SubmitError, type PrRequest, type Step, type Target } from './github.ts';
import { makeLayerBranches } from './pr-branches.ts';
import { pairLayers, renderBody, type Evidence, type PrLayer } from './pr-plan.ts';
import { listPatches } from './series.ts';
import { readSeries } from '../series/config.ts';

export interface PrOptions {
  submit: boolean;
  nodeDir?: string;
  baseRef: string;
  expectBase?: string;
  owner: string;
  repo: string;
  prBase: string;
  /** What every PR title starts with (`[v24.x backport] ` for the v24.x series). */
  titlePrefix?: string;
  /** Each PR (and its branch) on prBase alone instead of stacked on the one before it. */
  independent?: boolean;
  remote: string;
  forkOwner?: string;
  branchPrefix: string;
  draft: boolean;
  apiUrl: string;
  overlay: string;
  patches: string;
  /** PATCHES was given: apply it as is, also in a checkout whose lib is not the series' base. */
  patchesExplicit?: boolean;
  out: string;
  evidence: Evidence;
  token?: string;
  log: (m: string) => void;
}

/** owner/name of a GitHub remote URL (https or ssh), or undefined for anything else. */
export function githubOwner(url: string): string | undefined {
  return /github\.com[:/]([^/]+)\/[^/]+?(?:\.git)?\/?$/.exec(url)?.[1];
}

function bodyFile(o: PrOptions, p: PrLayer): string {
  return join(o.out, `${p.layer.name}.md`);
}

export interface PrRun {
  pairs: PrLayer[];
  calls: string[];
  steps: Step[];
}

/** Why the checkout's contributing rules forbid tooling to open PRs on `owner/repo`, or undefined. */
export function automatedPrRule(dir: string, commit: string, owner: string, repo: string): string | undefined {
  const r = tryGit(dir, ['show', `${commit}:doc/contributing/ai-guidelines.md`]);
  if (!r.ok || !/must not be opened by automated tooling/i.test(r.stdout)) return undefined;
  if (`${owner}/${repo}` !== 'nodejs/node') return undefined;
  return 'doc/contributing/ai-guidelines.md of this checkout: "Pull requests must not be opened by automated tooling, unless specifically approved in advance by the project."';
}

export async function runPr(o: PrOptions): Promise<PrRun> {
  // Without NODE_DIR the committed series; in a checkout, the series as it fits there.
  let patchesDir = o.patches;
  let dir: string | undefined;
  let base: BaseMatch | undefined;
  if (o.nodeDir) {
    dir = requireRepo(o.nodeDir);
    requireIdentity(dir);
    base = checkBase(dir, o.baseRef, o.expectBase ? expectedBase(o.expectBase) : { spec: 'any', source: '' });
    if (!o.expectBase) base.how = 'any base (EXPECT_BASE unset)';
    if (o.patchesExplicit !== true) patchesDir = seriesForCheckout(dir, base.commit, o.log).patchesDir;
  }
  const pairs = pairLayers(listLayers(o.overlay), listPatches(patchesDir), o.branchPrefix);
  const requests: PrRequest[] = pairs.map((p, i) => ({
    branch: p.branch,
    title: `${o.titlePrefix ?? ''}${p.md.subject}`,
    base: i === 0 || o.independent ? o.prBase : pairs[i - 1].branch,
    body: (earlier) => renderBody(pairs, i + 1, o.evidence, earlier.map((number) => ({ number })), o.prBase, o.independent),
  }));

  // Refusals before anything is written, created or sent.
  let target: Target | undefined;
  if (o.submit) {
    if (!o.token) throw new GitError('--submit needs GITHUB_TOKEN in the environment (a token that may open PRs on the target repository)');
    if (!dir || !base) throw new GitError('--submit needs NODE_DIR: the Node checkout to make and push the layer branches from');
    const who = committerIdentity(dir);
    const placeholder = placeholderIdentity(who);
    if (placeholder) throw new GitError(`--submit signs every commit off (DCO) as ${who}: ${placeholder}. Set your own identity in ${dir} (git config user.name/user.email)`);
    const rule = automatedPrRule(dir, base.commit, o.owner, o.repo);
    if (rule) {
      throw new GitError(`not opening PRs on ${o.owner}/${o.repo}: ${rule}\nThe dry run (without SUBMIT) makes the signed-off branches and the bodies in ${relative(ROOT, o.out) || o.out}; push them and open the PRs yourself, or open them in your fork (PR_REPO=<you>/node).`);
    }
    const problems = pairs.flatMap((p) => p.problems.map((x) => `${p.layer.name}: ${x}`));
    if (problems.length) throw new GitError(`not submitting; fix these first:\n  ${problems.join('\n  ')}`);
  }
  if (dir) {
    const remoteUrl = tryGit(dir, ['remote', 'get-url', o.remote]);
    if (o.submit && !remoteUrl.ok) throw new GitError(`NODE_DIR has no remote '${o.remote}' for your fork; add it (git remote add ${o.remote} <url>) or pass FORK_REMOTE=<name>`);
    const forkOwner = o.forkOwner ?? (remoteUrl.ok ? githubOwner(remoteUrl.stdout.trim()) : undefined);
    if (o.submit && !forkOwner) throw new GitError(`cannot tell the fork's owner from remote '${o.remote}'; pass FORK_OWNER=<github user>`);
    target = { owner: o.owner, repo: o.repo, forkOwner: forkOwner ?? '<fork-owner>', remote: o.remote, apiUrl: o.apiUrl, draft: o.draft };
  } else {
    target = { owner: o.owner, repo: o.repo, forkOwner: o.forkOwner ?? '<fork-owner>', remote: o.remote, apiUrl: o.apiUrl, draft: o.draft };
  }

  rmSync(o.out, { recursive: true, force: true });
  mkdirSync(o.out, { recursive: true });
  pairs.forEach((p, i) => writeFileSync(bodyFile(o, p), requests[i].body([])));
  const calls = describeCalls(target, requests, (i) => relative(ROOT, bodyFile(o, pairs[i])) || bodyFile(o, pairs[i]));
  const plan = {
    repository: `${o.owner}/${o.repo}`,
    mode: o.submit ? 'submit' : 'dry run',
    layers: pairs.map((p, i) => ({
      layer: p.layer.name, patch: relative(ROOT, p.patch.file) || p.patch.file, title: requests[i].title, branch: p.branch,
      base: requests[i].base, head: target.forkOwner === o.owner ? p.branch : `${target.forkOwner}:${p.branch}`,
      body: relative(ROOT, bodyFile(o, p)) || bodyFile(o, p), problems: p.problems,
    })),
    calls,
  };
  writeFileSync(join(o.out, 'plan.json'), `${JSON.stringify(plan, null, 2)}\n`);
  for (const [i, p] of pairs.entries()) {
    o.log(`PR ${i + 1}/${pairs.length}: ${requests[i].title}\n    branch ${p.branch} → base ${requests[i].base}; body ${relative(ROOT, bodyFile(o, p)) || bodyFile(o, p)}`);
    for (const x of p.problems) o.log(`    problem: ${x}`);
  }

  if (dir && base) {
    o.log(`layer branches from ${base.commit.slice(0, 12)} (${base.version}; ${base.how}):`);
    makeLayerBranches(dir, base.commit, pairs, (m) => o.log(`    ${m}`), { independent: o.independent });
  } else {
    o.log('no NODE_DIR: bodies only; the layer branches would be made in NODE_DIR');
  }

  if (!o.submit) {
    o.log(`dry run${o.token ? ' (GITHUB_TOKEN is set, but --submit was not given)' : ''}; with --submit it would make these calls, in order:`);
    for (const c of calls) o.log(`    ${c}`);
    return { pairs, calls, steps: [] };
  }

  const steps = await submit(dir!, target, o.token!, requests, (m) => o.log(m)).catch((err: unknown) => {
    if (err instanceof SubmitError) writeSubmitted(o, pairs, err.done, err.message);
    throw err;
  });
  writeSubmitted(o, pairs, steps);
  // The bodies as sent, with the PR numbers filled in.
  const numbers = steps.flatMap((s) => (s.kind === 'push' ? [] : [s.number]));
  pairs.forEach((p, i) => writeFileSync(bodyFile(o, p), requests[i].body(numbers.slice(0, i))));
  return { pairs, calls, steps };
}

function writeSubmitted(o: PrOptions, pairs: PrLayer[], done: Step[], error?: string): void {
  const finished = new Set(done.flatMap((s) => (s.kind === 'push' ? [] : [s.branch])));
  const report = { error, done, notDone: pairs.filter((p) => !finished.has(p.branch)).map((p) => p.branch) };
  writeFileSync(join(o.out, 'submitted.json'), `${JSON.stringify(report, null, 2)}\n`);
}

export function optionsFromCli(): PrOptions {
  const { values, positionals } = parseFlags({
    submit: { type: 'boolean', default: false },
    'node-dir': { type: 'string' },
    'base-ref': { type: 'string' },
    'expect-base': { type: 'string' },
    repo: { type: 'string' },
    'pr-base': { type: 'string' },
    remote: { type: 'string' },
    'fork-owner': { type: 'string' },
    'branch-prefix': { type: 'string' },
    draft: { type: 'boolean', default: false },
    'api-url': { type: 'string' },
    overlay: { type: 'string' },
    patches: { type: 'string' },
    out: { type: 'string' },
    'compare-dir': { type: 'string' },
    results: { type: 'string' },
    series: { type: 'string' },
    independent: { type: 'boolean', default: false },
  }, 'node tools/node/pr.ts [--submit] [--series NAME] [--independent] [--node-dir DIR] [--repo OWNER/NAME] [--pr-base BRANCH] [--remote NAME] [--fork-owner NAME] …');
  if (positionals.length) throw new GitError(`unexpected argument '${positionals[0]}'`);
  const env = Object.fromEntries(Object.entries(process.env).filter(([, v]) => v !== '')) as NodeJS.ProcessEnv;
  const repo = values.repo ?? env.PR_REPO ?? 'nodejs/node';
  const m = /^([\w.-]+)\/([\w.-]+)$/.exec(repo);
  if (!m) throw new GitError(`PR_REPO must be owner/name, not '${repo}'`);
  // A series kept beside the main one (--series v24, env SERIES): its own
  // layers, patches, target branch, title prefix and test results.
  const seriesName = values.series ?? env.SERIES;
  const series = seriesName ? readSeries(seriesName) : undefined;
  return {
    submit: values.submit,
    nodeDir: values['node-dir'] ?? env.NODE_DIR,
    baseRef: values['base-ref'] ?? env.BASE_REF ?? 'HEAD',
    expectBase: values['expect-base'] ?? env.EXPECT_BASE,
    owner: m[1],
    repo: m[2],
    prBase: values['pr-base'] ?? env.PR_BASE ?? series?.prBase ?? 'main',
    titlePrefix: series?.titlePrefix,
    independent: values.independent || series?.prIndependent,
    remote: values.remote ?? env.FORK_REMOTE ?? 'fork',
    forkOwner: values['fork-owner'] ?? env.FORK_OWNER,
    branchPrefix: values['branch-prefix'] ?? env.BRANCH_PREFIX ?? (series ? `webstreams-${series.name}-` : 'webstreams-'),
    draft: values.draft,
    apiUrl: (values['api-url'] ?? env.GITHUB_API_URL ?? 'https://api.github.com').replace(/\/$/, ''),
    overlay: values.overlay ?? series?.root ?? LIB_OVERLAY,
    patches: values.patches ?? env.PATCHES ?? series?.patches ?? PATCHES,
    // A series' patches are made for its own base: applied as they are.
    patchesExplicit: (values.patches ?? env.PATCHES) !== undefined || series !== undefined,
    out: values.out ?? join(OUT, series ? `pr-${series.name}` : 'pr'),
    evidence: {
      compareDir: values['compare-dir'] ?? compareRoot(series?.name),
      summariesDir: values.results ?? join(OUT, ...(series ? [`series-${series.name}`, 'summaries'] : ['test-results', 'summaries'])),
      suitePrefix: series ? `series-${series.name}-` : undefined,
    },
    token: env.GITHUB_TOKEN,
    log: (msg) => process.stderr.write(`pr: ${msg}\n`),
  };
}

if (import.meta.main) {
  let out = join(OUT, 'pr');
  try {
    const o = optionsFromCli();
    out = o.out;
    const r = await runPr(o);
    if (o.submit) console.log(`pr: done\n${describeSteps(r.steps).map((l) => `  ${l}`).join('\n')}`);
    else console.log(`pr: dry run done: ${r.pairs.length} PR bodies and plan.json in ${relative(process.cwd(), o.out) || o.out}`);
  } catch (err) {
    console.error(`pr: ${(err as Error).message}`);
    if (err instanceof SubmitError) {
      const lines = describeSteps(err.done);
      console.error(`pr: stopped. Already done (left as is; a re-run pushes again and updates these PRs instead of opening new ones):\n${lines.length ? lines.map((l) => `  ${l}`).join('\n') : '  nothing'}`);
      console.error(`pr: the full report is in ${join(relative(process.cwd(), out) || out, 'submitted.json')}`);
    }
    process.exit(1);
  }
}
