// tools/compare-node.ts (`make compare ENGINE=node`): Node's own
// benchmark/compare.js from the fixture tree runs one of our benchmark files
// for real on node-base and a deliberately slowed lib, then compare.R and
// tools/compare.ts render the CSV side by side. Also: a renderer that
// disagrees is caught, a tools/compare.ts run can be set beside, and bad
// input stops before anything runs.
//
// compare.R needs R with ggplot2 and plyr, which ci/setup-system.sh installs.
// Without them the compare.R test fails (it is never skipped), and the
// other checks still run.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync as makeTemp, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PINNED_NODE, ROOT } from '../../tools/lib/paths.ts';
import { CSV_HEADER } from '../../tools/bench/csv.ts';
import { agree, findR, parseRendered } from '../../tools/compare-node.ts';
import { ensureNodeTree } from '../../tools/node/fixture-tree.ts';
import { replaceOnce, variantLib } from '../helpers/libs.ts';

const TOOL = join(ROOT, 'tools', 'compare-node.ts');
const made: string[] = [];
const mkdtempSync = (prefix: string) => {
  const dir = makeTemp(prefix);
  made.push(dir);
  return dir;
};
after(() => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});
const ROW = "webstreams/readable-read.js type='normal' n=10000";

function tool(args: string[], env: NodeJS.ProcessEnv = {}) {
  return spawnSync(PINNED_NODE, [TOOL, ...args], {
    encoding: 'utf8', timeout: 120_000,
    env: { ...process.env, NODE_DIR: '', NODE_TREE: '', WITH_R: '', BESIDE: '', LAYERS: '', ...env },
  });
}

// One real run, shared by the first two tests: 2 runs a side of one
// configuration; the new side spends 600 extra loop iterations in every
// enqueue (several times the cost of a read: ~90 % slower, far outside the
// noise of a loaded machine), which also proves compare.js's grandchildren
// run the injected lib.
let real: { status: number | null; stdout: string; stderr: string; out: string; slow: string } | undefined;
function realRun() {
  if (real) return real;
  const slow = variantLib('compare-node-slow-enqueue', (modules) => replaceOnce(modules, 'internal/webstreams/readablestream',
    'function readableStreamDefaultControllerEnqueue(controller, chunk) {\n',
    'let slowSink = 0;\nfunction readableStreamDefaultControllerEnqueue(controller, chunk) {\n' +
    '  for (let i = 0; i < 600; i++) slowSink = (slowSink * 31 + i) | 0;\n'));
  const out = mkdtempSync(join(tmpdir(), 'compare-node-'));
  const r = tool(['--old', 'base', '--new', slow, '--filter', 'readable-read.js', '--set', 'type=normal', '--set', 'n=10000',
    '--runs', '2', '--no-progress', '--out', out]);
  real = { status: r.status, stdout: r.stdout, stderr: r.stderr, out, slow };
  return real;
}

