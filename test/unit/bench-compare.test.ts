// tools/compare.ts: the CSV in compare.js's format, the table, the chart, the
// executables it accepts, and two short real comparisons: a lib with a busy
// loop in enqueue shows as significantly slower; base against base does not.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PINNED_NODE, ROOT } from '../../tools/lib/paths.ts';
import { analyse } from '../../tools/bench/analyse.ts';
import { renderChart, ticks } from '../../tools/bench/chart.ts';
import { CSV_HEADER, formatConfiguration, formatSample, parseCsv, type Sample } from '../../tools/bench/csv.ts';
import { resolveExecutable } from '../../tools/bench/executable.ts';
import { renderPaired, renderReport } from '../../tools/bench/table.ts';
import { replaceOnce, variantLib } from '../helpers/libs.ts';

// The benchmark-like rates of bench-stats.test.ts, whose statistics were
// computed independently by test/reference/t-reference.py.
const OLD = [1010, 985, 1003, 991, 1022, 978, 1001, 996];
const NEW = [1051, 1032, 1068, 1040, 1029, 1061];

function samples(filename: string, configuration: string, old: number[], fresh: number[]): Sample[] {
  return [
    ...old.map((rate) => ({ binary: 'old' as const, filename, configuration, rate, time: 1 / rate })),
    ...fresh.map((rate) => ({ binary: 'new' as const, filename, configuration, rate, time: 1 / rate })),
  ];
}

test('the CSV is what compare.js writes, and reads back (also the older spaced form)', () => {
  assert.equal(CSV_HEADER, '"binary","filename","configuration","rate","time"');
  const configuration = formatConfiguration({ type: 'normal', n: 100000, quote: 'say "hi"' });
  assert.equal(configuration, `type='normal' n=100000 quote='say "hi"'`);
  const s: Sample = { binary: 'new', filename: 'webstreams/tee.js', configuration, rate: 1234567.8125, time: 0.081 };
  const line = formatSample(s);
  assert.equal(line, `"new","webstreams/tee.js","type='normal' n=100000 quote='say ""hi""'",1234567.8125,0.081`);
  assert.deepEqual(parseCsv(`${CSV_HEADER}\n${line}\n`), [s]);
  const spaced = '"binary", "filename", "configuration", "rate", "time"\n"old", "a/b.js", "n=1", 12.5, 0.5\n';
  assert.deepEqual(parseCsv(spaced), [{ binary: 'old', filename: 'a/b.js', configuration: 'n=1', rate: 12.5, time: 0.5 }]);
  assert.throws(() => parseCsv('"a","b"\n'), /not a compare\.js CSV/);
  assert.throws(() => parseCsv(`${CSV_HEADER}\n"mid","a.js","",1,1\n`), /binary must be old or new/);
  assert.throws(() => parseCsv(`${CSV_HEADER}\n"old","a.js","n=1,1,1\n`), /unterminated/);
  assert.throws(() => parseCsv(`${CSV_HEADER}\n"old","a.js","",-3,1\n`), /bad rate/);
});

test('the table has compare.R\'s columns and values; slower rows are flagged', () => {
  const a = analyse([
    ...samples('webstreams/x.js', "type='a' n=10", OLD, NEW),
    ...samples('webstreams/x.js', "type='b' n=10", NEW, OLD),
    ...samples('webstreams/y.js', 'n=10', [100, 101, 99], [100, 99, 101]),
  ]);
  assert.equal(a.rows.length, 3);
  const [faster, slower, same] = a.rows;
  assert.equal(faster.confidence, '***');
  assert.equal(faster.improvement.toFixed(2), '4.87');
  assert.equal(faster.accuracy.map((x) => x.toFixed(2)).join(' '), '1.81 2.58 3.72');
  assert.equal(slower.confidence, '***');
  assert.ok(slower.improvement < 0);
  assert.equal(same.confidence, '');
  assert.equal(same.improvement, 0);
  assert.deepEqual(a.slower.map((r) => r.name), ["webstreams/x.js type='b' n=10"]);
  assert.deepEqual(a.faster.map((r) => r.name), ["webstreams/x.js type='a' n=10"]);
  // geometric mean of the three new/old ratios
  const ratios = a.rows.map((r) => r.ratio);
  assert.ok(Math.abs(a.geomean - Math.cbrt(ratios[0] * ratios[1] * ratios[2])) < 1e-12);

  const text = renderReport(a);
  const lines = text.split('\n');
  assert.match(lines[0], /^ +confidence improvement accuracy \(\*\) +\(\*\*\) +\(\*\*\*\)$/);
  assert.match(lines[1], /^webstreams\/x\.js type='a' n=10 +\*\*\* +4\.87 % +±1\.81% +±2\.58% +±3\.72%$/);
  assert.match(lines[3], /^webstreams\/y\.js n=10 +0\.00 % /);
  // columns line up
  assert.equal(new Set(lines.slice(0, 4).map((l) => l.length)).size, 1);
  assert.match(text, /there are 3 comparisons/);
  assert.match(text, /geometric mean of new\/old over 3 rows: /);
  assert.match(text, /significantly slower: 1 rows\nSLOWER:\n {2}webstreams\/x\.js type='b' n=10 +\*\*\* -/);
});

