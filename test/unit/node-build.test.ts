// make node-build on tiny Node-shaped repositories: the refusals (dirty
// tree, wrong base, existing branch, missing anchor), the rollback when the
// series does not apply, and the whole flow with a stand-in configure/make.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from '../../tools/lib/paths.ts';
import { nodeBuild, formatResult, type NodeBuildOptions } from '../../tools/node/node-build.ts';
import { reportBinary } from '../../tools/node/report.ts';
import { splitFlags } from '../../tools/node/build-steps.ts';
import { FILES, g, IDENTITY, makePatches, nodeRepo, tempDir } from '../helpers/node-repo.ts';

Object.assign(process.env, IDENTITY);

function options(nodeDir: string, extra: Partial<NodeBuildOptions> = {}): NodeBuildOptions {
  return {
    nodeDir, branch: 'webstreams-overlay', baseRef: 'HEAD', patchesDir: tempDir('no-patches'),
    configureFlags: [], mode: 'none', log: () => {}, ...extra,
  };
}

/** Branches, HEAD and status: what a refused run must leave as it was. */
function snapshot(dir: string): string {
  return [g(dir, 'branch', '--list', '--format=%(refname:short) %(objectname)'), g(dir, 'rev-parse', 'HEAD'), g(dir, 'status', '--porcelain')].join('\n');
}

const LIB = 'lib/internal/webstreams/readablestream.js';

test('refuses a tree with uncommitted or untracked changes, naming them, and changes nothing', () => {
  const dir = nodeRepo();
  writeFileSync(join(dir, LIB), '// edited\n');
  let before = snapshot(dir);
  assert.throws(() => nodeBuild(options(dir)), /uncommitted changes[\s\S]*M lib\/internal\/webstreams\/readablestream\.js/);
  assert.equal(snapshot(dir), before);
  g(dir, 'checkout', '--', LIB);
  writeFileSync(join(dir, 'notes.txt'), 'mine\n');
  before = snapshot(dir);
  assert.throws(() => nodeBuild(options(dir)), /uncommitted changes[\s\S]*\?\? notes\.txt/);
  assert.equal(snapshot(dir), before);
});

