'use strict';
// webstreams/writable-write.js (type='queued': every write() issued before
// the first settles, only the last one awaited) against a minimal model of
// the same stream and writer (lib/minimal-streams.js).
const common = require('../common.js');
const assert = require('assert');
const { WritableStream } = require('node:stream/web');
const { MinimalWriter } = require('./lib/minimal-streams.js');

const bench = common.createBenchmark(main, {
  impl: ['webstreams', 'model'],
  n: [5e5],
});

async function main({ impl, n }) {
  let count = 0;
  const write = (chunk) => {
    if (chunk !== count) throw new Error(`write ${count}: got chunk ${chunk}`);
    count++;
  };
  // The high-water mark admits every write without backpressure, as in
  // writable-write.js; the model never applies backpressure to write().
  const writer = impl === 'model' ?
    new MinimalWriter(write) :
    new WritableStream({ write }, { highWaterMark: n }).getWriter();

  bench.start();
  for (let i = 0; i < n - 1; i++) writer.write(i);
  await writer.write(n - 1);
  bench.end(n);
  assert.strictEqual(count, n);
}