test('paired by round: drift between rounds that hides a change from the table does not hide it there', () => {
  // Round k ran old then new back to back; the machine's speed drifts 2x
  // between rounds, the new side is 4% faster within every round.
  const speed = [1, 0.5, 1.8, 0.7, 1.2, 0.55, 2, 0.9];
  const old = speed.map((x) => 1000 * x);
  const fresh = speed.map((x, i) => 1040 * x * (i % 2 ? 1.005 : 0.995));
  const a = analyse([...samples('webstreams/x.js', 'n=10', old, fresh), ...samples('webstreams/y.js', 'n=10', [5], [6])]);
  const [drifting, single] = a.rows;
  assert.equal(drifting.confidence, '');
  assert.equal(drifting.paired?.pairs, 8);
  assert.ok(Math.abs(drifting.paired!.ratio - 1.04) < 0.001 && drifting.paired!.p < 0.001, JSON.stringify(drifting.paired));
  assert.equal(single.paired, undefined);
  assert.ok(Number.isNaN(a.pairedGeomean));
  const text = renderPaired(a);
  assert.match(text, /^paired by round +pairs +new\/old +95% interval +confidence$/m);
  assert.match(text, /^webstreams\/x\.js n=10 +8 +1\.040x +1\.0\d\d-1\.0\d\d +\*\*\*$/m);
  assert.doesNotMatch(text, /y\.js/);
  // compare.R's table stays compare.R's.
  assert.doesNotMatch(renderReport(a), /paired/);
  const both = analyse(samples('webstreams/x.js', 'n=10', old, fresh));
  assert.ok(Math.abs(both.pairedGeomean - both.rows[0].paired!.ratio) < 1e-12);
  assert.match(renderPaired(both), /geometric mean of the paired ratios over 1 rows: 1\.04\d\d/);
});

test('rows with a single run get NA, like compare.R', () => {
  const a = analyse(samples('a/b.js', 'n=1', [10], [11, 12]));
  assert.equal(a.rows[0].confidence, 'NA');
  assert.match(renderReport(a), /a\/b\.js n=1 +NA +15\.00 % +NA +NA +NA/);
});

