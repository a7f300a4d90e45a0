'use strict';
// webstreams/for-await.js against a minimal model of the same stream
// (lib/minimal-streams.js), whose iterator's next() is its read().
const common = require('../common.js');
const assert = require('assert');
const { ReadableStream } = require('node:stream/web');
const { MinimalReadable } = require('./lib/minimal-streams.js');

const bench = common.createBenchmark(main, {
  impl: ['webstreams', 'model'],
  n: [3e6],
  size: [1024],
});

async function main({ impl, n, size }) {
  const pool = Array.from({ length: 256 }, (_, i) => new Uint8Array(size).fill(i));
  let produced = 0;
  const pull = (controller) => {
    if (produced < n) controller.enqueue(pool[produced++ & 0xff]);
    else controller.close();
  };
  const stream = impl === 'model' ? new MinimalReadable(pull) : new ReadableStream({ pull });

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