test('compare.js from the fixture tree runs our file on both sides; tools/compare.ts renders its CSV', () => {
  const { status, stdout, stderr, out, slow } = realRun();
  assert.equal(status, 0, `${stdout}\n${stderr}`);
  // The staged harness: the tree's compare.js and common.js, our benchmark file (not the tree's of the same name).
  const tree = ensureNodeTree().dir;
  const staged = join(out, 'benchmark');
  for (const f of ['compare.js', 'common.js', '_cli.js', 'compare.R']) {
    assert.equal(readFileSync(join(staged, f), 'utf8'), readFileSync(join(tree, 'benchmark', f), 'utf8'), f);
  }
  const ours = readFileSync(join(ROOT, 'benchmark', 'webstreams', 'readable-read.js'), 'utf8');
  assert.equal(readFileSync(join(staged, 'webstreams', 'readable-read.js'), 'utf8'), ours);
  assert.notEqual(readFileSync(join(tree, 'benchmark', 'webstreams', 'readable-read.js'), 'utf8'), ours, 'the tree has its own readable-read.js');
  assert.ok(!readdirSync(join(staged, 'webstreams')).includes('encoding-streams.js'), 'the tree\'s other files are not staged');
  assert.deepEqual(JSON.parse(readFileSync(join(staged, 'package.json'), 'utf8')), { type: 'commonjs' });
  // The sides: wrappers that inject the same libs tools/compare.ts would.
  assert.match(readFileSync(join(out, 'bin', 'old'), 'utf8'), /WEBSTREAMS_LIB='[^']*\/out\/lib\/base'\n/);
  assert.ok(readFileSync(join(out, 'bin', 'new'), 'utf8').includes(`WEBSTREAMS_LIB='${slow}'`));
  assert.match(stdout, /running: node \S*benchmark\/compare\.js --old \S*bin\/old --new \S*bin\/new --runs 2 --filter readable-read\.js --set type=normal --set n=10000 --no-progress webstreams/);
  // compare.js's CSV: its order (old then new in every run), one configuration.
  const csv = readFileSync(join(out, 'results.csv'), 'utf8').trim().split('\n');
  assert.equal(csv[0], CSV_HEADER);
  assert.deepEqual(csv.slice(1).map((l) => l.split(',').slice(0, 3).join(',')), [
    `"old","webstreams/readable-read.js","type='normal' n=10000"`, `"new","webstreams/readable-read.js","type='normal' n=10000"`,
    `"old","webstreams/readable-read.js","type='normal' n=10000"`, `"new","webstreams/readable-read.js","type='normal' n=10000"`,
  ]);
  const rate = (i: number) => Number(csv[i].split(',')[3]);
  assert.ok(rate(2) < rate(1) / 2 && rate(4) < rate(3) / 2, `the slowed lib must be slower in each run: ${csv.slice(1).join(' | ')}`);
  // tools/compare.ts --from-csv on it.
  const table = parseRendered(readFileSync(join(out, 'table.txt'), 'utf8'), [ROW]);
  const row = table.get(ROW);
  assert.ok(row, readFileSync(join(out, 'table.txt'), 'utf8'));
  assert.ok(Number.parseFloat(row.improvement) < -50, `improvement ${row.improvement}`);
  assert.match(row.accuracy[0], /^±\d+\.\d\d%$/);
  assert.match(stdout, /== node tools\/compare\.ts --from-csv /);
  const meta = JSON.parse(readFileSync(join(out, 'meta.json'), 'utf8'));
  assert.equal(meta.tree.dir, tree);
  assert.equal(meta.configurations, 1);
  assert.ok(meta.seconds >= 0);
});

test('compare.R renders the same CSV, and the two tables agree row by row', () => {
  const r = findR();
  assert.equal(r.missing, undefined, `compare.R cannot run here (${r.missing}); ci/setup-system.sh installs R for this test`);
  const { status, stdout, stderr, out } = realRun();
  assert.equal(status, 0, `${stdout}\n${stderr}`);
  const text = readFileSync(join(out, 'compare.R.txt'), 'utf8');
  assert.match(text, /^ +confidence improvement accuracy \(\*\) +\(\*\*\) +\(\*\*\*\)\n/);
  assert.match(text, /there are 1 comparisons/);
  const fromR = parseRendered(text, [ROW]).get(ROW);
  const fromOurs = parseRendered(readFileSync(join(out, 'table.txt'), 'utf8'), [ROW]).get(ROW);
  assert.ok(fromR && fromOurs, text);
  assert.ok(Number.parseFloat(fromR.improvement) < -50, `compare.R: improvement ${fromR.improvement}`);
  assert.deepEqual(fromR, fromOurs);
  const side = readFileSync(join(out, 'side-by-side.md'), 'utf8');
  assert.match(side, /\| `readable-read\.js type='normal' n=10000` \| .* \| identical \|/);
  assert.match(side, /compare\.R and tools\/compare\.ts agree on 1 of 1 rows \(1 identical/);
});

// A stand-in Rscript that loads fine and prints a compare.R-shaped table
// with one wrong number: the tool must notice and exit 1.
function fakeR(table: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'fake-r-'));
  const file = join(dir, 'Rscript');
  writeFileSync(join(dir, 'table.txt'), table);
  writeFileSync(file, `#!/bin/sh\nif [ "$1" = "-e" ]; then printf 'R version 0.0 (fake)'; exit 0; fi\ncat >/dev/null\ncat '${join(dir, 'table.txt')}'\n`);
  chmodSync(file, 0o755);
  return file;
}

