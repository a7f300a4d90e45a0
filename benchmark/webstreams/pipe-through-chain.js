'use strict';
// Real-world shape: source.pipeThrough(t1)...pipeThrough(tK).pipeTo(sink)
// with K identity TransformStreams, 1 KiB chunks and a synchronous sink.
// transformer=function: a transform() that re-enqueues (counted);
// transformer=none: `new TransformStream()`, the plain pass-through.
const common = require('../common.js');
const assert = require('assert');
const { ReadableStream, TransformStream, WritableStream } = require('node:stream/web');

const bench = common.createBenchmark(main, {
  n: [3e5],
  transforms: [1, 3, 8],
  transformer: ['function', 'none'],
  size: [1024],
});

async function main({ n, transforms, transformer, size }) {
  const pool = Array.from({ length: 256 }, (_, i) => new Uint8Array(size).fill(i));
  let produced = 0;
  let readable = new ReadableStream({
    pull(controller) {
      if (produced < n) controller.enqueue(pool[produced++ & 0xff]);
      else controller.close();
    },
  });
  let transformed = 0;
  for (let i = 0; i < transforms; i++) {
    readable = readable.pipeThrough(transformer === 'none' ?
      new TransformStream() :
      new TransformStream({
        transform(chunk, controller) {
          transformed++;
          controller.enqueue(chunk);
        },
      }));
  }
  let written = 0;
  let bytes = 0;
  const sink = new WritableStream({
    write(chunk) {
      if (chunk !== pool[written & 0xff]) throw new Error(`write ${written}: chunk out of order`);
      bytes += chunk.byteLength;
      written++;
    },
  });

  bench.start();
  await readable.pipeTo(sink);
  bench.end(n);
  assert.strictEqual(written, n);
  assert.strictEqual(bytes, n * size);
  assert.strictEqual(transformed, transformer === 'none' ? 0 : n * transforms);
}
