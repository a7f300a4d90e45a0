'use strict';
// webstreams/read-loop.js against a minimal model of the same stream
// (lib/minimal-streams.js): how far the read loop could go if the spec's
// turns and per-read objects were all that remained. impl='userland' runs
// the same loop on the userland library (lib/userland-streams.js).
const common = require('../common.js');
const assert = require('assert');
const { ReadableStream } = require('node:stream/web');
const { MinimalReadable } = require('./lib/minimal-streams.js');
const { userlandStreams } = require('./lib/userland-streams.js');

const bench = common.createBenchmark(main, {
  impl: ['webstreams', 'model', 'userland'],
  n: [2e6],
  size: [1024],
});

async function main({ impl, n, size }) {
  const pool = Array.from({ length: 256 }, (_, i) => new Uint8Array(size).fill(i));
  let produced = 0;
  const pull = (controller) => {
    if (produced < n) controller.enqueue(pool[produced++ & 0xff]);
    else controller.close();
  };
  let reader;
  if (impl === 'model') reader = new MinimalReadable(pull);
  else if (impl === 'userland') reader = new (await userlandStreams()).ReadableStream({ pull }).getReader();
  else reader = new ReadableStream({ pull }).getReader();

  let reads = 0;
  let bytes = 0;
  bench.start();
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    if (value !== pool[reads & 0xff]) throw new Error(`read ${reads}: chunk out of order`);
    bytes += value.byteLength;
    reads++;
  }
  bench.end(n);
  assert.strictEqual(reads, n);
  assert.strictEqual(bytes, n * size);
}
