'use strict';
// ReadableStream.from() over a sync or an async generator, read to the end.
const common = require('../common.js');
const assert = require('assert');
const { ReadableStream } = require('node:stream/web');

const bench = common.createBenchmark(main, {
  n: [2e6],
  kind: ['sync', 'async'],
});

async function main({ n, kind }) {
  function* syncGen() {
    for (let i = 0; i < n; i++) yield i;
  }
  async function* asyncGen() {
    for (let i = 0; i < n; i++) yield i;
  }

  const reader = ReadableStream.from(kind === 'sync' ? syncGen() : asyncGen()).getReader();
  let reads = 0;
  bench.start();
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    if (value !== reads) throw new Error(`read ${reads}: got chunk ${value}`);
    reads++;
  }
  bench.end(n);
  assert.strictEqual(reads, n);
}
