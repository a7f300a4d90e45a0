'use strict';
// Real-world shape: a producer writing 1 KiB chunks into a WritableStream
// whose sink is synchronous, either awaiting every write() or awaiting
// writer.ready before each write (the backpressure-respecting loop).
const common = require('../common.js');
const assert = require('assert');
const { WritableStream } = require('node:stream/web');

const bench = common.createBenchmark(main, {
  n: [2e6],
  wait: ['write', 'ready'],
  size: [1024],
});

async function main({ n, wait, size }) {
  const pool = Array.from({ length: 256 }, (_, i) => new Uint8Array(size).fill(i));
  let written = 0;
  let bytes = 0;
  const writer = new WritableStream({
    write(chunk) {
      if (chunk !== pool[written & 0xff]) throw new Error(`write ${written}: chunk out of order`);
      bytes += chunk.byteLength;
      written++;
    },
  }).getWriter();

  bench.start();
  if (wait === 'write') {
    for (let i = 0; i < n; i++) await writer.write(pool[i & 0xff]);
  } else if (wait === 'ready') {
    for (let i = 0; i < n; i++) {
      await writer.ready;
      writer.write(pool[i & 0xff]);
    }
    await writer.close();
  } else {
    throw new Error(`unknown wait ${wait}`);
  }
  bench.end(n);
  assert.strictEqual(written, n);
  assert.strictEqual(bytes, n * size);
}
