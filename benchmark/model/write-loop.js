'use strict';
// webstreams/write-loop.js (wait='write') against a minimal model of the
// same stream and writer (lib/minimal-streams.js).
const common = require('../common.js');
const assert = require('assert');
const { WritableStream } = require('node:stream/web');
const { MinimalWriter } = require('./lib/minimal-streams.js');

const bench = common.createBenchmark(main, {
  impl: ['webstreams', 'model'],
  n: [2e6],
  size: [1024],
});

async function main({ impl, n, size }) {
  const pool = Array.from({ length: 256 }, (_, i) => new Uint8Array(size).fill(i));
  let written = 0;
  let bytes = 0;
  const write = (chunk) => {
    if (chunk !== pool[written & 0xff]) throw new Error(`write ${written}: chunk out of order`);
    bytes += chunk.byteLength;
    written++;
  };
  const writer = impl === 'model' ? new MinimalWriter(write) : new WritableStream({ write }).getWriter();

  bench.start();
  for (let i = 0; i < n; i++) await writer.write(pool[i & 0xff]);
  bench.end(n);
  assert.strictEqual(written, n);
  assert.strictEqual(bytes, n * size);
}
