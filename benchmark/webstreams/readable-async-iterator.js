'use strict';
// for await over a pull source that enqueues one number per pull.
const common = require('../common.js');
const assert = require('assert');
const { ReadableStream } = require('node:stream/web');

const bench = common.createBenchmark(main, {
  n: [4e6],
});

async function main({ n }) {
  let produced = 0;
  const rs = new ReadableStream({
    pull(controller) {
      controller.enqueue(produced++);
    },
  });

  let reads = 0;
  bench.start();
  for await (const chunk of rs) {
    if (chunk !== reads) throw new Error(`read ${reads}: got chunk ${chunk}`);
    if (++reads === n) break;
  }
  bench.end(n);
  assert.strictEqual(reads, n);
  // break cancels the stream through the iterator's return().
  assert.ok(!rs.locked);
}
