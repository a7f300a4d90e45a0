'use strict';
// Real-world shape: an NDJSON (JSON Lines) consumer, as a client reads a
// log export or a streamed API result: UTF-8 bytes in `size`-byte pieces
// (lines and characters split across them) -> TextDecoderStream ->
// textlinestream's TextLineStream (Deno std's line splitter) -> a parser
// TransformStream (JSON.parse per line) -> a mapper TransformStream (a
// filter and a projection) -> a WritableStream sink. `n` records.
// Not one of Node's benchmarks: it needs the textlinestream package.
const common = require('../common.js');
const assert = require('assert');
const { ReadableStream } = require('node:stream/web');
const { ndjsonChunks, loadNdjsonPipeline, rowSink } = require('./lib/ndjson.js');

const bench = common.createBenchmark(main, {
  n: [2e5],
  size: [1024],
});

async function main({ n, size }) {
  const pipeline = await loadNdjsonPipeline();
  const chunks = ndjsonChunks(n, size);
  let next = 0;
  const source = new ReadableStream({
    pull(controller) {
      if (next < chunks.length) controller.enqueue(chunks[next++]);
      else controller.close();
    },
  });
  const counter = { parsed: 0 };
  const sink = rowSink();

  bench.start();
  await pipeline(source, counter, sink.write);
  bench.end(n);
  assert.strictEqual(counter.parsed, n);
  sink.done(n);
}
