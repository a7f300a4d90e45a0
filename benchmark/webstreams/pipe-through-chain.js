'use strict';
// Real-world shape: source.pipeThrough(t1)...pipeThrough(tK).pipeTo(sink)
// with K identity TransformStreams, 1 KiB chunks and a synchronous sink.
// transformer=function: a transform() that re-enqueues (counted);
// transformer=none: `new TransformStream()`, the plain pass-through;
// transformer=filter: as function, but the last transform() drops every
// 16th chunk, as a parser drops keep-alive comments or a filter its
// misses.
const common = require('../common.js');
const assert = require('assert');
const { ReadableStream, TransformStream, WritableStream } = require('node:stream/web');

const bench = common.createBenchmark(main, {
  n: [3e5],
  transforms: [1, 3, 8],
  transformer: ['function', 'none', 'filter'],
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
  const kept = (index) => transformer !== 'filter' || index % 16 !== 15;
  let transformed = 0;
  let filtered = 0;
  for (let i = 0; i < transforms; i++) {
    if (transformer === 'none') {
      readable = readable.pipeThrough(new TransformStream());
    } else if (transformer === 'filter' && i === transforms - 1) {
      readable = readable.pipeThrough(new TransformStream({
        transform(chunk, controller) {
          transformed++;
          if (kept(filtered++)) controller.enqueue(chunk);
        },
      }));
    } else {
      readable = readable.pipeThrough(new TransformStream({
        transform(chunk, controller) {
          transformed++;
          controller.enqueue(chunk);
        },
      }));
    }
  }
  let index = 0;
  let written = 0;
  let bytes = 0;
  const sink = new WritableStream({
    write(chunk) {
      while (!kept(index)) index++;
      if (chunk !== pool[index & 0xff]) throw new Error(`write ${written}: chunk out of order`);
      bytes += chunk.byteLength;
      index++;
      written++;
    },
  });

  bench.start();
  await readable.pipeTo(sink);
  bench.end(n);
  const expected = transformer === 'filter' ? n - Math.floor(n / 16) : n;
  assert.strictEqual(written, expected);
  assert.strictEqual(bytes, expected * size);
  assert.strictEqual(transformed, transformer === 'none' ? 0 : n * transforms);
}
