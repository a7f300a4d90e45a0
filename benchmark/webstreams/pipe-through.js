'use strict';
// pipeThrough one TransformStream (identity without a transformer, or with a
// transform() that re-enqueues) and read the result with a reader.
const common = require('../common.js');
const assert = require('assert');
const { ReadableStream, TransformStream } = require('node:stream/web');

const bench = common.createBenchmark(main, {
  n: [1e6],
  kind: ['default', 'transform'],
});

async function main({ n, kind }) {
  const chunk = Buffer.alloc(64);
  let produced = 0;
  const rs = new ReadableStream({
    pull(controller) {
      if (produced++ < n) controller.enqueue(chunk);
      else controller.close();
    },
  });
  let transformed = 0;
  const ts = kind === 'default' ?
    new TransformStream() :
    new TransformStream({
      transform(c, controller) {
        transformed++;
        controller.enqueue(c);
      },
    });

  const reader = rs.pipeThrough(ts).getReader();
  let reads = 0;
  bench.start();
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    if (value !== chunk) throw new Error('the reader got a different chunk');
    reads++;
  }
  bench.end(n);
  assert.strictEqual(reads, n);
  assert.strictEqual(transformed, kind === 'default' ? 0 : n);
}
