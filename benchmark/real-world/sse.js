'use strict';
// Real-world shape: a Server-Sent Events client, as a chat UI reads a
// streamed completion: UTF-8 bytes in `size`-byte pieces (the boundaries
// fall inside multi-byte characters) -> TextDecoderStream ->
// eventsource-parser's EventSourceParserStream -> a mapper TransformStream
// (JSON.parse of each event's data) -> a WritableStream sink. `n` events.
// Not one of Node's benchmarks: it needs the eventsource-parser package.
const common = require('../common.js');
const assert = require('assert');
const { ReadableStream } = require('node:stream/web');
const { sseChunks, ssePipeline, eventSink } = require('./lib/sse.js');

const bench = common.createBenchmark(main, {
  n: [3e5],
  size: [512],
});

async function main({ n, size }) {
  const chunks = sseChunks(n, size);
  let next = 0;
  const source = new ReadableStream({
    pull(controller) {
      if (next < chunks.length) controller.enqueue(chunks[next++]);
      else controller.close();
    },
  });
  const sink = eventSink();

  bench.start();
  await ssePipeline(source, sink.write);
  bench.end(n);
  sink.done(n);
  assert.strictEqual(next, chunks.length);
}
