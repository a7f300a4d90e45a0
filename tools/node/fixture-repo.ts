// A throw-away git repository of the fixture tree (tools/node/fixture-tree.ts),
// as the in-tree suites build it: the tree as Debian ships it, committed,
// and optionally another release's lib/internal/webstreams committed on top.
import { cpSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { MODULE_PREFIX, type Modules } from '../lib/libdir.ts';
import { git } from './git.ts';

/** A fixed author and committer, so that the suites' commits are reproducible. */
export const TEST_IDENTITY = {
  GIT_AUTHOR_NAME: 'webstreams-overlay test', GIT_AUTHOR_EMAIL: 'test@example.invalid',
  GIT_COMMITTER_NAME: 'webstreams-overlay test', GIT_COMMITTER_EMAIL: 'test@example.invalid',
  GIT_AUTHOR_DATE: '2026-01-01T00:00:00Z', GIT_COMMITTER_DATE: '2026-01-01T00:00:00Z',
};

/** Copies the tree at `source` to `into` and commits it there on `branch`. */
export function fixtureRepo(source: string, into: string, branch: string): void {
  cpSync(source, into, { recursive: true });
  // Node's own .gitignore keeps build products out of `git status`; the tarball has none.
  writeFileSync(join(into, '.gitignore'), '/out/\n/config.gypi\n/config.mk\n/config.status\n/icu_config.gypi\n*.pyc\n');
  git(into, ['init', '--quiet', `--initial-branch=${branch}`]);
  git(into, ['add', '--all']);
  git(into, ['commit', '--quiet', '--no-gpg-sign', '-m', 'base: Debian nodejs source tree'], TEST_IDENTITY);
}

/** Replaces the repository's lib/internal/webstreams by `modules` (another release's) and commits it. */
export function commitWebstreamsLib(repo: string, modules: Modules, nodeVersion: string): void {
  const lib = join(repo, 'lib', MODULE_PREFIX);
  for (const name of readdirSync(lib)) rmSync(join(lib, name));
  for (const [id, text] of modules) writeFileSync(join(repo, 'lib', `${id}.js`), text);
  git(repo, ['add', '--all']);
  git(repo, ['commit', '--quiet', '--no-gpg-sign', '-m', `base: lib/internal/webstreams of ${nodeVersion}`], TEST_IDENTITY);
}
