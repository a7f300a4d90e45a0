'use strict';
// webstreams/pipe-to-sink.js against a minimal model of the same pipe
// (lib/minimal-streams.js).
const common = require('../common.js');
const assert = require('assert');
const { ReadableStream, WritableStream } = require('node:stream/web');
const { MinimalReadable, MinimalWriter, minimalPipe } = require('./lib/minimal-streams.js');

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
  let written = 0;
  let bytes = 0;
  let closed = false;
  const write = (chunk) => {
    if (chunk !== pool[written & 0xff]) throw new Error(`write ${written}: chunk out of order`);
    bytes += chunk.byteLength;
    written++;
  };
  const close = () => {
    closed = true;
  };

  bench.start();
  if (impl === 'model') {
    await minimalPipe(new MinimalReadable(pull), new MinimalWriter(write, close));
  } else {
    await new ReadableStream({ pull }).pipeTo(new WritableStream({ write, close }));
  }
  bench.end(n);
  assert.strictEqual(written, n);
  assert.strictEqual(bytes, n * size);
  assert.ok(closed);
}
