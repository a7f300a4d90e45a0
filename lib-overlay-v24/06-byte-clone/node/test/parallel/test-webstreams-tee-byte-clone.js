'use strict';

// A byte stream's tee gives its second branch a copy of every chunk, made
// as the spec's CloneAsUint8Array does: a new %ArrayBuffer%, without
// asking the chunk's buffer for its species constructor.

const common = require('../common');
const assert = require('assert');
const { ReadableStream } = require('stream/web');

async function readAll(stream) {
  const chunks = [];
  for await (const chunk of stream) chunks.push(chunk);
  return chunks;
}

(async () => {
  const source = new ArrayBuffer(64);
  new Uint8Array(source).forEach((_, i, bytes) => { bytes[i] = i; });
  const stream = new ReadableStream({
    type: 'bytes',
    start(controller) {
      controller.enqueue(new Uint8Array(source.slice(0), 8, 4));
      controller.enqueue(new Uint8Array(source.slice(0), 60, 4));
      controller.enqueue(new DataView(source.slice(0), 1, 3));
      controller.close();
    },
  });

  const descriptor = Object.getOwnPropertyDescriptor(ArrayBuffer.prototype, 'constructor');
  let lookups = 0;
  Object.defineProperty(ArrayBuffer.prototype, 'constructor', {
    __proto__: null,
    configurable: true,
    get() { lookups++; return ArrayBuffer; },
  });
  let chunks1, chunks2;
  try {
    const [branch1, branch2] = stream.tee();
    [chunks1, chunks2] = await Promise.all([readAll(branch1), readAll(branch2)]);
  } finally {
    Object.defineProperty(ArrayBuffer.prototype, 'constructor', descriptor);
  }
  assert.strictEqual(lookups, 0);

  const expected = [[8, 9, 10, 11], [60, 61, 62, 63], [1, 2, 3]];
  assert.deepStrictEqual(chunks1.map((c) => [...c]), expected);
  assert.deepStrictEqual(chunks2.map((c) => [...c]), expected);
  for (let i = 0; i < expected.length; i++) {
    const clone = chunks2[i];
    assert.ok(clone instanceof Uint8Array);
    assert.notStrictEqual(clone.buffer, chunks1[i].buffer);
    assert.strictEqual(clone.byteOffset, 0);
    assert.strictEqual(clone.buffer.byteLength, expected[i].length);
  }

  // The copies do not share bytes with what the first branch got.
  chunks1[0][0] = 99;
  assert.strictEqual(chunks2[0][0], 8);
})().then(common.mustCall());
