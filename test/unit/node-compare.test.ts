// make compare NODE_DIR=…: argument handling, the refusals before any
// build, and the whole flow on a tiny Node-shaped repository whose
// configure/make build a stand-in binary; tools/compare.ts is replaced by a
// script that records how it was called.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from '../../tools/lib/paths.ts';
import { FILES, g, IDENTITY, makePatches, nodeRepo, tempDir } from '../helpers/node-repo.ts';

const TOOL = join(ROOT, 'tools', 'node', 'compare-checkout.ts');
const LIB = 'lib/internal/webstreams/readablestream.js';

/** A stand-in tools/compare.ts that writes its arguments to $RECORD. */
function fakeCompareTool(): { tool: string; record: string } {
  const dir = tempDir('compare-tool');
  const tool = join(dir, 'compare.mjs');
  writeFileSync(tool, "import { writeFileSync } from 'node:fs';\nwriteFileSync(process.env.RECORD, JSON.stringify(process.argv.slice(2)));\nconsole.log('fake compare table');\n");
  return { tool, record: join(dir, 'argv.json') };
}

function fakeNode(version = 'v26.12.1'): string {
  const file = join(tempDir('bin'), 'node');
  writeFileSync(file, `#!/bin/sh\necho ${version}\n`);
  chmodSync(file, 0o755);
  return file;
}

function run(args: string[], env: NodeJS.ProcessEnv = {}) {
  const { tool, record } = fakeCompareTool();
  const cache = tempDir('bin-cache');
  const r = spawnSync(process.execPath, [TOOL, '--compare-tool', tool, '--cache', cache, ...args], {
    encoding: 'utf8', env: { ...process.env, ...IDENTITY, NODE_DIR: '', OLD: '', NEW: '', BASE_REF: '', EXPECT_BASE: '', PATCHES: '', RECORD: record, ...env },
  });
  const argv = existsSync(record) ? JSON.parse(readFileSync(record, 'utf8')) as string[] : undefined;
  return { status: r.status, stdout: r.stdout, stderr: r.stderr, argv, cache };
}

test('two prebuilt binaries: no NODE_DIR needed, compare.ts gets --old/--new and the options after --', () => {
  const old = fakeNode('v26.6.0');
  const fresh = fakeNode();
  const r = run(['--', '--quick', '--name', 'x y'], { OLD: old, NEW: fresh });
  assert.equal(r.status, 0, r.stderr);
  assert.deepEqual(r.argv, ['--old', old, '--new', fresh, '--quick', '--name', 'x y']);
  assert.match(r.stdout, /^old  .*node \(given\)\nnew  .*node \(given\)\ncompare: /m);
  assert.match(r.stdout, /fake compare table/);
});

test('argument errors: a missing NODE_DIR, binaries that are not node, an unknown BASE_REF, stray arguments', () => {
  let r = run([], { OLD: fakeNode() });
  assert.equal(r.status, 1);
  assert.match(r.stderr, /NODE_DIR is required to build a binary: make compare NODE_DIR=/);
  r = run([], { OLD: '/nonexistent/node', NEW: fakeNode() });
  assert.match(r.stderr, /OLD=\/nonexistent\/node is not a file/);
  const notExec = join(tempDir('bin'), 'node');
  writeFileSync(notExec, '#!/bin/sh\necho v1.0.0\n');
  r = run([], { OLD: fakeNode(), NEW: notExec });
  assert.match(r.stderr, /NEW=.* is not executable/);
  r = run([], { OLD: fakeNode(), NEW: '/bin/true' });
  assert.match(r.stderr, /NEW=\/bin\/true does not answer --version like node/);
  r = run([], { NODE_DIR: nodeRepo(), BASE_REF: 'no-such-ref' });
  assert.match(r.stderr, /BASE_REF=no-such-ref names no commit in /);
  r = run(['--quick'], { OLD: fakeNode(), NEW: fakeNode() });
  assert.match(r.stderr, /Unknown option '--quick'/);
  r = run(['extra'], { OLD: fakeNode(), NEW: fakeNode() });
  assert.match(r.stderr, /unexpected argument 'extra'; options for tools\/compare\.ts go after --/);
  r = run(['--compare-tool', '/nonexistent/compare.ts'], { OLD: fakeNode(), NEW: fakeNode() });
  assert.match(r.stderr, /\/nonexistent\/compare\.ts is missing/);
  for (const x of [r]) assert.equal(x.argv, undefined);
});

