// make pr: the dry run (bodies, plan, layer branches made without touching
// the work tree), and --submit against a local fake GitHub API server with a
// bare repository as the fork: the exact calls and bodies, stacking, and a
// 4xx/5xx answer stopping the run with a report of what already exists.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from '../../tools/lib/paths.ts';
import { startFakeGitHub, type Failure, type FakeGitHub } from '../helpers/fake-github.ts';
import { FILES, g, IDENTITY, makePatches, nodeRepo, tempDir } from '../helpers/node-repo.ts';

const TOOL = join(ROOT, 'tools', 'node', 'pr.ts');
// Who runs make pr: the sign-off goes out under this name, so it must not be a placeholder.
const SUBMITTER = {
  GIT_AUTHOR_NAME: 'Jane Doe', GIT_AUTHOR_EMAIL: 'jane.doe@contributor.dev',
  GIT_COMMITTER_NAME: 'Jane Doe', GIT_COMMITTER_EMAIL: 'jane.doe@contributor.dev',
};
const LIB = 'lib/internal/webstreams/readablestream.js';
const TOKEN = 'ghp_fakeTokenThatMustNeverBePrinted0123';

interface Fixture {
  repo: string;
  remote: string;
  overlay: string;
  patches: string;
  out: string;
  compare: string;
  results: string;
}

const LAYERS: { name: string; subject: string; files: Record<string, string> }[] = [
  { name: '01-faster-read', subject: 'stream: make read() faster', files: { [LIB]: FILES[LIB].replace('return 1', 'return 2') } },
  { name: '02-bench', subject: 'stream: add a webstreams read benchmark', files: { 'benchmark/webstreams/read.js': "'use strict';\n" } },
  { name: '03-third', subject: 'stream: a third step', files: { [LIB]: FILES[LIB].replace('return 1', 'return 3') } },
];

function fixture(layers = LAYERS): Fixture {
  const repo = nodeRepo();
  const remote = tempDir('fork');
  g(remote, 'init', '--quiet', '--bare');
  g(repo, 'remote', 'add', 'fork', remote);
  const patches = makePatches(repo, layers.map((l) => ({ slug: l.name.slice(3), subject: l.subject, files: l.files })));
  const overlay = tempDir('overlay');
  for (const l of layers) {
    mkdirSync(join(overlay, l.name));
    writeFileSync(join(overlay, l.name, 'PATCH.md'), `${l.subject}\n\nWhy ${l.name} helps.\n\nSigned-off-by: Test Author <author@example.invalid>\n`);
  }
  const compare = tempDir('compare');
  mkdirSync(join(compare, '01-faster-read'));
  writeFileSync(join(compare, '01-faster-read', 'table.txt'), '                                  confidence improvement accuracy\nwebstreams/readable-read.js n=1  ***  42.00 %  ±1.00%\n');
  const results = tempDir('results');
  writeFileSync(join(results, 'wpt.json'), JSON.stringify({ suite: 'wpt', passed: 2808, failed: 0, notes: '14 expected failures' }));
  writeFileSync(join(results, 'node-tests-patched.json'), JSON.stringify({ suite: 'node-tests-patched', passed: 41, failed: 0 }));
  // make test's layers suite: patch 1 on its own; patch 3 (the last) has no state of its own to run WPT on.
  const alone = (layer: string, kind: string, passed: number, notes?: string) =>
    writeFileSync(join(results, `layers-${layer}-${kind}.json`), JSON.stringify({ suite: `layers-${layer}-${kind}`, passed, failed: 0, notes }));
  alone('01-faster-read', 'ordering', 459, '2 declared deviations, checked on their projections');
  alone('01-faster-read', 'fuzz', 500, 'seed 1');
  alone('01-faster-read', 'fuzz-coding', 500, 'seed 1 with encoding streams');
  alone('01-faster-read', 'wpt', 1404, '7 expected failures');
  alone('01-faster-read', 'node-tests', 42);
  alone('03-third', 'ordering', 459);
  alone('03-third', 'fuzz', 500, 'seed 1');
  alone('03-third', 'fuzz-coding', 500, 'seed 1 with encoding streams');
  return { repo, remote, overlay, patches, out: tempDir('out-pr'), compare, results };
}

