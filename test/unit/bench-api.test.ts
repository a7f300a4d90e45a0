// benchmark/common.js behaves like Node's benchmark API: configuration cross
// product and its order, key=value and --set selection, the output line,
// test mode, in-process mode, listing, IPC reports, and clear failures.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PINNED_NODE, ROOT } from '../../tools/lib/paths.ts';
import { runBenchmark } from '../../tools/bench/runner.ts';

// A throwaway benchmark/ folder: our common.js plus fake benchmark files, so
// names come out as `cat/<file>.js` like `webstreams/tee.js` does.
const dir = mkdtempSync(join(tmpdir(), 'bench-api-'));
mkdirSync(join(dir, 'benchmark', 'cat'), { recursive: true });
copyFileSync(join(ROOT, 'benchmark', 'common.js'), join(dir, 'benchmark', 'common.js'));
writeFileSync(join(dir, 'benchmark', 'package.json'), '{ "type": "commonjs" }\n');
const FAKE = join(dir, 'benchmark', 'cat', 'fake.js');
writeFileSync(FAKE, `'use strict';
const common = require('../common.js');
const bench = common.createBenchmark(main, {
  n: [10, 20],
  type: ['a', 'b c'],
  size: 5,
}, { test: { type: 'b c' } });
function main(conf) {
  // Each run says which configuration it got, on stderr.
  process.stderr.write(JSON.stringify(conf) + '\\n');
  bench.start();
  let x = 0;
  for (let i = 0; i < 1e5; i++) x += i;
  bench.end(conf.n * 1e6 + (x > 0 ? 0 : 1));
}
`);
const STALL = join(dir, 'benchmark', 'cat', 'stall.js');
writeFileSync(STALL, `'use strict';
const common = require('../common.js');
const bench = common.createBenchmark(main, { n: [1], where: ['before-end', 'after-end'] });
async function main({ n, where }) {
  if (where === 'before-end') await new Promise(() => {});
  bench.start();
  bench.end(n);
  await new Promise(() => {}); // the self-check never runs
}
`);
const SLEEPY = join(dir, 'benchmark', 'cat', 'sleepy.js');
writeFileSync(SLEEPY, `'use strict';
const common = require('../common.js');
const bench = common.createBenchmark(main, { n: [1] });
function main({ n }) {
  bench.start();
  setTimeout(() => bench.end(n), 300); // idle, off the CPU
}
`);
const MISUSE = join(dir, 'benchmark', 'cat', 'misuse.js');
writeFileSync(MISUSE, `'use strict';
const common = require('../common.js');
const bench = common.createBenchmark(main, { how: ['end-first', 'twice', 'zero'] });
function main({ how }) {
  if (how === 'end-first') return bench.end(1);
  bench.start();
  if (how === 'zero') return bench.end(0);
  bench.end(1);
  bench.end(1);
}
`);

// A file that needs a Node flag of its own (createBenchmark options.flags),
// like creation.js's --expose-gc.
const NEEDS_GC = join(dir, 'benchmark', 'cat', 'needs-gc.js');
writeFileSync(NEEDS_GC, `'use strict';
const common = require('../common.js');
const bench = common.createBenchmark(main, { n: [1] }, { flags: ['--expose-gc'] });
function main({ n }) {
  globalThis.gc();
  bench.start();
  bench.end(n);
}
`);

function run(file: string, args: string[], env: NodeJS.ProcessEnv = {}) {
  const r = spawnSync(PINNED_NODE, [file, ...args], { encoding: 'utf8', env: { ...process.env, ...env }, timeout: 60_000 });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr, lines: r.stdout.trim().split('\n').filter(Boolean) };
}

const LINE = /^cat\/fake\.js size=5 type="(a|b c)" n=(10|20|\d+): (\d{1,3}(?:,\d{3})*(?:\.\d+)?)$/;

test('every combination runs once, first key outermost, innermost key printed first', () => {
  const r = run(FAKE, []);
  assert.equal(r.status, 0, r.stderr);
  assert.equal(r.lines.length, 4, r.stdout);
  const seen = r.lines.map((l) => {
    const m = LINE.exec(l);
    assert.ok(m, `not Node's output line: ${l}`);
    return `${m[2]}/${m[1]}`;
  });
  assert.deepEqual(seen, ['10/a', '10/b c', '20/a', '20/b c']);
});

