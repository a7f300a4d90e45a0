'use strict';
// pipeTo from a pull source of 1 KiB buffers into a no-op sink, with the
// readable and writable high water marks (in chunks) as configured: two of
// the three values v24.21.0's file has, the default and the largest.
const common = require('../common.js');
const assert = require('assert');
const { ReadableStream, WritableStream } = require('node:stream/web');

const bench = common.createBenchmark(main, {
  n: [2e6],
  highWaterMarkR: [1, 4096],
  highWaterMarkW: [1, 4096],
});

async function main({ n, highWaterMarkR, highWaterMarkW }) {
  const chunk = Buffer.alloc(1024);
  let produced = 0;
  let written = 0;
  const rs = new ReadableStream({
    pull(controller) {
      if (produced++ < n) controller.enqueue(chunk);
      else controller.close();
    },
  }, { highWaterMark: highWaterMarkR });
  const ws = new WritableStream({
    write(c) {
      if (c !== chunk) throw new Error('the sink got a different chunk');
      written++;
    },
  }, { highWaterMark: highWaterMarkW });

  bench.start();
  await rs.pipeTo(ws);
  bench.end(n);
  assert.strictEqual(written, n);
}
