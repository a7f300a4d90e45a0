'use strict';
// A whole short-lived stream per operation: create, move four 1 KiB chunks,
// close. Measures set-up and tear-down as much as the per-chunk path.
const common = require('../common.js');
const assert = require('assert');
const { ReadableStream, WritableStream, TransformStream } = require('node:stream/web');

const bench = common.createBenchmark(main, {
  n: [1e5],
  kind: ['readable', 'async-iterator', 'pipe-to', 'pipe-through'],
});

const chunk = Buffer.alloc(1024);
const CHUNKS = 4;

function makeSource() {
  let i = 0;
  return {
    pull(controller) {
      if (i++ < CHUNKS) controller.enqueue(chunk);
      else controller.close();
    },
  };
}

async function readable(n) {
  let chunks = 0;
  for (let i = 0; i < n; i++) {
    const reader = new ReadableStream(makeSource()).getReader();
    while (!(await reader.read()).done) chunks++;
  }
  return chunks;
}

async function asyncIterator(n) {
  let chunks = 0;
  for (let i = 0; i < n; i++) {
    for await (const c of new ReadableStream(makeSource())) {
      if (c === chunk) chunks++;
    }
  }
  return chunks;
}

async function pipeTo(n) {
  let chunks = 0;
  for (let i = 0; i < n; i++) {
    await new ReadableStream(makeSource()).pipeTo(new WritableStream({
      write(c) {
        if (c === chunk) chunks++;
      },
    }));
  }
  return chunks;
}

async function pipeThrough(n) {
  let chunks = 0;
  for (let i = 0; i < n; i++) {
    const reader = new ReadableStream(makeSource()).pipeThrough(new TransformStream()).getReader();
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      if (value === chunk) chunks++;
    }
  }
  return chunks;
}

const kinds = { 'readable': readable, 'async-iterator': asyncIterator, 'pipe-to': pipeTo, 'pipe-through': pipeThrough };

async function main({ n, kind }) {
  const run = kinds[kind];
  assert.ok(run, `unknown kind ${kind}`);
  bench.start();
  const chunks = await run(n);
  bench.end(n);
  assert.strictEqual(chunks, n * CHUNKS);
}
