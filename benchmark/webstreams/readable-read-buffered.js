'use strict';
// Reads that find the chunk already queued: the source fills the queue up to
// bufferSize chunks at start and on every pull.
const common = require('../common.js');
const assert = require('assert');
const { ReadableStream } = require('node:stream/web');

const bench = common.createBenchmark(main, {
  n: [5e6],
  bufferSize: [1, 10, 100, 1000],
});

async function main({ n, bufferSize }) {
  let enqueued = 0;
  const fill = (controller) => {
    const count = Math.min(bufferSize, n - enqueued);
    for (let i = 0; i < count; i++) controller.enqueue(enqueued++);
    if (enqueued >= n) controller.close();
  };
  const reader = new ReadableStream({ start: fill, pull: fill }, { highWaterMark: bufferSize }).getReader();

  let reads = 0;
  bench.start();
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    if (value !== reads) throw new Error(`read ${reads}: got chunk ${value}`);
    reads++;
  }
  bench.end(reads);
  assert.strictEqual(reads, n);
}
