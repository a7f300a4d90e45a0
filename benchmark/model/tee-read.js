'use strict';
// webstreams/tee-read.js (mode='concurrent') against a minimal model of the
// same tee (lib/minimal-streams.js).
const common = require('../common.js');
const assert = require('assert');
const { ReadableStream } = require('node:stream/web');
const { MinimalReadable, minimalTee } = require('./lib/minimal-streams.js');

const bench = common.createBenchmark(main, {
  impl: ['webstreams', 'model'],
  n: [6e5],
  size: [1024],
});

async function drain(reader, pool) {
  let reads = 0;
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return reads;
    if (value !== pool[reads & 0xff]) throw new Error(`read ${reads}: chunk out of order`);
    reads++;
  }
}

async function main({ impl, n, size }) {
  const pool = Array.from({ length: 256 }, (_, i) => new Uint8Array(size).fill(i));
  let produced = 0;
  const pull = (controller) => {
    if (produced < n) controller.enqueue(pool[produced++ & 0xff]);
    else controller.close();
  };
  let readers;
  if (impl === 'model') {
    readers = minimalTee(new MinimalReadable(pull));
  } else {
    readers = new ReadableStream({ pull }).tee().map((branch) => branch.getReader());
  }

  bench.start();
  const reads = await Promise.all(readers.map((reader) => drain(reader, pool)));
  bench.end(n);
  assert.deepStrictEqual(reads, [n, n]);
}
