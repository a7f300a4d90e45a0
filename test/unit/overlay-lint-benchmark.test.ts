// The lint of the benchmarks patches ship (tools/overlay/lint-benchmark.ts): it fires on a benchmark
// that breaks a rule and stays quiet on one written as Node's are. The shipped benchmarks themselves are
// linted by `make lint`, calibrated on Node's own.
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { lintNodeBenchmark } from '../../tools/overlay/lint-benchmark.ts';

const CLEAN = [
  "'use strict';",
  "const common = require('../common.js');",
  "const { ReadableStream } = require('node:stream/web');",
  '',
  'const bench = common.createBenchmark(main, { n: [1e5] });',
  '',
  'async function main({ n }) {',
  '  let i = 0;',
  '  const stream = new ReadableStream({',
  '    pull(controller) {',
  '      if (i++ < n) controller.enqueue(i);',
  '      else controller.close();',
  '    },',
  '  });',
  '  bench.start();',
  '  for await (const chunk of stream) assert.ok(chunk);',
  '  bench.end(n);',
  '}',
  "const assert = require('assert');",
  '',
].join('\n');

function rules(text: string): string[] {
  return lintNodeBenchmark('benchmark/webstreams/x.js', text).map((f) => `${f.line} ${f.rule}`);
}

it('is quiet on a benchmark written as Node\'s are', () => {
  assert.deepEqual(rules(CLEAN), []);
});

it("reports benchmark/'s own rule, the root config's and Node's rules for every file", () => {
  const text = CLEAN
    .replace('  bench.start();', '  setImmediate(function() { bench.start(); }, 0);')
    .replace("const assert = require('assert');", "const assert = require('assert');\nrequire('assert');")
    .replace('  let i = 0;', '  var i = 0;');
  assert.deepEqual(rules(text), ['8 no-var', '15 prefer-arrow-callback', '20 no-duplicate-requires']);
});
