'use strict';
// Real-world shape: source.pipeTo(sink) with default strategies, a pull
// source of 1 KiB chunks and a synchronous sink.
const common = require('../common.js');
const assert = require('assert');
const { ReadableStream, WritableStream } = require('node:stream/web');

const bench = common.createBenchmark(main, {
  n: [3e6],
  size: [1024],
});

async function main({ n, size }) {
  const pool = Array.from({ length: 256 }, (_, i) => new Uint8Array(size).fill(i));
  let produced = 0;
  const source = new ReadableStream({
    pull(controller) {
      if (produced < n) controller.enqueue(pool[produced++ & 0xff]);
      else controller.close();
    },
  });
  let written = 0;
  let bytes = 0;
  let closed = false;
  const sink = new WritableStream({
    write(chunk) {
      if (chunk !== pool[written & 0xff]) throw new Error(`write ${written}: chunk out of order`);
      bytes += chunk.byteLength;
      written++;
    },
    close() {
      closed = true;
    },
  });

  bench.start();
  await source.pipeTo(sink);
  bench.end(n);
  assert.strictEqual(written, n);
  assert.strictEqual(bytes, n * size);
  assert.ok(closed);
}
