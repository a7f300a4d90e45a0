'use strict';
// Real-world shape: a server-rendering framework's response, one per
// request. The renderer's body is a byte stream with a high water mark of
// 0 that enqueues a fresh view of about `size` bytes per pull (as React's
// renderToReadableStream does), piped through the framework's
// TransformStreams (tags inserted before </head>, the closing
// </body></html> held back and enqueued by flush(), a byte counter) into
// the response's WritableStream. Every stream is new per response, so a
// response pays for its setup and V8 sees many instances of every
// closure, as in a server. `n` responses of `chunks` views,
// `concurrency` of them in flight at a time.
const common = require('../common.js');
const assert = require('assert');
const { ReadableStream, WritableStream } = require('node:stream/web');
const {
  pageBytes, viewBounds, headInsertion, suffixMover, byteCounter, expectedPieces, HEAD_TAGS,
} = require('./lib/ssr.js');

const bench = common.createBenchmark(main, {
  n: [1e4],
  chunks: [32],
  size: [2048],
  concurrency: [8],
});

async function main({ n, chunks, size, concurrency }) {
  const page = pageBytes(chunks * size);
  const bounds = viewBounds(page, size);
  const expected = expectedPieces(page, bounds);
  const expectedBytes = page.byteLength + HEAD_TAGS.byteLength;

  function renderBody() {
    let view = 0;
    return new ReadableStream({
      type: 'bytes',
      pull(controller) {
        if (view < bounds.length) {
          // A fresh view per chunk: enqueue() transfers its buffer.
          const [start, end] = bounds[view++];
          controller.enqueue(page.slice(start, end));
        } else {
          controller.close();
        }
      },
    }, { highWaterMark: 0 });
  }

  async function respond(id) {
    const counted = { bytes: 0 };
    let written = 0;
    const response = new WritableStream({
      write(chunk) {
        const want = expected[written];
        if (want === undefined || chunk.byteLength !== want.byteLength ||
            chunk[0] !== want[0] || chunk[chunk.byteLength - 1] !== want[want.byteLength - 1])
          throw new Error(`response ${id}, chunk ${written}: not the expected bytes`);
        written++;
      },
    });
    await renderBody()
      .pipeThrough(headInsertion())
      .pipeThrough(suffixMover())
      .pipeThrough(byteCounter(counted))
      .pipeTo(response);
    if (written !== expected.length || counted.bytes !== expectedBytes)
      throw new Error(`response ${id}: ${written} chunks, ${counted.bytes} bytes`);
  }

  let next = 0;
  async function worker() {
    while (next < n) await respond(next++);
  }

  bench.start();
  await Promise.all(Array.from({ length: Math.min(concurrency, n) }, worker));
  bench.end(n);
  assert.strictEqual(next, n);
}
