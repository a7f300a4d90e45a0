'use strict';
// Real-world shape: new Response(stream).arrayBuffer() on a stream of
// `chunks` chunks of `size` bytes (fetch-style body consumption).
// 16 KiB bodies by default: with 64 KiB ones, the body's two copies come
// from glibc's brk heap, which trims its top after each body unless an
// earlier free has raised its dynamic mmap threshold, so runs of one
// binary differ by 2x depending on what the allocator did first.
const common = require('../common.js');
const assert = require('assert');
const { ReadableStream } = require('node:stream/web');

const bench = common.createBenchmark(main, {
  n: [2e4],
  chunks: [64],
  size: [256],
});

async function main({ n, chunks, size }) {
  const pool = Array.from({ length: chunks }, (_, i) => new Uint8Array(size).fill(i & 0xff));
  const makeBody = () => {
    let i = 0;
    return new ReadableStream({
      pull(controller) {
        if (i < chunks) controller.enqueue(pool[i++]);
        else controller.close();
      },
    });
  };

  let bytes = 0;
  let last;
  bench.start();
  for (let i = 0; i < n; i++) {
    last = await new Response(makeBody()).arrayBuffer();
    bytes += last.byteLength;
  }
  bench.end(n);
  assert.strictEqual(bytes, n * chunks * size);
  // The body is the chunks in order.
  const view = new Uint8Array(last);
  for (let i = 0; i < chunks; i++) {
    if (view[i * size] !== (i & 0xff) || view[(i + 1) * size - 1] !== (i & 0xff)) {
      throw new Error(`body chunk ${i} is out of place`);
    }
  }
}
