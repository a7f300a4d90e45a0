'use strict';
// webstreams/readable-read-buffered.js against a minimal model of the same
// stream (lib/minimal-streams.js).
const common = require('../common.js');
const assert = require('assert');
const { ReadableStream } = require('node:stream/web');
const { MinimalReadable } = require('./lib/minimal-streams.js');

const bench = common.createBenchmark(main, {
  impl: ['webstreams', 'model'],
  n: [5e6],
  bufferSize: [1, 100],
});

async function main({ impl, n, bufferSize }) {
  let enqueued = 0;
  const fill = (controller) => {
    const count = Math.min(bufferSize, n - enqueued);
    for (let i = 0; i < count; i++) controller.enqueue(enqueued++);
    if (enqueued >= n) controller.close();
  };
  let reader;
  if (impl === 'model') {
    reader = new MinimalReadable(fill, bufferSize);
    fill(reader.controller);
  } else {
    reader = new ReadableStream({ start: fill, pull: fill }, { highWaterMark: bufferSize }).getReader();
  }

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
