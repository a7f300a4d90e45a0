'use strict';
// Real-world shape: tee() a pull source of 1 KiB chunks and read both
// branches concurrently (two consumers at once) or sequentially (drain the
// first branch, then the second, which has buffered everything).
const common = require('../common.js');
const assert = require('assert');
const { ReadableStream } = require('node:stream/web');

const bench = common.createBenchmark(main, {
  n: [6e5],
  mode: ['concurrent', 'sequential'],
  size: [1024],
});

async function drain(stream, pool) {
  const reader = stream.getReader();
  let reads = 0;
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return reads;
    if (value !== pool[reads & 0xff]) throw new Error(`read ${reads}: chunk out of order`);
    reads++;
  }
}

async function main({ n, mode, size }) {
  const pool = Array.from({ length: 256 }, (_, i) => new Uint8Array(size).fill(i));
  let produced = 0;
  const [left, right] = new ReadableStream({
    pull(controller) {
      if (produced < n) controller.enqueue(pool[produced++ & 0xff]);
      else controller.close();
    },
  }).tee();

  let reads;
  bench.start();
  if (mode === 'concurrent') {
    reads = await Promise.all([drain(left, pool), drain(right, pool)]);
  } else if (mode === 'sequential') {
    reads = [await drain(left, pool), await drain(right, pool)];
  } else {
    throw new Error(`unknown mode ${mode}`);
  }
  bench.end(n);
  assert.deepStrictEqual(reads, [n, n]);
}
