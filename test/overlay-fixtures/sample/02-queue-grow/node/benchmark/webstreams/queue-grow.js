'use strict';
// Sample extra file: goes into the patch as benchmark/webstreams/queue-grow.js.
const common = require('../common.js');
const { ReadableStream } = require('node:stream/web');

const bench = common.createBenchmark(main, {
  n: [1e4],
  chunks: [64],
});

async function main({ n, chunks }) {
  bench.start();
  for (let i = 0; i < n; i++) {
    const rs = new ReadableStream({ highWaterMark: chunks });
    const controller = await new Promise((resolve) => {
      const s = new ReadableStream({ start: resolve }, { highWaterMark: chunks });
      void s;
      void rs;
    });
    for (let c = 0; c < chunks; c++) controller.enqueue(c);
  }
  bench.end(n);
}