function run(f: Fixture, args: string[], env: NodeJS.ProcessEnv = {}): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [TOOL, '--overlay', f.overlay, '--patches', f.patches, '--out', f.out,
      '--compare-dir', f.compare, '--results', f.results, ...args], {
      env: { ...process.env, ...IDENTITY, ...SUBMITTER, NODE_DIR: f.repo, GITHUB_TOKEN: '', GITHUB_API_URL: '', FORK_OWNER: '', PR_REPO: '', BASE_REF: '', EXPECT_BASE: '', ...env },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => { stdout += d; });
    child.stderr.on('data', (d) => { stderr += d; });
    child.on('close', (status) => resolve({ status, stdout, stderr }));
  });
}

function calls(gh: FakeGitHub): string[] {
  return gh.requests.map((r) => `${r.method} ${decodeURIComponent(r.url)}`);
}

function remoteBranches(remote: string): string[] {
  return g(remote, 'for-each-ref', '--format=%(refname:short)', 'refs/heads').split('\n').filter(Boolean);
}

/** Nothing the run printed or wrote contains the token. */
function assertTokenNowhere(f: Fixture, ...texts: string[]): void {
  for (const t of texts) assert.ok(!t.includes(TOKEN), 'the token was printed');
  for (const name of readdirSync(f.out)) assert.ok(!readFileSync(join(f.out, name), 'utf8').includes(TOKEN), `the token is in ${name}`);
}

