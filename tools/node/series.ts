// The patch series (patches/NNNN-<slug>.patch, git format-patch form) and
// applying it to a Node checkout with git am.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from '../lib/paths.ts';
import { GitError, tryGit } from './git.ts';

export interface Patch {
  /** 1-based position, from the NNNN prefix. */
  index: number;
  /** `<slug>` of NNNN-<slug>.patch. */
  slug: string;
  file: string;
}

/** The series in `dir`, numbered 1, 2, 3… without gaps (an absent folder is an empty series). */
export function listPatches(dir: string): Patch[] {
  if (!existsSync(dir)) return [];
  const patches = readdirSync(dir)
    .filter((n) => n.endsWith('.patch'))
    .map((name) => {
      const m = /^(\d{4})-([a-z0-9][a-z0-9-]*)\.patch$/.exec(name);
      if (!m) throw new GitError(`${join(dir, name)}: patches are named NNNN-<slug>.patch`);
      return { index: Number(m[1]), slug: m[2], file: join(dir, name) };
    })
    .sort((a, b) => a.index - b.index);
  patches.forEach((p, i) => {
    if (p.index !== i + 1) throw new GitError(`${p.file}: expected patch number ${i + 1} (the series is numbered 1, 2, 3… without gaps)`);
  });
  return patches;
}

/**
 * The benchmark files a format-patch file's commit message cites: the
 * `webstreams/<file>.js …` rows of its compare.R table (paths under
 * benchmark/).
 */
export function citedBenchmarks(patch: string): string[] {
  const text = readFileSync(patch, 'utf8');
  const end = text.search(/^---$/m);
  const message = end < 0 ? text : text.slice(0, end);
  return [...new Set([...message.matchAll(/^ {4}([a-z0-9_-]+\/[A-Za-z0-9_.-]+\.js) /gm)].map((m) => `benchmark/${m[1]}`))];
}

/** Paths a format-patch file creates. */
export function filesAddedBy(patch: string): string[] {
  const text = readFileSync(patch, 'utf8');
  return [...text.matchAll(/^diff --git a\/\S+ b\/(\S+)\nnew file mode /gm)].map((m) => m[1]);
}

/** Paths a format-patch file touches. */
export function filesTouchedBy(patch: string): string[] {
  const text = readFileSync(patch, 'utf8');
  return [...new Set([...text.matchAll(/^diff --git a\/\S+ b\/(\S+)$/gm)].map((m) => m[1]))];
}

/**
 * Applies `patches` in order on the current branch of `dir`. On a failure the
 * am session is aborted (the branch is back where it started) and the error
 * names the patch and git's reason.
 */
export function applyPatches(dir: string, patches: Patch[], log: (m: string) => void): void {
  for (const p of patches) {
    log(`git am ${p.file.replace(`${ROOT}/`, '')}`);
    const r = tryGit(dir, ['am', '--keep-cr', '--no-gpg-sign', p.file]);
    if (!r.ok) {
      tryGit(dir, ['am', '--abort']);
      throw new GitError(`patch ${p.index} (${p.file}) does not apply to ${dir}:\n${(r.stderr || r.stdout).trim()}`);
    }
  }
}
