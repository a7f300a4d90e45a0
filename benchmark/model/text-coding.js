'use strict';
// webstreams/text-coding.js (bytes -> TextDecoderStream -> sink, text ->
// TextEncoderStream -> sink, from a pull source) against the floor the spec
// leaves such a pipe (lib/minimal-streams.js minimalChain with the same
// decode or encode step as its one transform): one pull settlement and one
// sink-write settlement per chunk, plus the coding itself. What the stream
// costs beyond that is all a change to web streams could remove.
const common = require('../common.js');
const assert = require('assert');
const {
  ReadableStream,
  TextDecoderStream,
  TextEncoderStream,
  WritableStream,
} = require('node:stream/web');
const { MinimalReadable, MinimalWriter, minimalChain } = require('./lib/minimal-streams.js');
const { decodeLink, encodeLink } = require('./lib/links.js');

const bench = common.createBenchmark(main, {
  impl: ['webstreams', 'model'],
  n: [3e5],
  kind: ['decode', 'encode'],
  size: [1024],
});

async function main({ impl, n, kind, size }) {
  // As in webstreams/text-coding.js: every decoded chunk splits a character.
  const text = 'aé'.repeat(size);
  const bytes = new TextEncoder().encode(text);
  const chunkSize = size - 1;
  const chunks = [];
  for (let at = 0; at + chunkSize <= bytes.length && chunks.length < 64; at += chunkSize)
    chunks.push(kind === 'decode' ? bytes.subarray(at, at + chunkSize) : text.slice(at, at + chunkSize));
  let produced = 0;
  const pull = (controller) => {
    if (produced < n) controller.enqueue(chunks[produced++ % chunks.length]);
    else controller.close();
  };
  let received = 0;
  let length = 0;
  const write = (chunk) => {
    received++;
    length += chunk.length;
  };

  if (impl === 'model') {
    const transform = kind === 'decode' ? decodeLink() : encodeLink();
    const source = new MinimalReadable(pull);
    const writer = new MinimalWriter(write, () => {});
    bench.start();
    await minimalChain(source, [transform], writer);
  } else {
    const source = new ReadableStream({ pull });
    const sink = new WritableStream({ write });
    bench.start();
    await source
      .pipeThrough(kind === 'decode' ? new TextDecoderStream() : new TextEncoderStream())
      .pipeTo(sink);
  }
  bench.end(n);
  let expected = 0;
  const decoder = new TextDecoder();
  for (let i = 0; i < n; i++) {
    const chunk = chunks[i % chunks.length];
    expected += kind === 'decode' ? decoder.decode(chunk, { stream: true }).length : Buffer.byteLength(chunk);
  }
  assert.strictEqual(length, expected);
  assert.ok(received >= n - 1 && received <= n);
}
