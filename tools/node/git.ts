// Git in a Node checkout, for the checkout targets (node-build, compare, pr).
// Every command goes through here so failures name the command and the tree.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';

export class GitError extends Error {}

export interface GitResult {
  ok: boolean;
  stdout: string;
  stderr: string;
}

/** Runs git in `dir`; never throws (see `git` for the throwing form). */
export function tryGit(dir: string, args: string[], env: NodeJS.ProcessEnv = {}): GitResult {
  const r = spawnSync('git', args, {
    cwd: dir,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
    env: { ...process.env, ...env, GIT_TERMINAL_PROMPT: '0' },
  });
  if (r.error) throw new GitError(`cannot run git: ${r.error.message}`);
  return { ok: r.status === 0, stdout: r.stdout, stderr: r.stderr };
}

/** Runs git in `dir` and returns its trimmed stdout, or throws with git's message. */
export function git(dir: string, args: string[], env: NodeJS.ProcessEnv = {}): string {
  const r = tryGit(dir, args, env);
  if (!r.ok) throw new GitError(`git ${args.join(' ')} failed in ${dir}:\n${(r.stderr || r.stdout).trim()}`);
  return r.stdout.trim();
}

/** The top of the work tree `dir` belongs to, or a clear error. */
export function requireRepo(dir: string): string {
  if (!existsSync(dir)) throw new GitError(`NODE_DIR=${dir} does not exist`);
  const r = tryGit(dir, ['rev-parse', '--show-toplevel']);
  if (!r.ok) throw new GitError(`NODE_DIR=${dir} is not a git checkout (git rev-parse: ${r.stderr.trim()})`);
  return r.stdout.trim();
}

/** Refuses a tree with staged, unstaged or untracked changes, or an operation in progress. */
export function requireClean(dir: string): void {
  const gitDir = git(dir, ['rev-parse', '--absolute-git-dir']);
  for (const [marker, what] of [['rebase-apply', 'a git am or rebase'], ['rebase-merge', 'a rebase'], ['MERGE_HEAD', 'a merge'], ['CHERRY_PICK_HEAD', 'a cherry-pick']]) {
    if (existsSync(join(gitDir, marker))) throw new GitError(`${dir}: ${what} is in progress; finish or abort it first`);
  }
  const status = git(dir, ['status', '--porcelain=v1', '--untracked-files=normal']);
  if (status !== '') {
    const lines = status.split('\n');
    const shown = lines.slice(0, 10).map((l) => `  ${l}`).join('\n');
    const more = lines.length > 10 ? `\n  … and ${lines.length - 10} more` : '';
    throw new GitError(`${dir} has uncommitted changes; commit or stash them first (nothing was changed):\n${shown}${more}`);
  }
}

/** The branch HEAD is on, or undefined when detached. */
export function currentBranch(dir: string): string | undefined {
  const r = tryGit(dir, ['symbolic-ref', '--quiet', '--short', 'HEAD']);
  return r.ok ? r.stdout.trim() : undefined;
}

export function branchExists(dir: string, branch: string): boolean {
  return tryGit(dir, ['show-ref', '--verify', '--quiet', `refs/heads/${branch}`]).ok;
}

/** The full commit id `ref` names, or undefined. */
export function resolveCommit(dir: string, ref: string): string | undefined {
  const r = tryGit(dir, ['rev-parse', '--verify', '--quiet', `${ref}^{commit}`]);
  return r.ok ? r.stdout.trim() : undefined;
}

/** A valid new branch name, or a clear error. */
export function requireBranchName(dir: string, branch: string): void {
  if (!tryGit(dir, ['check-ref-format', '--branch', branch]).ok) throw new GitError(`'${branch}' is not a valid branch name`);
}

/** git am and commit need an identity; say so before anything changes. */
export function requireIdentity(dir: string): void {
  const r = tryGit(dir, ['var', 'GIT_COMMITTER_IDENT']);
  if (!r.ok) {
    throw new GitError(`git has no committer identity in ${dir}; set one first:\n  git config user.name "Your Name"\n  git config user.email you@example.com`);
  }
}

/** `Name <email>` git would sign commits with in `dir`. */
export function committerIdentity(dir: string): string {
  requireIdentity(dir);
  return git(dir, ['var', 'GIT_COMMITTER_IDENT']).replace(/\s+\d+ [+-]\d{4}$/, '');
}

/** Why an identity cannot sign a real DCO sign-off (a placeholder or test address), or undefined. */
export function placeholderIdentity(ident: string): string | undefined {
  const m = /^(.*) <([^>]*)>$/.exec(ident);
  if (!m) return `'${ident}' is not 'Name <email>'`;
  const [, name, email] = m;
  if (/^webstreams-overlay\b/i.test(name) || /webstreams-overlay@/i.test(email)) return `'${ident}' is the series' own placeholder`;
  if (/@(example\.(com|org|net)|[\w.-]+\.(invalid|test|example|localhost))$/i.test(email)) return `'${email}' is a placeholder address`;
  if (!/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(email)) return `'${email}' is not an email address`;
  return undefined;
}
