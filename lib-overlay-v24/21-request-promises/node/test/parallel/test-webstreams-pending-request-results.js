'use strict';

// The promises of reads that wait for a chunk, of writes, and of
// writer.ready under backpressure settle with the same values, in the
// same shape, however the requests hold their resolving functions. A read
// result has `value` before `done`, as this release line has always
// built it.

const common = require('../common');
const assert = require('assert');
const { ReadableStream, WritableStream } = require('stream/web');

function assertResult(result, value, done) {
  assert.deepStrictEqual(Object.keys(result), ['value', 'done']);
  assert.strictEqual(result.done, done);
  if (ArrayBuffer.isView(value)) {
    const { buffer, byteOffset, byteLength } = result.value;
    assert.deepStrictEqual(new Uint8Array(buffer, byteOffset, byteLength), value);
  } else {
    assert.strictEqual(result.value, value);
  }
}

(async () => {
  // Default reader: the read waits, then gets a chunk, then the close.
  let controller;
  const stream = new ReadableStream({ start(c) { controller = c; } });
  const reader = stream.getReader();
  const first = reader.read();
  const second = reader.read();
  controller.enqueue('a');
  controller.close();
  assertResult(await first, 'a', false);
  assertResult(await second, undefined, true);

  // Default reader: a waiting read rejects with the stream's error.
  let erroring;
  const errored = new ReadableStream({ start(c) { erroring = c; } });
  const pending = errored.getReader().read();
  const error = new Error('boom');
  erroring.error(error);
  await assert.rejects(pending, (e) => e === error);

  // BYOB reader: a waiting read gets the filled view, a read after close
  // gets an empty view of its buffer and done.
  let byteController;
  const bytes = new ReadableStream({
    type: 'bytes',
    start(c) { byteController = c; },
  });
  const byob = bytes.getReader({ mode: 'byob' });
  const filled = byob.read(new Uint8Array(4));
  byteController.enqueue(new Uint8Array([1, 2, 3, 4]));
  assertResult(await filled, new Uint8Array([1, 2, 3, 4]), false);
  const closing = byob.read(new Uint8Array(4));
  byteController.close();
  byteController.byobRequest.respond(0);
  const closed = await closing;
  assertResult(closed, new Uint8Array(0), true);
  assert.strictEqual(closed.value.buffer.byteLength, 4);

  // Writer: write() settles after the sink's write, ready waits while
  // backpressure holds and settles once it lifts, and a write into an
  // erroring stream rejects with the sink's error.
  let release;
  const writes = [];
  const sinkError = new Error('sink');
  const writable = new WritableStream({
    write(chunk) {
      writes.push(chunk);
      if (chunk === 'x') return new Promise((resolve) => { release = resolve; });
      if (chunk === 'fail') throw sinkError;
    },
  });
  const writer = writable.getWriter();
  const wrote = writer.write('x');
  const ready = writer.ready;
  let readySettled = false;
  ready.then(common.mustCall(() => { readySettled = true; }));
  await new Promise(setImmediate);
  assert.strictEqual(readySettled, false);
  release();
  assert.strictEqual(await wrote, undefined);
  assert.strictEqual(await ready, undefined);
  const failing = writer.write('fail');
  await assert.rejects(failing, (e) => e === sinkError);
  assert.deepStrictEqual(writes, ['x', 'fail']);
})().then(common.mustCall());
