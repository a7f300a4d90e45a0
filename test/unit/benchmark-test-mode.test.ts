// tools/node/benchmark-test-mode.ts: Node's benchmark test mode on a tree
// passes on good benchmark files and fails on a broken one.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runWebstreamsBenchmarkTest } from '../../tools/node/benchmark-test-mode.ts';
import { ensureNodeTree } from '../../tools/node/fixture-tree.ts';
import { ROOT } from '../../tools/lib/paths.ts';

/** A tree with Node's benchmark runner and two of the series' webstreams benchmarks. */
function tree(extra?: [string, string]): string {
  const dir = mkdtempSync(join(tmpdir(), 'bench-test-mode-'));
  const full = ensureNodeTree().dir;
  for (const f of ['run.js', '_cli.js', 'common.js', '_http-benchmarkers.js', '_test-double-benchmarker.js']) cpSync(join(full, 'benchmark', f), join(dir, 'benchmark', f));
  mkdirSync(join(dir, 'benchmark', 'webstreams'), { recursive: true });
  for (const f of ['read-loop.js', 'pipe-through-chain.js']) {
    cpSync(join(ROOT, 'benchmark', 'webstreams', f), join(dir, 'benchmark', 'webstreams', f));
  }
  if (extra) writeFileSync(join(dir, 'benchmark', 'webstreams', extra[0]), extra[1]);
  return dir;
}

test('the series\' benchmarks run in test mode, and the tree is left as it was', () => {
  const dir = tree();
  try {
    runWebstreamsBenchmarkTest(dir);
    assert.deepEqual(readdirSync(dir), ['benchmark']);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a benchmark that fails at n=1 fails the check, with its error', () => {
  const broken = `'use strict';
const common = require('../common.js');
const bench = common.createBenchmark(main, { n: [1e5], size: [1024] });
function main({ n, size }) {
  if (size < 16) throw new Error('size ' + size + ' is too small for this benchmark');
  bench.start();
  bench.end(n);
}
`;
  const dir = tree(['broken.js', broken]);
  try {
    assert.throws(() => runWebstreamsBenchmarkTest(dir), /exited with 1:[\s\S]*size 1 is too small/);
    assert.ok(!existsSync(join(dir, 'test')), 'the borrowed test/ is removed after a failure too');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
