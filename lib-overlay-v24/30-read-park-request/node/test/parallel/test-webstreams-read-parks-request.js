'use strict';

// A default reader's read() on a readable stream with an empty queue parks
// its request: the stream becomes disturbed, pull() is called only once the
// source has started (and not while a call is in flight), the request is
// fulfilled by the next enqueue(), in order, and a parked read ends with the
// stream's close or error.

const common = require('../common');
const assert = require('assert');
const { isDisturbed } = require('stream');
const { ReadableStream } = require('stream/web');

const tick = () => new Promise((resolve) => setImmediate(resolve));

// Reads parked before start() settles: no pull() until it does, then one.
(async () => {
  const started = Promise.withResolvers();
  let pulls = 0;
  let controller;
  const stream = new ReadableStream({
    start(c) {
      controller = c;
      return started.promise;
    },
    pull() {
      pulls++;
    },
  }, { highWaterMark: 0 });
  const reader = stream.getReader();
  assert.strictEqual(isDisturbed(stream), false);
  const first = reader.read();
  assert.strictEqual(isDisturbed(stream), true);
  const second = reader.read();
  await tick();
  assert.strictEqual(pulls, 0);
  started.resolve();
  await tick();
  assert.strictEqual(pulls, 1);
  controller.enqueue('a');
  controller.enqueue('b');
  assert.deepStrictEqual(await first, { value: 'a', done: false });
  assert.deepStrictEqual(await second, { value: 'b', done: false });
})().then(common.mustCall());

// After start, each read() on an empty queue calls pull() synchronously,
// and the chunk pull() enqueues fulfils that read.
(async () => {
  let pulls = 0;
  const stream = new ReadableStream({
    pull(c) {
      pulls++;
      c.enqueue(pulls);
    },
  }, { highWaterMark: 0 });
  await tick();
  const reader = stream.getReader();
  for (let i = 1; i <= 3; i++) {
    const read = reader.read();
    assert.strictEqual(pulls, i);
    assert.deepStrictEqual(await read, { value: i, done: false });
  }
})().then(common.mustCall());

// A read() parked behind another still calls pull() once the earlier call
// has settled without a chunk.
(async () => {
  let pulls = 0;
  let controller;
  const stream = new ReadableStream({
    start(c) {
      controller = c;
    },
    pull() {
      pulls++;
    },
  }, { highWaterMark: 0 });
  await tick();
  const reader = stream.getReader();
  const first = reader.read();
  await tick();
  assert.strictEqual(pulls, 1);
  const second = reader.read();
  assert.strictEqual(pulls, 2);
  controller.enqueue('a');
  controller.enqueue('b');
  assert.deepStrictEqual(await first, { value: 'a', done: false });
  assert.deepStrictEqual(await second, { value: 'b', done: false });
})().then(common.mustCall());

// A started stream without pull() and a read() parked on it.
async function parkedRead() {
  let controller;
  const stream = new ReadableStream({
    start(c) {
      controller = c;
    },
  });
  await tick();
  const reader = stream.getReader();
  return { controller, reader, read: reader.read() };
}

// A parked read ends with close(), the next with done.
(async () => {
  const { controller, reader, read } = await parkedRead();
  controller.close();
  assert.deepStrictEqual(await read, { value: undefined, done: true });
  assert.deepStrictEqual(await reader.read(), { value: undefined, done: true });
})().then(common.mustCall());

// A parked read rejects with the stream's error, and so does the next.
(async () => {
  const { controller, reader, read } = await parkedRead();
  const error = new Error('boom');
  controller.error(error);
  await assert.rejects(read, error);
  await assert.rejects(reader.read(), error);
})().then(common.mustCall());

// A parked read rejects when the reader is released.
(async () => {
  const stream = new ReadableStream();
  const reader = stream.getReader();
  const read = reader.read();
  reader.releaseLock();
  await assert.rejects(read, { name: 'TypeError' });
})().then(common.mustCall());
