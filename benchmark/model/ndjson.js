'use strict';
// real-world/ndjson.js (bytes -> TextDecoderStream -> textlinestream's
// TextLineStream -> a parser -> a projection -> a sink) against the floor
// the spec leaves that pipeline (lib/minimal-streams.js minimalChain, with
// the same decoding, the package's own line splitter and the same parser and
// projection as its links): one pull settlement per source chunk and one
// sink-write settlement per row, plus the application's own work.
const common = require('../common.js');
const assert = require('assert');
const { ReadableStream } = require('node:stream/web');
const { MinimalReadable, MinimalWriter, minimalChain } = require('./lib/minimal-streams.js');
const { decodeLink, packageLink } = require('./lib/links.js');
const { ndjsonChunks, parseLine, project, loadNdjsonPipeline, rowSink } = require('../real-world/lib/ndjson.js');

const bench = common.createBenchmark(main, {
  impl: ['webstreams', 'model'],
  n: [2e5],
  size: [1024],
});

async function main({ impl, n, size }) {
  const chunks = ndjsonChunks(n, size);
  let next = 0;
  const pull = (controller) => {
    if (next < chunks.length) controller.enqueue(chunks[next++]);
    else controller.close();
  };
  const counter = { parsed: 0 };
  const sink = rowSink();

  if (impl === 'model') {
    const splitLines = await packageLink(async () => (await import('textlinestream')).default);
    const source = new MinimalReadable(pull);
    const writer = new MinimalWriter(sink.write);
    bench.start();
    await minimalChain(source, [decodeLink(), splitLines, parseLine(counter), project], writer);
  } else {
    const pipeline = await loadNdjsonPipeline();
    bench.start();
    await pipeline(new ReadableStream({ pull }), counter, sink.write);
  }
  bench.end(n);
  assert.strictEqual(counter.parsed, n);
  sink.done(n);
  assert.strictEqual(next, chunks.length);
}
