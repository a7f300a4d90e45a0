// The layer branches of `make pr` in a Node checkout: branch k is the base
// plus patches 1..k (independent: the base plus patch k alone, which must
// then apply there by itself), each commit signed off (DCO) by the checkout's git
// identity, the submitter. They are made in a temporary worktree, so the user's
// work tree and HEAD are never touched, and created all at once after every
// check: an existing branch is reused only if it already holds exactly that
// content (same tree, same number of commits on the base), else refused.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { branchExists, git, GitError, requireBranchName, tryGit } from './git.ts';
import type { Patch } from './series.ts';

export interface LayerBranch {
  branch: string;
  commit: string;
  status: 'created' | 'up to date';
}

export function makeLayerBranches(dir: string, baseCommit: string, layers: { branch: string; patch: Patch }[], log: (m: string) => void,
  { independent = false } = {}): LayerBranch[] {
  for (const l of layers) requireBranchName(dir, l.branch);
  const work = mkdtempSync(join(tmpdir(), 'webstreams-pr-'));
  const tree = join(work, 'tree');
  const commits: string[] = [];
  git(dir, ['worktree', 'add', '--quiet', '--detach', tree, baseCommit]);
  try {
    for (const l of layers) {
      if (independent) git(tree, ['checkout', '--quiet', '--detach', baseCommit]);
      const r = tryGit(tree, ['am', '--keep-cr', '--no-gpg-sign', '--signoff', l.patch.file]);
      if (!r.ok) {
        tryGit(tree, ['am', '--abort']);
        const onto = independent ? 'by itself' : 'plus the patches before it';
        throw new GitError(`patch ${l.patch.index} (${l.patch.file}) does not apply on ${baseCommit.slice(0, 12)} ${onto}:\n${(r.stderr || r.stdout).trim()}`);
      }
      commits.push(git(tree, ['rev-parse', 'HEAD']));
    }
  } finally {
    tryGit(dir, ['worktree', 'remove', '--force', tree]);
    rmSync(work, { recursive: true, force: true });
  }
  const results: LayerBranch[] = layers.map((l, i) => {
    if (!branchExists(dir, l.branch)) return { branch: l.branch, commit: commits[i], status: 'created' };
    const existing = git(dir, ['rev-parse', `refs/heads/${l.branch}`]);
    const sameTree = git(dir, ['rev-parse', `${existing}^{tree}`]) === git(dir, ['rev-parse', `${commits[i]}^{tree}`]);
    const onBase = tryGit(dir, ['merge-base', '--is-ancestor', baseCommit, existing]).ok;
    const count = onBase ? Number(git(dir, ['rev-list', '--count', `${baseCommit}..${existing}`])) : -1;
    const commitsOnBase = independent ? 1 : i + 1;
    if (sameTree && count === commitsOnBase) return { branch: l.branch, commit: existing, status: 'up to date' };
    const should = independent ? `patch ${i + 1} alone` : `patches 1..${i + 1}`;
    throw new GitError(`branch '${l.branch}' already exists in ${dir} with other content (it should be ${baseCommit.slice(0, 12)} plus ${should}); ` +
      `it is left alone: delete it yourself (git branch -D ${l.branch}) or pass BRANCH_PREFIX=<another prefix>. No branch was created.`);
  });
  for (const r of results) {
    if (r.status === 'created') git(dir, ['branch', '--quiet', r.branch, r.commit]);
    log(`${r.status === 'created' ? 'created' : 'reused '} ${r.branch} at ${r.commit.slice(0, 12)}`);
  }
  return results;
}
