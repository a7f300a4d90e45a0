'use strict';
// reader.read() in a loop on a pull source that enqueues one small chunk per
// pull: the per-read cost of the default and the BYOB reader.
const common = require('../common.js');
const assert = require('assert');
const { ReadableStream } = require('node:stream/web');

const bench = common.createBenchmark(main, {
  n: [3e5],
  type: ['normal', 'byob'],
});

async function readNormal(n) {
  let produced = 0;
  const reader = new ReadableStream({
    pull(controller) {
      controller.enqueue(produced++);
    },
  }).getReader();
  bench.start();
  for (let i = 0; i < n; i++) {
    const { value } = await reader.read();
    if (value !== i) throw new Error(`read ${i}: got chunk ${value}`);
  }
  bench.end(n);
}

async function readByob(n) {
  let produced = 0;
  const reader = new ReadableStream({
    type: 'bytes',
    pull(controller) {
      const chunk = new Uint8Array(1);
      chunk[0] = produced++ & 0xff;
      controller.enqueue(chunk);
    },
  }).getReader({ mode: 'byob' });
  bench.start();
  for (let i = 0; i < n; i++) {
    const { value } = await reader.read(new Uint8Array(1));
    if (value.byteLength !== 1 || value[0] !== (i & 0xff)) throw new Error(`read ${i}: wrong bytes`);
  }
  bench.end(n);
}

// A BYOB read allocates a fresh buffer per read and costs about ten times a
// default read; the default reader runs 10 * n reads so both take similar time.
function main({ n, type }) {
  switch (type) {
    case 'normal': return readNormal(10 * n);
    case 'byob': return readByob(n);
    default: assert.fail(`unknown type ${type}`);
  }
}
