'use strict';

// A pipe reading a TransformStream's readable side resumes the pipe that
// holds a chunk for it directly, without the readable side's pull: every
// chunk still arrives once and in order, each transform() sees the same
// desiredSize, the source is pulled once per chunk and never further ahead
// than before, and a readable side that queues chunks (a high water mark
// above 0) keeps its pull.

const common = require('../common');
const assert = require('assert');
const {
  ReadableStream,
  TransformStream,
  WritableStream,
} = require('stream/web');
const { setTimeout: delay } = require('timers/promises');

function countingSource(n, pulls) {
  let i = 0;
  return new ReadableStream({
    pull(controller) {
      pulls.count++;
      if (i < n) controller.enqueue(i++);
      else controller.close();
    },
  });
}

function chain(readable, length, { desiredSizes = [], readableHighWaterMark } = {}) {
  for (let i = 0; i < length; i++) {
    readable = readable.pipeThrough(new TransformStream({
      transform(chunk, controller) {
        desiredSizes.push(controller.desiredSize);
        controller.enqueue(chunk + 1);
      },
    }, undefined, readableHighWaterMark === undefined ? undefined : { highWaterMark: readableHighWaterMark }));
  }
  return readable;
}

// Every chunk once and in order, one pull per chunk (and one for close),
// every transform() at desiredSize 0.
for (const length of [1, 3, 8]) {
  const pulls = { count: 0 };
  const desiredSizes = [];
  const out = [];
  chain(countingSource(1000, pulls), length, { desiredSizes }).pipeTo(new WritableStream({
    write(chunk) { out.push(chunk); },
  })).then(common.mustCall(() => {
    assert.deepStrictEqual(out, Array.from({ length: 1000 }, (_, i) => i + length));
    assert.strictEqual(pulls.count, 1001);
    assert.strictEqual(desiredSizes.length, 1000 * length);
    assert.ok(desiredSizes.every((size) => size === 0));
  }));
}

// A sink that completes one write at a time: whenever the pipeline has
// come to rest with the m-th write in flight, the source has been pulled
// m + length + 1 times (the chunk in flight, one held per TransformStream,
// one in the source's queue), as without the direct resumption.
for (const length of [1, 2, 3, 8]) {
  const pulls = { count: 0 };
  const pending = [];
  const written = [];
  chain(countingSource(100, pulls), length).pipeTo(new WritableStream({
    write(chunk) {
      written.push(chunk);
      return new Promise((resolve) => pending.push(resolve));
    },
  }));
  (async () => {
    for (let m = 1; m <= 10; m++) {
      await delay(5);
      assert.deepStrictEqual(written, Array.from({ length: m }, (_, i) => i + length));
      assert.strictEqual(pulls.count, m + length + 1, `length ${length}, write ${m}`);
      pending.shift()();
    }
  })().then(common.mustCall());
}

// Readable sides that queue chunks (high water mark 1 and 4) are pulled
// as before; the chain still delivers every chunk in order.
for (const readableHighWaterMark of [1, 4]) {
  const pulls = { count: 0 };
  const out = [];
  chain(countingSource(200, pulls), 3, { readableHighWaterMark }).pipeTo(new WritableStream({
    async write(chunk) {
      out.push(chunk);
      await null;
    },
  })).then(common.mustCall(() => {
    assert.deepStrictEqual(out, Array.from({ length: 200 }, (_, i) => i + 3));
    assert.strictEqual(pulls.count, 201);
  }));
}
