// Pushing the layer branches and opening the stacked PRs with @octokit/rest.
// Every step is recorded as it completes, so a failure (a 4xx/5xx answer, a
// refused push) stops the run with a report of exactly what already exists.
// The token only ever goes to Octokit's auth option: never printed, never
// written (Octokit redacts it from its own error objects too).
import { Octokit } from '@octokit/rest';
import { tryGit } from './git.ts';

export interface PrRequest {
  branch: string;
  title: string;
  /** Renders the body once the numbers of the earlier PRs are known. */
  body: (earlier: number[]) => string;
  /** PR base: the upstream branch for the first, the previous layer's branch after. */
  base: string;
}

export interface Target {
  /** Where the PRs are opened, e.g. nodejs/node. */
  owner: string;
  repo: string;
  /** Owner of the fork the branches are pushed to (head = owner:branch). */
  forkOwner: string;
  /** git remote in NODE_DIR for the fork. */
  remote: string;
  apiUrl: string;
  draft: boolean;
}

export type Step =
  | { kind: 'push'; branch: string; remote: string }
  | { kind: 'create'; branch: string; number: number; url: string }
  | { kind: 'update'; branch: string; number: number; url: string };

export class SubmitError extends Error {
  readonly done: Step[];
  constructor(message: string, done: Step[]) {
    super(message);
    this.done = done;
  }
}

export function headOf(t: Target, branch: string): string {
  return t.forkOwner === t.owner ? branch : `${t.forkOwner}:${branch}`;
}

/** The calls a run makes, for the dry run: the same order `submit` follows. */
export function describeCalls(t: Target, prs: PrRequest[], bodyFile: (i: number) => string): string[] {
  const calls = [`GET /repos/${t.owner}/${t.repo}`];
  prs.forEach((pr, i) => {
    calls.push(`git push ${t.remote} refs/heads/${pr.branch}:refs/heads/${pr.branch}`);
    calls.push(`GET /repos/${t.owner}/${t.repo}/pulls?head=${headOf(t, pr.branch)}&state=open`);
    calls.push(`POST /repos/${t.owner}/${t.repo}/pulls  title=${JSON.stringify(pr.title)} head=${headOf(t, pr.branch)} base=${pr.base} draft=${t.draft} body=${bodyFile(i)}` +
      `  (or PATCH /repos/${t.owner}/${t.repo}/pulls/<number> if that PR is already open)`);
  });
  return calls;
}

function describeHttpError(err: unknown): string {
  const e = err as { status?: number; message?: string; request?: { method?: string; url?: string }; response?: { data?: unknown } };
  if (typeof e.status !== 'number') return (err as Error).message ?? String(err);
  const path = e.request?.url ? new URL(e.request.url).pathname : '?';
  const data = e.response?.data as { message?: string; errors?: { message?: string; field?: string; code?: string }[] } | undefined;
  const details = (data?.errors ?? []).map((x) => x.message ?? [x.field, x.code].filter(Boolean).join(' ')).filter(Boolean);
  const message = data?.message ?? e.message ?? '';
  return `GitHub answered ${e.status} to ${e.request?.method ?? '?'} ${path}: ${message}${details.length ? ` (${details.join('; ')})` : ''}`;
}

/**
 * For each PR in order: push its branch, then open it (or update the open PR
 * for that head, so a re-run after a failure continues where it stopped).
 */
export async function submit(dir: string, t: Target, token: string, prs: PrRequest[], log: (m: string) => void): Promise<Step[]> {
  const octokit = new Octokit({ auth: token, baseUrl: t.apiUrl, userAgent: 'webstreams-overlay make-pr', log: { debug() {}, info() {}, warn() {}, error() {} } });
  const done: Step[] = [];
  const numbers: number[] = [];
  const fail = (err: unknown, what: string): never => {
    throw new SubmitError(`${what}: ${describeHttpError(err)}`, done);
  };
  try {
    await octokit.rest.repos.get({ owner: t.owner, repo: t.repo });
  } catch (err) {
    fail(err, `cannot use ${t.owner}/${t.repo}`);
  }
  for (const pr of prs) {
    const push = tryGit(dir, ['push', '--porcelain', t.remote, `refs/heads/${pr.branch}:refs/heads/${pr.branch}`]);
    if (!push.ok) throw new SubmitError(`git push ${t.remote} ${pr.branch} failed:\n${(push.stderr || push.stdout).trim()}`, done);
    done.push({ kind: 'push', branch: pr.branch, remote: t.remote });
    log(`pushed ${pr.branch} to ${t.remote}`);
    const head = headOf(t, pr.branch);
    let open: { number: number; html_url: string }[] = [];
    try {
      open = (await octokit.rest.pulls.list({ owner: t.owner, repo: t.repo, head, state: 'open' })).data;
    } catch (err) {
      fail(err, `listing open PRs for ${head}`);
    }
    const body = pr.body(numbers);
    if (open.length > 0) {
      try {
        const r = await octokit.rest.pulls.update({ owner: t.owner, repo: t.repo, pull_number: open[0].number, title: pr.title, body, base: pr.base });
        done.push({ kind: 'update', branch: pr.branch, number: r.data.number, url: r.data.html_url });
        numbers.push(r.data.number);
        log(`updated #${r.data.number} ${r.data.html_url}`);
      } catch (err) {
        fail(err, `updating PR #${open[0].number} for ${pr.branch}`);
      }
    } else {
      try {
        const r = await octokit.rest.pulls.create({ owner: t.owner, repo: t.repo, title: pr.title, head, base: pr.base, body, draft: t.draft, maintainer_can_modify: true });
        done.push({ kind: 'create', branch: pr.branch, number: r.data.number, url: r.data.html_url });
        numbers.push(r.data.number);
        log(`opened #${r.data.number} ${r.data.html_url}`);
      } catch (err) {
        fail(err, `opening the PR for ${pr.branch}`);
      }
    }
  }
  return done;
}

export function describeSteps(steps: Step[]): string[] {
  return steps.map((s) => (s.kind === 'push' ? `pushed ${s.branch} to ${s.remote}` : `${s.kind === 'create' ? 'opened' : 'updated'} #${s.number} for ${s.branch}: ${s.url}`));
}