test('the rate has thousands separators and matches operations / time', () => {
  const r = run(FAKE, ['n=20', 'type=a']);
  assert.equal(r.status, 0, r.stderr);
  const m = LINE.exec(r.lines[0]);
  assert.ok(m, r.stdout);
  const rate = Number(m[3].replace(/,/g, ''));
  // 2e7 operations in a few milliseconds: a rate in the billions, grouped.
  assert.ok(rate > 1e8, `rate ${rate}`);
  assert.match(m[3], /^\d{1,3}(,\d{3}){2,}/);
});

test('key=value and --set select values; numbers are parsed; values outside the list are allowed', () => {
  const types = (args: string[]) => {
    const r = run(FAKE, args);
    assert.equal(r.status, 0, r.stderr);
    return r.lines.map((l) => {
      const m = LINE.exec(l);
      assert.ok(m, l);
      return `${m[2]}/${m[1]}`;
    });
  };
  assert.deepEqual(types(['type=a']), ['10/a', '20/a']);
  assert.deepEqual(types(['--set', 'type=b c', '--set=n=20']), ['20/b c']);
  assert.deepEqual(types(['n=33', 'n=10', 'type=a']), ['33/a', '10/a']);
  const conf = run(FAKE, ['n=7', 'type=a']).stderr.trim();
  assert.deepEqual(JSON.parse(conf), { size: 5, type: 'a', n: 7 });
});

test('bad arguments fail with a message naming the problem', () => {
  const cases: Array<[string[], RegExp]> = [
    [['tpye=a'], /unknown configuration key "tpye" \(keys: n, type, size\)/],
    [['n=ten'], /configuration "n" is numeric, got "ten"/],
    [['n='], /configuration "n" is numeric/],
    [['oops'], /bad argument: oops/],
    [['--set'], /--set needs key=value/],
  ];
  for (const [args, message] of cases) {
    const r = run(FAKE, args);
    assert.equal(r.status, 1, `${args.join(' ')} should fail`);
    assert.match(r.stderr, message);
    assert.equal(r.stdout, '');
  }
});

test('--test runs one tiny configuration with the file\'s test overrides', () => {
  const r = run(FAKE, ['--test']);
  assert.equal(r.status, 0, r.stderr);
  assert.equal(r.lines.length, 1);
  assert.deepEqual(JSON.parse(r.stderr.trim()), { size: 1, type: 'b c', n: 1 });
});

test('NODE_RUN_BENCHMARK_FN runs the first selected configuration in this process', () => {
  const r = run(FAKE, ['type=b c', 'n=20', 'n=10'], { NODE_RUN_BENCHMARK_FN: '' });
  assert.equal(r.status, 0, r.stderr);
  assert.equal(r.lines.length, 1);
  assert.match(r.lines[0], /^cat\/fake\.js size=5 type="b c" n=20: /);
});

test('listing mode prints keys and the selected configurations without running them', () => {
  const r = run(FAKE, ['type=a'], { NODE_BENCHMARK_LIST_CONFIGS: '1' });
  assert.equal(r.status, 0, r.stderr);
  assert.equal(r.stderr, '');
  assert.deepEqual(JSON.parse(r.stdout), {
    name: 'cat/fake.js',
    keys: ['n', 'type', 'size'],
    configs: [{ size: 5, type: 'a', n: 10 }, { size: 5, type: 'a', n: 20 }],
    flags: [],
  });
  assert.deepEqual(JSON.parse(run(NEEDS_GC, [], { NODE_BENCHMARK_LIST_CONFIGS: '1' }).stdout).flags, ['--expose-gc']);
});