test('the chart has a row per comparison with its interval, coloured by significance', () => {
  const a = analyse([
    ...samples('webstreams/x.js', "type='a'", OLD, NEW),
    ...samples('webstreams/x.js', "type='b' <&>", NEW, OLD),
  ]);
  const svg = renderChart(a.rows, 'title', 'subtitle');
  assert.match(svg, /^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
  assert.match(svg, /<\/svg>\n$/);
  assert.equal((svg.match(/<circle /g) ?? []).length, 2);
  assert.match(svg, /fill="#1a7f37">\+4\.87% \*\*\*</); // faster: green
  assert.match(svg, /fill="#cf222e">-4\.64% \*\*\*</); // slower: red
  assert.match(svg, /type=&#39;b&#39; &#60;&#38;&#62;/); // labels are escaped
  assert.deepEqual(ticks(-12, 47), [-10, 0, 10, 20, 30, 40]);
  assert.deepEqual(ticks(-0.4, 0.4), [-0.4, -0.2, 0, 0.2, 0.4]);
});

test('executables: lib names, lib directories, commands; bad ones are refused clearly', () => {
  const base = resolveExecutable('base');
  assert.equal(base.command, PINNED_NODE);
  assert.ok(base.args.includes('--expose-internals'));
  assert.match(base.env.WEBSTREAMS_LIB ?? '', /out\/lib\/base$/);
  const script = resolveExecutable(join(ROOT, 'bin', 'node-patched'));
  assert.equal(script.command, join(ROOT, 'bin', 'node-patched'));
  const withArgs = resolveExecutable(`${PINNED_NODE} --jitless`);
  assert.deepEqual([withArgs.command, withArgs.args], [PINNED_NODE, ['--jitless']]);
  assert.throws(() => resolveExecutable('no-such-thing-here'), /is not base, patched, a lib directory, node@<version>, or an executable/);
  assert.throws(() => resolveExecutable(ROOT), /not a lib directory/);
  assert.throws(() => resolveExecutable('node@26'), /exact version/);
});

// Short real comparisons: one cheap benchmark, few runs. The slowed lib
// spends 600 extra loop iterations in every enqueue, several times the cost
// of a whole read, so the slowdown stays far outside the noise even when
// other work shares the two cores (seen: single runs 2-3x slower under load).
const SHORT = ['--filter', 'readable-read.js', '--set', 'type=normal', '--set', 'n=10000', '--runs', '10', '--no-progress'];

function compare(args: string[]) {
  const out = mkdtempSync(join(tmpdir(), 'compare-'));
  const r = spawnSync(PINNED_NODE, [join(ROOT, 'tools', 'compare.ts'), ...args, '--out', out], { encoding: 'utf8', timeout: 120_000 });
  assert.equal(r.status, 0, r.stderr);
  const results = JSON.parse(readFileSync(join(out, 'results.json'), 'utf8'));
  return { stdout: r.stdout, out, results };
}

test('a lib with a busy loop in enqueue is significantly slower', () => {
  const slow = variantLib('bench-slow-enqueue', (modules) => replaceOnce(modules, 'internal/webstreams/readablestream',
    'function readableStreamDefaultControllerEnqueue(controller, chunk) {\n',
    'let slowSink = 0;\nfunction readableStreamDefaultControllerEnqueue(controller, chunk) {\n' +
    '  for (let i = 0; i < 600; i++) slowSink = (slowSink * 31 + i) | 0;\n'));
  const { stdout, out, results } = compare(['--old', 'base', '--new', slow, ...SHORT]);
  assert.equal(results.rows.length, 1);
  const row = results.rows[0];
  assert.equal(row.configuration, "type='normal' n=10000");
  // Seen with the load average at 10 on two cores: p between 5e-5 and 6e-4
  // with 8 runs; 10 runs and the ** bar leave a wide margin.
  assert.ok(row.p < 0.01, `p = ${row.p}`);
  assert.ok(row.improvement < -50, `improvement ${row.improvement} %`);
  assert.match(stdout, /webstreams\/readable-read\.js type='normal' n=10000 +\*\*\*? +-\d+\.\d\d %/);
  assert.match(stdout, /SLOWER:\n {2}webstreams\/readable-read\.js/);
  assert.match(stdout, /CSV: .*results\.csv/);
  // The CSV: header, 6 runs a side, interleaved old/new then new/old.
  const csv = readFileSync(join(out, 'results.csv'), 'utf8').trim().split('\n');
  assert.equal(csv[0], CSV_HEADER);
  assert.equal(csv.length, 21);
  const order = csv.slice(1).map((l) => l.slice(1, 4)).join(' ');
  assert.equal(order, 'old new new old '.repeat(5).trim());
  assert.equal(parseCsv(csv.join('\n')).length, 20);
  assert.ok(existsSync(join(out, 'chart.svg')) && existsSync(join(out, 'table.txt')));
  // Paired by round, the same runs say the same.
  assert.ok(row.paired.pairs === 10 && row.paired.ratio < 0.67 && row.paired.p < 0.01, JSON.stringify(row.paired));
  assert.match(readFileSync(join(out, 'paired.txt'), 'utf8'), /webstreams\/readable-read\.js type='normal' n=10000 +10 +0\.\d{3}x +0\.\d{3}-0\.\d{3} +\*\*\*?/);
});

test('base against base shows no significant difference', () => {
  const { stdout, results } = compare(['--old', 'base', '--new', 'base', ...SHORT]);
  const row = results.rows[0];
  // A calibrated test at level alpha is "significant" for a fraction alpha of
  // identical pairs by construction, so asserting p >= 0.05 would fail one
  // run in twenty. A bias in the harness (wrong binary, one side doing extra
  // work, swapped labels) shows as p far below 0.001; at that level the
  // chance of a false alarm is 1 in 1000.
  assert.ok(row.p >= 0.001, `base vs base: p = ${row.p}, improvement ${row.improvement} %`);
  assert.ok(row.paired.p >= 0.001, `base vs base paired: ${JSON.stringify(row.paired)}`);
  assert.match(stdout, /webstreams\/readable-read\.js type='normal' n=10000 +(\*|\*\*)? +-?\d+\.\d\d %/);
});

test('--set CPUSET= runs every benchmark process on those CPUs, as compare.js does', () => {
  // Each run of the new side appends its allowed CPUs (Linux's view) to a file.
  const dir = mkdtempSync(join(tmpdir(), 'compare-cpuset-'));
  const log = join(dir, 'cpus.txt');
  const preload = join(dir, 'record-cpus.cjs');
  writeFileSync(preload, [
    "const fs = require('fs');",
    "const cpus = /Cpus_allowed_list:\\s*(\\S+)/.exec(fs.readFileSync('/proc/self/status', 'utf8'))[1];",
    `fs.appendFileSync(${JSON.stringify(log)}, cpus + '\\n');`,
  ].join('\n'));
  const { stdout, results } = compare(['--old', 'base', '--new', `${PINNED_NODE} --require ${preload}`,
    '--filter', 'readable-read.js', '--set', 'type=normal', '--set', 'n=10000', '--runs', '2', '--no-progress', '--set', 'CPUSET=0']);
  assert.match(stdout, /wall clock, pinned to CPU 0;/);
  assert.equal(results.meta.cpuset, '0');
  assert.equal(results.rows.length, 1, 'CPUSET is not a configuration of the benchmark');
  // describe() probes the side once, then two runs.
  assert.deepEqual(readFileSync(log, 'utf8').trim().split('\n'), ['0', '0', '0']);
});

test('bad options stop with a message', () => {
  const run = (args: string[]) => spawnSync(PINNED_NODE, [join(ROOT, 'tools', 'compare.ts'), ...args], { encoding: 'utf8', timeout: 60_000 });
  const cases: Array<[string[], RegExp]> = [
    [['--runs', '0'], /--runs must be an integer >= 1, not '0'/],
    [['--filter', 'no-such-benchmark'], /no benchmark matches --filter no-such-benchmark/],
    [['--filter', 'tee.js', '--set', 'nope=1'], /no selected benchmark has a configuration key 'nope'/],
    [['--filter', 'tee.js', '--set', 'n=abc'], /configuration "n" is numeric/],
    [['--new', '/nonexistent/node'], /is not base, patched/],
    [['--name', 'a/b'], /--name may only use/],
    [['--clock', 'sundial'], /--clock must be wall or cpu/],
    [['--from-csv', '/nonexistent.csv'], /ENOENT/],
    [['--set', 'CPUSET=first'], /CPUSET takes CPU numbers and ranges/],
    [['--set', 'CPUSET=4096'], /CPUSET: this machine has CPUs 0-\d+, got 4096/],
    [['--set', 'CPUSET=1-0'], /the range 1-0 runs backwards/],
    [['--set', 'CPUSET=0', '--set', 'CPUSET=1'], /CPUSET= was given 2 times/],
  ];
  for (const [args, message] of cases) {
    const r = run(args);
    assert.equal(r.status, 2, `${args.join(' ')}: ${r.stderr}`);
    assert.match(r.stderr, message);
  }
});