test('EXPECT_BASE=<version> refuses a tree on another base and says which version it expected', () => {
  const dir = nodeRepo('v24.21.0');
  const before = snapshot(dir);
  assert.throws(() => nodeBuild(options(dir, { expectBase: 'v26.12.1' })), (err: Error) => {
    assert.match(err.message, /src\/node_version\.h: v24\.21\.0/);
    assert.match(err.message, /the series expects v26\.12\.1 \(EXPECT_BASE/);
    assert.match(err.message, /EXPECT_BASE=/);
    return true;
  });
  assert.equal(snapshot(dir), before);
  assert.equal(nodeBuild(options(dir, { expectBase: 'v24.21.0' })).base.version, 'v24.21.0');
  // Unset, any base goes: the series is fitted to it.
  assert.equal(nodeBuild(options(dir, { branch: 'any-base' })).base.how, 'any base (EXPECT_BASE unset)');
});

test('without PATCHES the series is rebased onto the checkout; a conflict stops with the report before anything changes', () => {
  const dir = nodeRepo();
  const before = snapshot(dir);
  assert.throws(() => nodeBuild(options(dir, { patchesDir: undefined })), (err: Error) => {
    assert.match(err.message, /the series does not rebase cleanly onto .* at [0-9a-f]{12}; nothing was changed there/);
    assert.match(err.message, /rebase onto the checkout at [0-9a-f]{12}:\n {2}01-byte-clone +(conflict|failed)/);
    return true;
  });
  assert.equal(snapshot(dir), before);
});

test('matches the base by its release tag when the clone has it, and names the tag commit otherwise', () => {
  const dir = nodeRepo();
  const base = g(dir, 'rev-parse', 'HEAD');
  g(dir, 'tag', 'v26.12.1');
  writeFileSync(join(dir, 'README.md'), 'after the release\n');
  g(dir, 'add', 'README.md');
  g(dir, 'commit', '--quiet', '-m', 'after the release');
  // src/node_version.h still says 26.12.1, but HEAD is not the tag: refused.
  assert.throws(() => nodeBuild(options(dir, { expectBase: 'v26.12.1' })), new RegExp(`which is tag v26\\.12\\.1 = ${base.slice(0, 12)}`));
  // …and a commit as the override, or BASE_REF pointing at the tag.
  assert.match(nodeBuild(options(dir, { expectBase: g(dir, 'rev-parse', 'HEAD') })).base.how, /^commit /);
  const r = nodeBuild(options(dir, { baseRef: 'v26.12.1', branch: 'on-tag', expectBase: 'v26.12.1' }));
  assert.equal(r.base.commit, base);
  assert.equal(r.base.how, 'tag v26.12.1');
});

test('refuses an existing branch name and leaves that branch alone', () => {
  const dir = nodeRepo();
  g(dir, 'branch', 'webstreams-overlay');
  const before = snapshot(dir);
  assert.throws(() => nodeBuild(options(dir)), /branch 'webstreams-overlay' already exists[\s\S]*BRANCH=/);
  assert.equal(snapshot(dir), before);
});

test('a patch that does not apply: the error names it, and the checkout is rolled back to the original branch', () => {
  const dir = nodeRepo();
  const patches = makePatches(dir, [
    { slug: 'first', subject: 'stream: first', files: { [LIB]: FILES[LIB].replace('return 1', 'return 2') } },
    { slug: 'second', subject: 'stream: second', files: { [LIB]: FILES[LIB].replace('return 1', 'return 3') } },
  ]);
  // Patch 2 expects patch 1's text; drop patch 1 so 2 fails.
  const only2 = tempDir('patches');
  writeFileSync(join(only2, '0001-second.patch'), readFileSync(join(patches, '0002-second.patch')));
  const before = snapshot(dir);
  assert.throws(() => nodeBuild(options(dir, { patchesDir: only2 })), (err: Error) => {
    assert.match(err.message, /patch 1 \(.*0001-second\.patch\) does not apply/);
    assert.match(err.message, /rolled back: back on main, branch webstreams-overlay deleted/);
    return true;
  });
  assert.equal(snapshot(dir), before);
});

test('the whole flow: new branch, series, configure with flags, make, report with the embedded lib checked', () => {
  const dir = nodeRepo();
  const main = g(dir, 'rev-parse', 'main');
  const patches = makePatches(dir, [
    { slug: 'faster-read', subject: 'stream: faster read', files: { [LIB]: FILES[LIB].replace('return 1', 'return 2') } },
    { slug: 'bench', subject: 'benchmark: add one', files: { 'benchmark/webstreams/x.js': "'use strict';\n" } },
  ]);
  const logged: string[] = [];
  const r = nodeBuild(options(dir, { patchesDir: patches, mode: 'full', configureFlags: splitFlags(`--ninja --prefix='/opt/my node'`), log: (m) => logged.push(m) }));
  assert.equal(g(dir, 'branch', '--show-current'), 'webstreams-overlay');
  assert.equal(g(dir, 'rev-parse', 'main'), main, 'main is untouched');
  assert.deepEqual(g(dir, 'log', '--format=%s', 'main..HEAD').split('\n'), ['benchmark: add one', 'stream: faster read']);
  assert.deepEqual(JSON.parse(readFileSync(join(dir, 'config.args.json'), 'utf8')), ['--ninja', '--prefix=/opt/my node']);
  assert.equal(g(dir, 'status', '--porcelain'), '');
  assert.equal(r.binary?.path, join(dir, 'out', 'Release', 'node'));
  assert.equal(r.binary?.version, 'v26.12.1');
  const text = formatResult(r);
  assert.match(text, /patches {4}2 applied: 0001-faster-read, 0002-bench/);
  assert.match(text, /binary {5}.*out\/Release\/node\nversion {4}v26\.12\.1\nwebstreams matches the tree's lib\/internal\/webstreams\/ \(1 modules\)/);
  assert.equal(r.binary?.embedsTreeLib, true);
  // A binary built before the series would not pass for the patched one.
  writeFileSync(join(dir, LIB), FILES[LIB]);
  assert.match(reportBinary(r.binary!.path, dir).lib, /^DIFFERS from the tree's lib\/ in internal\/webstreams\/readablestream$/);
  assert.ok(logged.some((l) => l.startsWith('git am ')), logged.join('\n'));
});

test('a failing configure keeps the finished branch and says so', () => {
  const dir = nodeRepo('v26.12.1', (files) => { files.configure = 'import sys\nsys.exit(3)\n'; });
  assert.throws(() => nodeBuild(options(dir, { mode: 'full' })), /\.\/configure exited with 3[\s\S]*branch webstreams-overlay \(the series, [0-9a-f]{12}\) stays checked out/);
  assert.equal(g(dir, 'branch', '--show-current'), 'webstreams-overlay');
  assert.equal(g(dir, 'status', '--porcelain'), '');
});

test('the CLI: NODE_DIR is required, NODE_BUILD is checked, errors exit 1 with the message', () => {
  const run = (env: NodeJS.ProcessEnv, args: string[] = []) => spawnSync(process.execPath, [join(ROOT, 'tools/node/node-build.ts'), ...args], {
    encoding: 'utf8', env: { ...process.env, NODE_DIR: '', ...env },
  });
  let r = run({});
  assert.equal(r.status, 1);
  assert.match(r.stderr, /NODE_DIR is required: make node-build NODE_DIR=/);
  r = run({ NODE_DIR: '/nonexistent/node' });
  assert.match(r.stderr, /NODE_DIR=\/nonexistent\/node does not exist/);
  r = run({ NODE_DIR: nodeRepo(), NODE_BUILD: 'fast' });
  assert.match(r.stderr, /NODE_BUILD must be full, configure or none, not 'fast'/);
  const dir = nodeRepo('v24.0.0');
  const before = snapshot(dir);
  r = run({ NODE_DIR: dir, NODE_BUILD: 'none', EXPECT_BASE: 'v26.12.1' });
  assert.equal(r.status, 1);
  assert.match(r.stderr, /^node-build: HEAD in .* expects v26\.12\.1/m);
  r = run({ NODE_DIR: dir, NODE_BUILD: 'none', EXPECT_BASE: '', PATCHES: '' });
  assert.equal(r.status, 1);
  assert.match(r.stderr, /^node-build: the series does not rebase cleanly onto/m);
  assert.equal(snapshot(dir), before);
});

test('CONFIGURE_FLAGS splits like a shell for words and quotes', () => {
  assert.deepEqual(splitFlags(undefined), []);
  assert.deepEqual(splitFlags('  --ninja   --debug '), ['--ninja', '--debug']);
  assert.deepEqual(splitFlags(`--prefix="/a b" --x='' -y`), ['--prefix=/a b', '--x=', '-y']);
  assert.throws(() => splitFlags('--a="b'), /unclosed "/);
});