test('dry run: bodies and plan in out/pr, the calls it would make, layer branches without touching the work tree', async () => {
  const f = fixture();
  const head = g(f.repo, 'rev-parse', 'HEAD');
  const r = await run(f, []);
  assert.equal(r.status, 0, r.stderr);
  assert.deepEqual(readdirSync(f.out).sort(), ['01-faster-read.md', '02-bench.md', '03-third.md', 'plan.json']);
  const plan = JSON.parse(readFileSync(join(f.out, 'plan.json'), 'utf8'));
  assert.deepEqual(plan.layers.map((l: { branch: string; base: string; head: string; title: string }) => [l.title, l.branch, l.base, l.head]), [
    ['stream: make read() faster', 'webstreams-01-faster-read', 'main', '<fork-owner>:webstreams-01-faster-read'],
    ['stream: add a webstreams read benchmark', 'webstreams-02-bench', 'webstreams-01-faster-read', '<fork-owner>:webstreams-02-bench'],
    ['stream: a third step', 'webstreams-03-third', 'webstreams-02-bench', '<fork-owner>:webstreams-03-third'],
  ]);
  // The calls, in order, printed and in the plan.
  assert.equal(plan.calls[0], 'GET /repos/nodejs/node');
  assert.equal(plan.calls.length, 1 + 3 * 3);
  assert.match(plan.calls[1], /^git push fork refs\/heads\/webstreams-01-faster-read:refs\/heads\/webstreams-01-faster-read$/);
  assert.match(plan.calls[3], /^POST \/repos\/nodejs\/node\/pulls {2}title="stream: make read\(\) faster" head=<fork-owner>:webstreams-01-faster-read base=main /);
  for (const c of plan.calls) assert.ok(r.stderr.includes(c), `not printed: ${c}`);
  // Bodies: PATCH.md without the trailer, the series, the table or a clear "missing", the tests, the checklist.
  const first = readFileSync(join(f.out, '01-faster-read.md'), 'utf8');
  assert.match(first, /^Why 01-faster-read helps\.\n\nPart 1 of 3 of a series\. It is based on `main`\./);
  assert.doesNotMatch(first, /Signed-off-by/);
  assert.match(first, /### Benchmarks\n\nthe base \(old\) against the base with patches 1\.\.1 \(new\), .*, every configuration of the benchmarks the commit message cites:\n\n```console\n {34}confidence improvement accuracy\nwebstreams\/readable-read\.js n=1 {2}\*\*\* {2}42\.00 %/);
  assert.match(first, /\| WPT streams, encoding\/streams, compression and Blob#stream\(\) \| 2808 \| 0 \| 14 expected failures \|/);
  // Each PR also cites its patch's own results from the layers suite.
  assert.match(first, /This patch on its own .*\n\n\| suite \| passed \| failed \| notes \|\n\|---\|---\|---\|---\|\n\| ordering, this patch against the series before it \| 459 \| 0 \| 2 declared deviations, checked on their projections \|\n\| fuzz \(500 random programs\), the same way \| 500 \| 0 \| seed 1 \|\n\| fuzz with TextEncoderStream and TextDecoderStream \(500 random programs\), the same way \| 500 \| 0 \| seed 1 with encoding streams \|\n\| WPT streams, encoding\/streams, compression and Blob#stream\(\) on the series up to this patch \| 1404 \| 0 \| 7 expected failures \|\n\| Node's tests that use web streams on the series up to this patch \| 42 \| 0 \|  \|/);
  assert.doesNotMatch(readFileSync(join(f.out, '02-bench.md'), 'utf8'), /This patch on its own/);
  assert.match(readFileSync(join(f.out, '03-third.md'), 'utf8'), /\| WPT streams, encoding\/streams, compression and Blob#stream\(\) on the series up to this patch \| \(the whole series, above\) \| \| \|/);
  assert.match(first, /\| ordering \(differential, base vs patched\) \| _missing: no result_/);
  // Nothing a reviewer cannot run: no harness commands in a body.
  for (const name of readdirSync(f.out).filter((n) => n.endsWith('.md'))) {
    assert.doesNotMatch(readFileSync(join(f.out, name), 'utf8'), /make (test|compare|build|pr)|LAYERS=|tools\/|out\/lib/, name);
  }
  assert.match(first, /\| Node's tests that use web streams \| 41 \| 0 \|/);
  assert.match(first, /- \[ \] tests and\/or benchmarks are included/);
  const second = readFileSync(join(f.out, '02-bench.md'), 'utf8');
  assert.match(second, /It is stacked on `webstreams-01-faster-read`/);
  assert.match(second, /_Missing: no benchmark results for this patch \(the base with patches 1\.\.1 against patches 1\.\.2\)\._/);
  // Every commit of a layer branch is signed off by the submitter.
  assert.match(g(f.repo, 'log', '-1', '--format=%B', 'webstreams-01-faster-read'), /\nSigned-off-by: Jane Doe <jane\.doe@contributor\.dev>\n?$/);
  assert.match(second, /- \[x\] tests and\/or benchmarks are included/);
  assert.match(second, /- \[x\] commit message follows/);
  // Branches: base + patches 1..k each; HEAD, the work tree and the worktree list as before.
  for (const [i, l] of LAYERS.entries()) {
    assert.equal(g(f.repo, 'rev-list', '--count', `${head}..webstreams-${l.name}`), String(i + 1));
    assert.equal(g(f.repo, 'log', '-1', '--format=%s', `webstreams-${l.name}`), l.subject);
  }
  assert.equal(g(f.repo, 'rev-parse', 'HEAD'), head);
  assert.equal(g(f.repo, 'branch', '--show-current'), 'main');
  assert.equal(g(f.repo, 'status', '--porcelain'), '');
  assert.equal(g(f.repo, 'worktree', 'list', '--porcelain').split('\n').filter((l) => l.startsWith('worktree ')).length, 1);
  assert.deepEqual(remoteBranches(f.remote), [], 'a dry run pushes nothing');
  // A second dry run reuses the same branches.
  const again = await run(f, [], { GITHUB_TOKEN: TOKEN });
  assert.equal(again.status, 0, again.stderr);
  assert.match(again.stderr, /reused {2}webstreams-03-third/);
  assert.match(again.stderr, /GITHUB_TOKEN is set, but --submit was not given/);
  assertTokenNowhere(f, again.stdout, again.stderr);
});

test('--independent (the fixes series): every PR and branch on the PR base alone; a patch that needs the one before it is refused', async () => {
  const f = fixture(LAYERS.slice(0, 2));
  const head = g(f.repo, 'rev-parse', 'HEAD');
  const r = await run(f, ['--independent']);
  assert.equal(r.status, 0, r.stderr);
  const plan = JSON.parse(readFileSync(join(f.out, 'plan.json'), 'utf8'));
  assert.deepEqual(plan.layers.map((l: { base: string }) => l.base), ['main', 'main']);
  assert.match(plan.calls.join('\n'), /head=<fork-owner>:webstreams-02-bench base=main /);
  const second = readFileSync(join(f.out, '02-bench.md'), 'utf8');
  assert.match(second, /One of 2 independent PRs, each based on `main` alone/);
  assert.doesNotMatch(second, /stacked/);
  // Branch 2 is the base plus patch 2 only: patch 1's change is not in it.
  assert.equal(g(f.repo, 'rev-list', '--count', `${head}..webstreams-02-bench`), '1');
  assert.match(g(f.repo, 'show', `webstreams-02-bench:${LIB}`), /return 1/);
  assert.match(g(f.repo, 'show', `webstreams-01-faster-read:${LIB}`), /return 2/);
  const again = await run(f, ['--independent']);
  assert.equal(again.status, 0, again.stderr);
  assert.match(again.stderr, /reused {2}webstreams-02-bench/);

  // Patch 3 was made on top of patch 1 (return 2 -> return 3): alone on the base it does not apply.
  const stacked = fixture();
  const refused = await run(stacked, ['--independent']);
  assert.equal(refused.status, 1);
  assert.match(refused.stderr, /patch 3 \(.*0003-third\.patch\) does not apply on [0-9a-f]{12} by itself/);
});

test('refusals: a layer branch with other content, patches out of step with the overlay, --submit without a token', async () => {
  const f = fixture();
  g(f.repo, 'branch', 'webstreams-02-bench');
  let r = await run(f, []);
  assert.equal(r.status, 1);
  assert.match(r.stderr, /branch 'webstreams-02-bench' already exists in .* with other content[\s\S]*No branch was created/);
  assert.equal(g(f.repo, 'branch', '--list', 'webstreams-01-faster-read'), '');
  g(f.repo, 'branch', '-D', 'webstreams-02-bench');
  writeFileSync(join(f.patches, '0004-extra.patch'), readFileSync(join(f.patches, '0003-third.patch')));
  r = await run(f, []);
  assert.match(r.stderr, /3 layer\(s\) but 4 patch\(es\): patches\/ is out of date with lib-overlay\/; run `make patches`/);
  const f2 = fixture();
  r = await run(f2, ['--submit'], { FORK_OWNER: 'me' });
  assert.match(r.stderr, /--submit needs GITHUB_TOKEN/);
  r = await run(f2, ['--submit', '--remote', 'nope'], { GITHUB_TOKEN: TOKEN, FORK_OWNER: 'me' });
  assert.match(r.stderr, /NODE_DIR has no remote 'nope' for your fork/);
  r = await run(f2, ['--submit'], { GITHUB_TOKEN: TOKEN });
  assert.match(r.stderr, /cannot tell the fork's owner from remote 'fork'; pass FORK_OWNER=/);
  r = await run(f2, ['--submit'], { GITHUB_TOKEN: TOKEN, FORK_OWNER: 'me', ...IDENTITY });
  assert.match(r.stderr, /--submit signs every commit off \(DCO\) as Test Author <author@example\.invalid>: 'author@example\.invalid' is a placeholder address/);
  assertTokenNowhere(f2, r.stdout, r.stderr);
});

test("--submit refuses to open PRs on nodejs/node when the checkout's AI guidelines forbid automated tooling to", async () => {
  const f = fixture();
  mkdirSync(join(f.repo, 'doc', 'contributing'), { recursive: true });
  writeFileSync(join(f.repo, 'doc', 'contributing', 'ai-guidelines.md'), 'Pull requests must not be opened by automated tooling, unless specifically\napproved in advance by the project.\n');
  g(f.repo, 'add', 'doc');
  g(f.repo, 'commit', '--quiet', '-m', 'doc: ai guidelines');
  const gh = await startFakeGitHub();
  try {
    const r = await run(f, ['--submit'], { GITHUB_TOKEN: TOKEN, GITHUB_API_URL: gh.url, FORK_OWNER: 'me' });
    assert.equal(r.status, 1);
    assert.match(r.stderr, /not opening PRs on nodejs\/node: doc\/contributing\/ai-guidelines\.md of this checkout: "Pull requests must not be opened by automated tooling/);
    assert.deepEqual(calls(gh), [], 'nothing was sent');
    // Into the submitter's own fork it is their call.
    const own = await run(f, ['--submit'], { GITHUB_TOKEN: TOKEN, GITHUB_API_URL: gh.url, FORK_OWNER: 'me', PR_REPO: 'me/node' });
    assert.equal(own.status, 0, own.stderr);
  } finally {
    await gh.close();
  }
});

test('--submit against the fake API: pushes, then opens the PRs stacked, in this exact order and with these bodies', async () => {
  const f = fixture();
  const gh = await startFakeGitHub();
  try {
    const r = await run(f, ['--submit'], { GITHUB_TOKEN: TOKEN, GITHUB_API_URL: gh.url, FORK_OWNER: 'me' });
    assert.equal(r.status, 0, r.stderr);
    assert.deepEqual(calls(gh), [
      'GET /repos/nodejs/node',
      'GET /repos/nodejs/node/pulls?head=me:webstreams-01-faster-read&state=open',
      'POST /repos/nodejs/node/pulls',
      'GET /repos/nodejs/node/pulls?head=me:webstreams-02-bench&state=open',
      'POST /repos/nodejs/node/pulls',
      'GET /repos/nodejs/node/pulls?head=me:webstreams-03-third&state=open',
      'POST /repos/nodejs/node/pulls',
    ]);
    const posts = gh.requests.filter((x) => x.method === 'POST').map((x) => x.body!);
    assert.deepEqual(posts.map((b) => [b.title, b.head, b.base, b.draft, b.maintainer_can_modify]), [
      ['stream: make read() faster', 'me:webstreams-01-faster-read', 'main', false, true],
      ['stream: add a webstreams read benchmark', 'me:webstreams-02-bench', 'webstreams-01-faster-read', false, true],
      ['stream: a third step', 'me:webstreams-03-third', 'webstreams-02-bench', false, true],
    ]);
    // Later bodies name the earlier PRs by number; out/pr holds the bodies as sent.
    assert.match(String(posts[1].body), /It is stacked on #101: review that first/);
    assert.match(String(posts[2].body), /1\. #101 stream: make read\(\) faster\n2\. #102 stream: add a webstreams read benchmark\n3\. `webstreams-03-third` stream: a third step ← this PR/);
    posts.forEach((b, i) => assert.equal(b.body, readFileSync(join(f.out, `${LAYERS[i].name}.md`), 'utf8')));
    // The token went to the API as auth, and nowhere else.
    assert.ok(gh.requests.every((x) => x.authorization === `token ${TOKEN}`));
    assertTokenNowhere(f, r.stdout, r.stderr);
    // The fork holds each layer branch at the local commit.
    assert.deepEqual(remoteBranches(f.remote), LAYERS.map((l) => `webstreams-${l.name}`));
    for (const l of LAYERS) assert.equal(g(f.remote, 'rev-parse', `webstreams-${l.name}`), g(f.repo, 'rev-parse', `webstreams-${l.name}`));
    assert.match(r.stdout, /opened #101 for webstreams-01-faster-read: https:\/\/github\.example\/pull\/101/);
    const report = JSON.parse(readFileSync(join(f.out, 'submitted.json'), 'utf8'));
    assert.deepEqual(report.notDone, []);
    // Re-run: the open PRs are updated, not duplicated.
    gh.requests.length = 0;
    const again = await run(f, ['--submit'], { GITHUB_TOKEN: TOKEN, GITHUB_API_URL: gh.url, FORK_OWNER: 'me' });
    assert.equal(again.status, 0, again.stderr);
    assert.deepEqual(calls(gh).filter((c) => !c.startsWith('GET')), ['PATCH /repos/nodejs/node/pulls/101', 'PATCH /repos/nodejs/node/pulls/102', 'PATCH /repos/nodejs/node/pulls/103']);
  } finally {
    await gh.close();
  }
});

async function failingRun(failure: Failure) {
  const f = fixture();
  const gh = await startFakeGitHub([failure]);
  try {
    const r = await run(f, ['--submit'], { GITHUB_TOKEN: TOKEN, GITHUB_API_URL: gh.url, FORK_OWNER: 'me' });
    return { f, r, calls: calls(gh) };
  } finally {
    await gh.close();
  }
}

test('a 422 on the second PR stops the run: readable error, a report of what exists, nothing after it', async () => {
  const { f, r, calls: seen } = await failingRun({
    method: 'POST', path: /\/pulls$/, nth: 2, status: 422,
    body: { message: 'Validation Failed', errors: [{ message: 'A pull request already exists for me:webstreams-02-bench.' }] },
  });
  assert.equal(r.status, 1);
  assert.match(r.stderr, /pr: opening the PR for webstreams-02-bench: GitHub answered 422 to POST \/repos\/nodejs\/node\/pulls: Validation Failed \(A pull request already exists for me:webstreams-02-bench\.\)/);
  assert.match(r.stderr, /Already done[^\n]*\n {2}pushed webstreams-01-faster-read to fork\n {2}opened #101 for webstreams-01-faster-read: \S+\n {2}pushed webstreams-02-bench to fork\npr: the full report is in .*submitted\.json/);
  assert.equal(seen.length, 5, `requests after the failure: ${seen.join(', ')}`);
  assert.deepEqual(remoteBranches(f.remote), ['webstreams-01-faster-read', 'webstreams-02-bench']);
  const report = JSON.parse(readFileSync(join(f.out, 'submitted.json'), 'utf8'));
  assert.match(report.error, /422/);
  assert.deepEqual(report.done.map((s: { kind: string; branch: string }) => `${s.kind} ${s.branch}`), ['push webstreams-01-faster-read', 'create webstreams-01-faster-read', 'push webstreams-02-bench']);
  assert.deepEqual(report.notDone, ['webstreams-02-bench', 'webstreams-03-third']);
  assertTokenNowhere(f, r.stdout, r.stderr);
});

test('a 500 on the first call stops before anything is pushed or opened', async () => {
  const { f, r, calls: seen } = await failingRun({ method: 'GET', path: /^\/repos\/nodejs\/node$/, nth: 1, status: 500, body: { message: 'Server Error' } });
  assert.equal(r.status, 1);
  assert.match(r.stderr, /pr: cannot use nodejs\/node: GitHub answered 500 to GET \/repos\/nodejs\/node: Server Error/);
  assert.match(r.stderr, /Already done[^\n]*\n {2}nothing/);
  assert.deepEqual(seen, ['GET /repos/nodejs/node']);
  assert.deepEqual(remoteBranches(f.remote), []);
  assertTokenNowhere(f, r.stdout, r.stderr);
});
