'use strict';
// Real-world shape: for await (const chunk of stream) over a pull source of
// 1 KiB chunks, to the end of the stream.
const common = require('../common.js');
const assert = require('assert');
const { ReadableStream } = require('node:stream/web');

const bench = common.createBenchmark(main, {
  n: [3e6],
  size: [1024],
});

async function main({ n, size }) {
  const pool = Array.from({ length: 256 }, (_, i) => new Uint8Array(size).fill(i));
  let produced = 0;
  const stream = new ReadableStream({
    pull(controller) {
      if (produced < n) controller.enqueue(pool[produced++ & 0xff]);
      else controller.close();
    },
  });

  let reads = 0;
  let bytes = 0;
  bench.start();
  for await (const chunk of stream) {
    if (chunk !== pool[reads & 0xff]) throw new Error(`read ${reads}: chunk out of order`);
    bytes += chunk.byteLength;
    reads++;
  }
  bench.end(n);
  assert.strictEqual(reads, n);
  assert.strictEqual(bytes, n * size);
}