test('a file\'s own Node flags reach its run: forked by common.js, and given by tools/compare.ts\'s runner', async () => {
  const forked = run(NEEDS_GC, []);
  assert.equal(forked.status, 0, forked.stderr);
  assert.match(forked.lines[0], /^cat\/needs-gc\.js n=1: /);
  const exe = { spec: 'pinned', command: PINNED_NODE, args: [], env: { ...process.env } };
  const report = await runBenchmark(exe, NEEDS_GC, { n: 1 }, 60_000, ['--expose-gc']).promise;
  assert.deepEqual(report.conf, { n: 1 });
  await assert.rejects(runBenchmark(exe, NEEDS_GC, { n: 1 }, 60_000).promise,
    /needs the Node flag\(s\) --expose-gc/);
  const here = run(NEEDS_GC, [], { NODE_RUN_BENCHMARK_FN: '' });
  assert.equal(here.status, 1);
  assert.match(here.stderr, /needs-gc\.js: needs the Node flag\(s\) --expose-gc .*without NODE_RUN_BENCHMARK_FN/);

  // The same flag spelled as Node also accepts it, on the command line or in NODE_OPTIONS.
  for (const [args, env] of [[['--expose_gc'], {}], [[], { NODE_OPTIONS: '--expose-gc' }]] as const) {
    const r = spawnSync(PINNED_NODE, [...args, NEEDS_GC],
      { encoding: 'utf8', env: { ...process.env, NODE_RUN_BENCHMARK_FN: '', ...env }, timeout: 60_000 });
    assert.equal(r.status, 0, `${args.join(' ')} ${JSON.stringify(env)}: ${r.stderr}`);
    assert.match(r.stdout, /^cat\/needs-gc\.js n=1: /);
  }
});

test('a forked child reports over IPC, as compare.js and tools/compare.ts expect', async () => {
  const exe = { spec: 'pinned', command: PINNED_NODE, args: [], env: { ...process.env } };
  const report = await runBenchmark(exe, FAKE, { size: 5, type: 'b c', n: 20 }, 60_000).promise;
  assert.equal(report.name, 'cat/fake.js');
  assert.deepEqual(report.conf, { size: 5, type: 'b c', n: 20 });
  assert.ok(report.rate > 0 && report.time > 0);
  // rate is operations / time
  assert.ok(Math.abs(report.rate * report.time - 20e6) < 1, `${report.rate} * ${report.time}`);
});

test('NODE_BENCHMARK_CLOCK=cpu counts the main thread\'s CPU time, not idle wall time', async () => {
  const exe = { spec: 'pinned', command: PINNED_NODE, args: [], env: { ...process.env } };
  const wall = await runBenchmark(exe, SLEEPY, { n: 1 }, 60_000).promise;
  assert.ok(wall.time >= 0.29, `wall clock: ${wall.time} s`);
  const cpu = await runBenchmark({ ...exe, env: { ...exe.env, NODE_BENCHMARK_CLOCK: 'cpu' } }, SLEEPY, { n: 1 }, 60_000).promise;
  assert.ok(cpu.time < 0.1, `cpu clock: ${cpu.time} s for 300 ms of sleep`);
  assert.ok(Math.abs(cpu.rate * cpu.time - 1) < 1e-6);
  // Busy work counts on the CPU clock too.
  const busy = await runBenchmark({ ...exe, env: { ...exe.env, NODE_BENCHMARK_CLOCK: 'cpu' } }, FAKE, { size: 5, type: 'a', n: 10 }, 60_000).promise;
  assert.ok(busy.time > 0);
  const bad = run(FAKE, [], { NODE_BENCHMARK_CLOCK: 'sundial' });
  assert.equal(bad.status, 1);
  assert.match(bad.stderr, /NODE_BENCHMARK_CLOCK must be wall or cpu, got "sundial"/);
});

test('a stalled benchmark fails instead of exiting quietly, before or after bench.end()', () => {
  const before = run(STALL, ['where=before-end'], { NODE_RUN_BENCHMARK_FN: '' });
  assert.equal(before.status, 1);
  assert.match(before.stderr, /finished without calling bench\.end\(\)/);
  const after = run(STALL, ['where=after-end'], { NODE_RUN_BENCHMARK_FN: '' });
  assert.equal(after.status, 1);
  assert.match(after.stderr, /main\(\) never finished/);
  // Run as a whole, the parent stops at the failing configuration.
  const all = run(STALL, []);
  assert.notEqual(all.status, 0);
  assert.match(all.stderr, /configuration where="before-end" n=1 failed/);
});

test('bench.start/end misuse throws like upstream', () => {
  const expect: Record<string, RegExp> = {
    'end-first': /called end without start/,
    twice: /called end multiple times/,
    zero: /operation count <= 0/,
  };
  for (const [how, message] of Object.entries(expect)) {
    const r = run(MISUSE, [`how=${how}`], { NODE_RUN_BENCHMARK_FN: '' });
    assert.notEqual(r.status, 0, how);
    assert.match(r.stderr, message);
  }
});
