'use strict';

// While a ReadableStream's pull() is in flight, the steps that may make the
// stream want another chunk (enqueue(), read()) ask for a further call; once
// the call settles, pull() runs again only if the stream still wants a chunk
// then (a parked read, or a queue below the high water mark). Each case
// counts the calls to pull() before and after the in-flight call settles.

const common = require('../common');
const assert = require('assert');
const { ReadableStream } = require('stream/web');

const tick = () => new Promise((resolve) => setImmediate(resolve));

// A pull source whose every pull() call stays pending until settle().
function pendingPulls(highWaterMark, onPull = () => {}, size = undefined) {
  const calls = [];
  let controller;
  const stream = new ReadableStream({
    start(c) {
      controller = c;
    },
    pull(c) {
      const { promise, resolve } = Promise.withResolvers();
      calls.push(resolve);
      onPull(c, calls.length);
      return promise;
    },
  }, { highWaterMark, size });
  return {
    stream,
    controller: () => controller,
    pulls: () => calls.length,
    // Settles the latest call and waits until its reactions have run.
    settle: () => {
      calls[calls.length - 1]();
      return tick();
    },
  };
}

// A second read() parks while the first read's pull is in flight: pull()
// runs again once the first call settles, not before.
(async () => {
  const source = pendingPulls(0);
  await tick();
  const reader = source.stream.getReader();
  const first = reader.read();
  assert.strictEqual(source.pulls(), 1);
  const second = reader.read();
  await tick();
  assert.strictEqual(source.pulls(), 1);
  await source.settle();
  assert.strictEqual(source.pulls(), 2);
  source.controller().enqueue('a');
  source.controller().enqueue('b');
  assert.deepStrictEqual(await first, { value: 'a', done: false });
  assert.deepStrictEqual(await second, { value: 'b', done: false });
})().then(common.mustCall());

// enqueue() inside pull() fills the queue to the high water mark: the
// stream wants nothing more, so pull() does not run again.
(async () => {
  const source = pendingPulls(1, (c) => c.enqueue('a'));
  await tick();
  assert.strictEqual(source.pulls(), 1);
  await source.settle();
  assert.strictEqual(source.pulls(), 1);
  assert.strictEqual(source.controller().desiredSize, 0);
})().then(common.mustCall());

// enqueue() inside pull() leaves the queue below the high water mark:
// pull() runs again once the call settles, until the queue is full. With
// and without a size() of the source's own.
for (const size of [undefined, common.mustCall(() => 1, 2)]) {
  (async () => {
    const source = pendingPulls(2, (c) => c.enqueue('a'), size);
    await tick();
    assert.strictEqual(source.pulls(), 1);
    await source.settle();
    assert.strictEqual(source.pulls(), 2);
    await source.settle();
    assert.strictEqual(source.pulls(), 2);
    assert.strictEqual(source.controller().desiredSize, 0);
  })().then(common.mustCall());
}

// enqueue() inside pull() fulfils a parked read and leaves the queue below
// the high water mark of 1: pull() runs again once the call settles.
(async () => {
  const source = pendingPulls(1, (c, n) => {
    if (n === 1) c.enqueue('a');
  });
  const reader = source.stream.getReader();
  const first = reader.read();
  await tick();
  assert.strictEqual(source.pulls(), 1);
  assert.deepStrictEqual(await first, { value: 'a', done: false });
  await source.settle();
  assert.strictEqual(source.pulls(), 2);
})().then(common.mustCall());

// enqueue() inside pull() fulfils a parked read: with a high water mark of 0
// and no further read, pull() does not run again; the next read() calls it.
(async () => {
  const source = pendingPulls(0, (c) => c.enqueue('a'));
  await tick();
  const reader = source.stream.getReader();
  assert.deepStrictEqual(await reader.read(), { value: 'a', done: false });
  assert.strictEqual(source.pulls(), 1);
  await source.settle();
  assert.strictEqual(source.pulls(), 1);
  const next = reader.read();
  assert.strictEqual(source.pulls(), 2);
  assert.deepStrictEqual(await next, { value: 'a', done: false });
})().then(common.mustCall());

// A read() that dequeues while pull() is in flight frees room below the
// high water mark: pull() runs again once the first call settles.
(async () => {
  const source = pendingPulls(1, (c, n) => {
    if (n === 1) c.enqueue('a');
  });
  await tick();
  const reader = source.stream.getReader();
  assert.deepStrictEqual(await reader.read(), { value: 'a', done: false });
  assert.strictEqual(source.pulls(), 1);
  await source.settle();
  assert.strictEqual(source.pulls(), 2);
})().then(common.mustCall());

// close(), error() or cancel() while pull() is in flight, after a read has
// parked twice: pull() does not run again.
for (const end of [
  (source) => source.controller().close(),
  (source) => source.controller().error(new Error('boom')),
  (source, reader) => reader.cancel('reason'),
]) {
  (async () => {
    const source = pendingPulls(0);
    await tick();
    const reader = source.stream.getReader();
    const reads = [reader.read(), reader.read()];
    assert.strictEqual(source.pulls(), 1);
    end(source, reader);
    await Promise.allSettled(reads);
    await source.settle();
    assert.strictEqual(source.pulls(), 1);
  })().then(common.mustCall());
}

// releaseLock() while pull() is in flight rejects the parked reads, so the
// stream no longer wants a chunk (high water mark 0): pull() does not run
// again, although a second read() had asked for it during the call.
(async () => {
  const source = pendingPulls(0);
  await tick();
  const reader = source.stream.getReader();
  const reads = [reader.read(), reader.read()];
  assert.strictEqual(source.pulls(), 1);
  reader.releaseLock();
  const results = await Promise.allSettled(reads);
  assert.deepStrictEqual(results.map((r) => r.status), ['rejected', 'rejected']);
  await source.settle();
  assert.strictEqual(source.pulls(), 1);
  // A new reader's read() asks again.
  const next = source.stream.getReader().read();
  assert.strictEqual(source.pulls(), 2);
  source.controller().enqueue('b');
  assert.deepStrictEqual(await next, { value: 'b', done: false });
})().then(common.mustCall());
