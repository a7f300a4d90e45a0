'use strict';
// Real-world shape: bytes.pipeThrough(new TextDecoderStream()).pipeTo(sink)
// (a fetch body read as text) and text.pipeThrough(new TextEncoderStream())
// .pipeTo(sink), from a pull source of `size`-byte chunks. Decoded chunks
// split a multi-byte character every time, so the decoder carries bytes over.
const common = require('../common.js');
const assert = require('assert');
const {
  ReadableStream,
  TextDecoderStream,
  TextEncoderStream,
  WritableStream,
} = require('node:stream/web');

const bench = common.createBenchmark(main, {
  n: [1e5],
  kind: ['decode', 'encode'],
  size: [1024],
});

async function main({ n, kind, size }) {
  // 'é' is two bytes: an odd chunk size splits one at every chunk boundary.
  const text = 'aé'.repeat(size);
  const bytes = new TextEncoder().encode(text);
  const chunkSize = size - 1;
  const chunks = [];
  for (let at = 0; at + chunkSize <= bytes.length && chunks.length < 64; at += chunkSize)
    chunks.push(kind === 'decode' ? bytes.subarray(at, at + chunkSize) : text.slice(at, at + chunkSize));
  let produced = 0;
  const source = new ReadableStream({
    pull(controller) {
      if (produced < n) controller.enqueue(chunks[produced++ % chunks.length]);
      else controller.close();
    },
  });
  let received = 0;
  let length = 0;
  const sink = new WritableStream({
    write(chunk) {
      received++;
      length += chunk.length;
    },
  });

  bench.start();
  await source
    .pipeThrough(kind === 'decode' ? new TextDecoderStream() : new TextEncoderStream())
    .pipeTo(sink);
  bench.end(n);
  // The same bytes or text through TextDecoder/TextEncoder directly.
  let expected = 0;
  const decoder = new TextDecoder();
  for (let i = 0; i < n; i++) {
    const chunk = chunks[i % chunks.length];
    expected += kind === 'decode' ? decoder.decode(chunk, { stream: true }).length : Buffer.byteLength(chunk);
  }
  assert.strictEqual(length, expected);
  assert.ok(received >= n - 1 && received <= n);
}