test('refusals come before any build: dirty tree, wrong base, existing branch', () => {
  const dirty = nodeRepo();
  writeFileSync(join(dirty, LIB), '// edited\n');
  let r = run([], { NODE_DIR: dirty });
  assert.equal(r.status, 1);
  assert.match(r.stderr, /uncommitted changes/);
  const old = nodeRepo('v24.21.0');
  r = run([], { NODE_DIR: old, EXPECT_BASE: 'v26.12.1' });
  assert.match(r.stderr, /src\/node_version\.h: v24\.21\.0\); the series expects v26\.12\.1/);
  assert.equal(existsSync(join(old, 'out')), false, 'nothing was built');
  // Without PATCHES the series is rebased onto the checkout first: its conflict stops the run before any build.
  const other = nodeRepo();
  r = run([], { NODE_DIR: other, PATCHES: '' });
  assert.equal(r.status, 1);
  assert.match(r.stderr, /the series does not rebase cleanly onto/);
  assert.equal(existsSync(join(other, 'out')), false, 'nothing was built');
  // A prebuilt base does not lift the patched side's checks.
  const taken = nodeRepo();
  g(taken, 'branch', 'webstreams-overlay');
  r = run([], { NODE_DIR: taken, OLD: fakeNode(), PATCHES: tempDir('no-patches') });
  assert.match(r.stderr, /branch 'webstreams-overlay' already exists/);
  assert.deepEqual(readdirSync(r.cache), []);
  assert.equal(r.argv, undefined);
});

test('the whole flow: base and patched built in NODE_DIR, cached, compared; the checkout ends where it was', () => {
  const dir = nodeRepo();
  g(dir, 'switch', '--quiet', '--create', 'my-work');
  const patches = makePatches(dir, [{ slug: 'faster', subject: 'stream: faster', files: { [LIB]: FILES[LIB].replace('return 1', 'return 2') } }]);
  const { tool, record } = fakeCompareTool();
  const cache = tempDir('bin-cache');
  const env = { ...process.env, ...IDENTITY, NODE_DIR: dir, BASE_REF: 'main', PATCHES: patches, RECORD: record, OLD: '', NEW: '', EXPECT_BASE: '' };
  const args = [TOOL, '--compare-tool', tool, '--cache', cache, '--', '--runs', '3'];
  const first = spawnSync(process.execPath, args, { encoding: 'utf8', env });
  assert.equal(first.status, 0, first.stderr);
  assert.match(first.stdout, /old {2}.*base-[0-9a-f]{12}\/node \(to build\)\nnew {2}.*patched-[0-9a-f]{16}\/node \(to build\)/);
  const argv = JSON.parse(readFileSync(record, 'utf8')) as string[];
  assert.equal(argv[0], '--old');
  assert.match(argv[1], /base-[0-9a-f]{12}\/node$/);
  assert.match(argv[3], /patched-[0-9a-f]{16}\/node$/);
  assert.deepEqual(argv.slice(4), ['--runs', '3']);
  assert.ok(existsSync(argv[1]) && existsSync(argv[3]));
  assert.equal(g(dir, 'branch', '--show-current'), 'my-work', 'back on the user\'s branch');
  assert.equal(g(dir, 'log', '-1', '--format=%s', 'webstreams-overlay'), 'stream: faster');
  assert.match(first.stderr, /building the base binary: main = /);
  // Second run: both reused, nothing built (the branch exists, which would otherwise be refused).
  const second = spawnSync(process.execPath, args, { encoding: 'utf8', env });
  assert.equal(second.status, 0, second.stderr);
  assert.match(second.stdout, /\(reused from the cache\)\nnew .*\(reused from the cache\)/);
  assert.doesNotMatch(second.stderr, /building/);
  // --plan only says what it would do.
  const planned = spawnSync(process.execPath, [TOOL, '--compare-tool', tool, '--cache', tempDir('bin-cache'), '--plan', '--branch', 'other'], { encoding: 'utf8', env });
  assert.equal(planned.status, 0, planned.stderr);
  assert.match(planned.stdout, /\(to build\)/);
  assert.equal(g(dir, 'branch', '--list', 'other'), '');
});

test('NEW=$NODE_DIR/out/Release/node from make node-build: copied before the base build overwrites it', () => {
  const dir = nodeRepo();
  const built = spawnSync(process.execPath, [join(ROOT, 'tools/node/node-build.ts'), '--node-dir', dir, '--patches', tempDir('none')], {
    encoding: 'utf8', env: { ...process.env, ...IDENTITY, NODE_BUILD: '', BRANCH: '', EXPECT_BASE: '', BASE_REF: '' },
  });
  assert.equal(built.status, 0, built.stderr);
  const patchedHead = g(dir, 'rev-parse', 'HEAD');
  g(dir, 'switch', '--quiet', 'main');
  const r = run([], { NODE_DIR: dir, NEW: join(dir, 'out', 'Release', 'node'), BASE_REF: 'main' });
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stderr, /is inside NODE_DIR, which the build overwrites; using a copy/);
  const [, old, , fresh] = r.argv!;
  assert.match(fresh, /given-[0-9a-f]{16}\/node$/);
  assert.match(readFileSync(fresh, 'utf8'), new RegExp(`# built from ${patchedHead}`));
  assert.match(readFileSync(old, 'utf8'), new RegExp(`# built from ${g(dir, 'rev-parse', 'main')}`));
  assert.equal(g(dir, 'branch', '--show-current'), 'main');
});
