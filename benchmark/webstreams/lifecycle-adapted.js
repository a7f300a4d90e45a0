'use strict';
// A whole short-lived stream per operation, made by Node rather than by
// the caller: Readable.toWeb() of a stream.Readable, or a ReadableStream
// transferred through structuredClone(). Four 1 KiB chunks each, read to
// the end.
const common = require('../common.js');
const assert = require('assert');
const { Readable } = require('node:stream');
const { ReadableStream } = require('node:stream/web');

const bench = common.createBenchmark(main, {
  n: [2e4],
  kind: ['readable-to-web', 'transferred'],
});

const chunk = Buffer.alloc(1024);
const CHUNKS = 4;

function toWeb() {
  const readable = new Readable({ read() {} });
  for (let i = 0; i < CHUNKS; i++) readable.push(chunk);
  readable.push(null);
  return Readable.toWeb(readable);
}

function transferred() {
  let i = 0;
  const stream = new ReadableStream({
    pull(controller) {
      if (i++ < CHUNKS) controller.enqueue(chunk);
      else controller.close();
    },
  });
  return structuredClone(stream, { transfer: [stream] });
}

const kinds = { 'readable-to-web': toWeb, 'transferred': transferred };

async function main({ n, kind }) {
  const make = kinds[kind];
  assert.ok(make, `unknown kind ${kind}`);
  let bytes = 0;
  bench.start();
  for (let i = 0; i < n; i++) {
    const reader = make().getReader();
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      bytes += value.byteLength;
    }
  }
  bench.end(n);
  assert.strictEqual(bytes, n * CHUNKS * chunk.length);
}
