'use strict';
// Real-world shapes of byte streams ({ type: 'bytes' }), 1 KiB chunks:
// - start-enqueue: the controller kept from start(c) and fed from outside
//   (React Flight / server components), bursts of 16 chunks, then a read loop;
// - pull: a pull-only byte source drained by a default reader;
// - byob: a BYOB reader reusing one buffer, the source filling byobRequest.
const common = require('../common.js');
const assert = require('assert');
const { ReadableStream } = require('node:stream/web');

const bench = common.createBenchmark(main, {
  n: [5e5],
  kind: ['start-enqueue', 'pull', 'byob'],
  size: [1024],
});

const BURST = 16;

// Byte streams take ownership of enqueued buffers, so every chunk is new;
// its first byte and (from 2 bytes on) its last byte identify it.
function mark(view, size, i) {
  view[0] = i & 0xff;
  if (size > 1) view[size - 1] = (i >> 8) & 0xff;
}

function makeChunk(size, i) {
  const chunk = new Uint8Array(size);
  mark(chunk, size, i);
  return chunk;
}

function check(value, size, i) {
  if (value.byteLength !== size || value[0] !== (i & 0xff) ||
      (size > 1 && value[size - 1] !== ((i >> 8) & 0xff))) {
    throw new Error(`read ${i}: wrong chunk`);
  }
}

async function startEnqueue(n, size) {
  let controller;
  const reader = new ReadableStream({
    type: 'bytes',
    start(c) {
      controller = c;
    },
  }).getReader();
  let produced = 0;
  let reads = 0;
  while (reads < n) {
    const burst = Math.min(BURST, n - produced);
    for (let i = 0; i < burst; i++) controller.enqueue(makeChunk(size, produced++));
    if (produced === n) controller.close();
    for (let i = 0; i < burst; i++) {
      const { value } = await reader.read();
      check(value, size, reads++);
    }
  }
  assert.ok((await reader.read()).done);
  return reads;
}

async function pull(n, size) {
  let produced = 0;
  const reader = new ReadableStream({
    type: 'bytes',
    pull(controller) {
      if (produced < n) controller.enqueue(makeChunk(size, produced++));
      else controller.close();
    },
  }).getReader();
  let reads = 0;
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    check(value, size, reads++);
  }
  return reads;
}

async function byob(n, size) {
  let produced = 0;
  const reader = new ReadableStream({
    type: 'bytes',
    pull(controller) {
      if (produced === n) {
        controller.close();
        controller.byobRequest?.respond(0);
        return;
      }
      mark(controller.byobRequest.view, size, produced++);
      controller.byobRequest.respond(size);
    },
  }).getReader({ mode: 'byob' });
  let buffer = new ArrayBuffer(size);
  let reads = 0;
  for (;;) {
    const { value, done } = await reader.read(new Uint8Array(buffer));
    if (done) break;
    check(value, size, reads++);
    buffer = value.buffer;
  }
  return reads;
}

const kinds = { 'start-enqueue': startEnqueue, pull, byob };

async function main({ n, kind, size }) {
  const run = kinds[kind];
  assert.ok(run, `unknown kind ${kind}`);
  bench.start();
  const reads = await run(n, size);
  bench.end(n);
  assert.strictEqual(reads, n);
}
