'use strict';
// Real-world shape: a pull source producing 1 KiB Uint8Array chunks, drained
// by a reader.read() loop (what a body consumer or a parser does).
const common = require('../common.js');
const assert = require('assert');
const { ReadableStream } = require('node:stream/web');

const bench = common.createBenchmark(main, {
  n: [2e6],
  size: [1024],
});

async function main({ n, size }) {
  // Distinct chunks so the check below sees order, loss and duplication.
  const pool = Array.from({ length: 256 }, (_, i) => new Uint8Array(size).fill(i));
  let produced = 0;
  const reader = new ReadableStream({
    pull(controller) {
      if (produced < n) controller.enqueue(pool[produced++ & 0xff]);
      else controller.close();
    },
  }).getReader();

  let reads = 0;
  let bytes = 0;
  bench.start();
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    if (value !== pool[reads & 0xff]) throw new Error(`read ${reads}: chunk out of order`);
    bytes += value.byteLength;
    reads++;
  }
  bench.end(n);
  assert.strictEqual(reads, n);
  assert.strictEqual(bytes, n * size);
}
