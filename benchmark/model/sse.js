'use strict';
// real-world/sse.js (bytes -> TextDecoderStream -> eventsource-parser's
// EventSourceParserStream -> a mapper -> a sink) against the floor the spec
// leaves that pipeline (lib/minimal-streams.js minimalChain, with the same
// decoding, the package's own parser and the same mapper as its links): one
// pull settlement per source chunk and one sink-write settlement per event,
// plus the application's own work. What the streams cost beyond that is all
// a change to web streams could remove from this pipeline.
const common = require('../common.js');
const assert = require('assert');
const { ReadableStream } = require('node:stream/web');
const { MinimalReadable, MinimalWriter, minimalChain } = require('./lib/minimal-streams.js');
const { decodeLink, packageLink } = require('./lib/links.js');
const { sseChunks, mapEvent, ssePipeline, eventSink } = require('../real-world/lib/sse.js');

const bench = common.createBenchmark(main, {
  impl: ['webstreams', 'model'],
  n: [3e5],
  size: [512],
});

async function main({ impl, n, size }) {
  const chunks = sseChunks(n, size);
  let next = 0;
  const pull = (controller) => {
    if (next < chunks.length) controller.enqueue(chunks[next++]);
    else controller.close();
  };
  const sink = eventSink();

  if (impl === 'model') {
    const parse = await packageLink(() => require('eventsource-parser/stream').EventSourceParserStream);
    const source = new MinimalReadable(pull);
    const writer = new MinimalWriter(sink.write);
    bench.start();
    await minimalChain(source, [decodeLink(), parse, mapEvent], writer);
  } else {
    bench.start();
    await ssePipeline(new ReadableStream({ pull }), sink.write);
  }
  bench.end(n);
  sink.done(n);
  assert.strictEqual(next, chunks.length);
}
