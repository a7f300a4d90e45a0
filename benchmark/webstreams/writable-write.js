'use strict';
// writer.write() into a synchronous sink: awaiting each write, or queueing
// them all (high water mark n) and awaiting the last.
const common = require('../common.js');
const assert = require('assert');
const { WritableStream } = require('node:stream/web');

const bench = common.createBenchmark(main, {
  n: [5e5],
  type: ['await', 'queued'],
});

// Queueing n writes builds an n-long queue and costs several times an
// awaited write; awaited writes run 4 * n times so both take similar time.
async function main({ n: total, type }) {
  const n = type === 'await' ? 4 * total : total;
  let count = 0;
  const ws = new WritableStream({
    write(chunk) {
      if (chunk !== count) throw new Error(`write ${count}: got chunk ${chunk}`);
      count++;
    },
  }, { highWaterMark: type === 'queued' ? n : 1 });
  const writer = ws.getWriter();
  bench.start();
  if (type === 'await') {
    for (let i = 0; i < n; i++) await writer.write(i);
  } else if (type === 'queued') {
    for (let i = 0; i < n - 1; i++) writer.write(i);
    await writer.write(n - 1);
  } else {
    throw new Error(`unknown type ${type}`);
  }
  bench.end(n);
  await writer.close();
  assert.strictEqual(count, n);
}