const CSV = (rows: Array<[string, string, number]>) => `${CSV_HEADER}\n${rows.map(([b, c, rate]) => `"${b}","webstreams/x.js","${c}",${rate},0.1`).join('\n')}\n`;

test('a rendering that disagrees is caught; a tools/compare.ts run can be set beside', () => {
  const dir = mkdtempSync(join(tmpdir(), 'compare-node-csv-'));
  const csv = join(dir, 'results.csv');
  // n=1: old 100,102,98 new 110,112,108 (+10 %); n=10: identical sides.
  writeFileSync(csv, CSV([
    ['old', 'n=1', 100], ['new', 'n=1', 110], ['old', 'n=1', 102], ['new', 'n=1', 112], ['old', 'n=1', 98], ['new', 'n=1', 108],
    ['old', 'n=10', 50], ['new', 'n=10', 50.5], ['old', 'n=10', 51], ['new', 'n=10', 50], ['old', 'n=10', 49], ['new', 'n=10', 50.5],
  ]));
  const ours = tool(['--from-csv', csv, '--with-r', 'no', '--out', join(dir, 'ours')]);
  assert.equal(ours.status, 0, ours.stderr);
  const oursTable = readFileSync(join(dir, 'ours', 'table.txt'), 'utf8');
  const n1 = oursTable.split('\n').find((l) => l.startsWith('webstreams/x.js n=1 '))!;
  const n10 = oursTable.split('\n').find((l) => l.startsWith('webstreams/x.js n=10 '))!;
  assert.match(n1, /\*\* +10\.00 %/);
  assert.match(readFileSync(join(dir, 'ours', 'side-by-side.md'), 'utf8'), /compare\.R not run \(not asked for/);
  // A faithful stand-in agrees; one with a single digit changed does not.
  const faithful = tool(['--from-csv', csv, '--out', join(dir, 'same')], { RSCRIPT: fakeR(`${n1}\n${n10}\n`) });
  assert.equal(faithful.status, 0, faithful.stdout + faithful.stderr);
  assert.match(faithful.stdout, /agree on 2 of 2 rows \(2 identical/);
  const wrong = tool(['--from-csv', csv, '--out', join(dir, 'wrong')], { RSCRIPT: fakeR(`${n1.replace('10.00 %', '10.20 %')}\n${n10}\n`) });
  assert.equal(wrong.status, 1, wrong.stdout + wrong.stderr);
  assert.match(wrong.stdout, /\| `x\.js n=1` \| \*\* 10\.20 % .* \| \*\* 10\.00 % .* \| \*\*DIFFERENT\*\* \|/);
  assert.match(wrong.stdout, /agree on 1 of 2 rows .*; 1 different, 0 missing/);
  const lost = tool(['--from-csv', csv, '--out', join(dir, 'lost')], { RSCRIPT: fakeR(`${n10}\n`) });
  assert.equal(lost.status, 1);
  assert.match(lost.stdout, /\*\*MISSING\*\*/);
  // The unit behind it: the last printed digit may differ (rounding), the stars may not.
  const names = ['a.js n=1'];
  const row = (confidence: string, improvement: string) => new Map([[names[0], { confidence, improvement, accuracy: ['±1.00%', '±2.00%', '±3.00%'] }]]);
  assert.equal(agree(names, row('*', '5.01 %'), row('*', '5.02 %'))[0].verdict, 'rounding');
  assert.equal(agree(names, row('*', '5.01 %'), row('**', '5.01 %'))[0].verdict, 'different');
  assert.equal(agree(names, row('*', '5.01 %'), row('*', '5.05 %'))[0].verdict, 'different');
  // Beside: another run of the same rows, one shifted far outside its bound.
  const other = join(dir, 'other.csv');
  writeFileSync(other, CSV([
    ['old', 'n=1', 100], ['new', 'n=1', 111], ['old', 'n=1', 101], ['new', 'n=1', 110], ['old', 'n=1', 99], ['new', 'n=1', 109],
    ['old', 'n=10', 50], ['new', 'n=10', 60], ['old', 'n=10', 50.5], ['new', 'n=10', 60.5], ['old', 'n=10', 49.5], ['new', 'n=10', 59.5],
  ]));
  const beside = tool(['--from-csv', csv, '--with-r', 'no', '--beside', other, '--out', join(dir, 'beside')]);
  assert.equal(beside.status, 0, beside.stderr);
  assert.match(beside.stdout, /\| `x\.js n=1` \| \*\* 10\.00 % ±[\d.]+% \| \*+ 10\.00 % ±[\d.]+% \| \+0\.00 \(±[\d.]+\) \|/);
  assert.match(beside.stdout, /\| `x\.js n=10` \| .* \| \*\*\* 20\.00 % .* \| -19\.\d\d \(±[\d.]+\) \*\*outside\*\* \|/);
  assert.match(beside.stdout, /2 rows in both runs: the improvements differ by less than their 95 % bound on 1 /);
});

test('bad input stops with a message before anything runs', () => {
  const out = join(mkdtempSync(join(tmpdir(), 'compare-node-bad-')), 'never');
  const cases: Array<[string[], NodeJS.ProcessEnv, RegExp]> = [
    [['--node-tree', '/nonexistent/node'], {}, /no such Node tree: \/nonexistent\/node \(--node-tree\)/],
    [[], { NODE_DIR: tmpdir() }, /benchmark\/compare\.js is missing; give a Node source tree \(NODE_DIR\)/],
    [['--with-r', 'yes'], { RSCRIPT: '/nonexistent/Rscript' }, /compare\.R was asked for \(--with-r yes\) but cannot run: Rscript \(RSCRIPT=\/nonexistent\/Rscript\) is not installed/],
    [['--with-r', 'maybe'], {}, /--with-r must be auto, yes or no/],
    [['--runs', '1'], {}, /--runs must be at least 2/],
    [['--clock', 'cpu'], {}, /compare\.js times wall-clock only/],
    [['--filter', 'no-such-benchmark'], {}, /no benchmark matches --filter no-such-benchmark/],
    [['--filter', 'webstreams/tee.js'], {}, /matches a filter against the file name only/],
    [['--filter', 'tee.js', '--set', 'nope=1'], {}, /no selected benchmark has a configuration key 'nope'/],
    [['--filter', 'tee.js', '--new', '/nonexistent/node'], {}, /is not base, patched, a lib directory/],
    [['--from-csv', '/nonexistent.csv'], {}, /--from-csv \/nonexistent\.csv: no such file/],
    [['--beside', '/nonexistent'], {}, /--beside \/nonexistent: no such file or folder/],
    [['extra'], {}, /unexpected argument 'extra'/],
    // make passes its CATEGORIES; the one category compare.js runs is accepted.
    [['webstreams', 'real-world'], {}, /unexpected argument 'real-world'/],
    [['webstreams', '--runs', '1'], {}, /--runs must be at least 2/],
    [['--filter', 'tee.js', '--set', 'CPUSET=4096'], {}, /CPUSET: this machine has CPUs 0-\d+, got 4096/],
    // compare.js would take the first and ignore the second.
    [['--filter', 'tee.js', '--set', 'CPUSET=0', '--set', 'CPUSET=1'], {}, /--set CPUSET= was given 2 times/],
  ];
  for (const [args, env, message] of cases) {
    const r = tool([...args, '--out', out], { WITH_R: 'no', ...env }); // no R probe where R is not the point
    assert.equal(r.status, 2, `${args.join(' ')}: ${r.stdout}${r.stderr}`);
    assert.match(r.stderr, message);
  }
  assert.equal(existsSync(out), false, 'nothing was written');
});
