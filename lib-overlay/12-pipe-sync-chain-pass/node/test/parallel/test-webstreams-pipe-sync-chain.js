'use strict';

// Pipes write into TransformStreams whose transform() is synchronous
// straight through transform(), holding the one chunk the writable side
// would have queued: every chunk still arrives once and in order, each
// transform() sees the same desiredSize, the source is read as far ahead
// as before, and a chunk held when the source closes or errors is still
// written first.

const common = require('../common');
const assert = require('assert');
const {
  ReadableStream,
  TransformStream,
  WritableStream,
} = require('stream/web');

function countingSource(n, pulls = { count: 0 }) {
  let i = 0;
  return new ReadableStream({
    pull(controller) {
      pulls.count++;
      if (i < n) controller.enqueue(i++);
      else controller.close();
    },
  });
}

function mapping(f, seen = []) {
  return new TransformStream({
    transform(chunk, controller) {
      seen.push(controller.desiredSize);
      const out = f(chunk);
      if (out !== undefined) controller.enqueue(out);
    },
  });
}

function chain(readable, length, seen) {
  for (let i = 0; i < length; i++)
    readable = readable.pipeThrough(mapping((x) => x + 1, seen));
  return readable;
}

// Every chunk, in order, through chains of several lengths; every
// transform() sees a desiredSize of 0 (a pipe's read is waiting).
for (const length of [1, 3, 8]) {
  const out = [];
  const desiredSizes = [];
  chain(countingSource(1000), length, desiredSizes).pipeTo(new WritableStream({
    write(chunk) { out.push(chunk); },
    close: common.mustCall(() => {
      assert.deepStrictEqual(out, Array.from({ length: 1000 }, (_, i) => i + length));
      assert.strictEqual(desiredSizes.length, 1000 * length);
      assert.ok(desiredSizes.every((size) => size === 0));
    }),
  })).then(common.mustCall());
}

// A stalled sink: the source is read as far ahead as the writable sides'
// queues allow (the chunk in flight at the sink, one per TransformStream,
// and the one in the source's own queue), not further.
{
  const pulls = { count: 0 };
  const written = [];
  chain(countingSource(100, pulls), 2).pipeTo(new WritableStream({
    write(chunk) {
      written.push(chunk);
      return new Promise(() => {});
    },
  }));
  setTimeout(common.mustCall(() => {
    assert.deepStrictEqual(written, [2]);
    assert.strictEqual(pulls.count, 4);
  }), 10);
}

// Two chunks per chunk, and none for every other one, in order.
{
  const out = [];
  let n = 0;
  countingSource(100)
    .pipeThrough(new TransformStream({
      transform(chunk, controller) {
        controller.enqueue(chunk);
        controller.enqueue(-chunk);
      },
    }))
    .pipeThrough(mapping((x) => (n++ % 2 ? undefined : x)))
    .pipeTo(new WritableStream({ write(chunk) { out.push(chunk); } }))
    .then(common.mustCall(() => {
      assert.deepStrictEqual(out, Array.from({ length: 100 }, (_, i) => i));
    }));
}

// A transform() that returns a promise midway keeps its order.
{
  const out = [];
  countingSource(20)
    .pipeThrough(new TransformStream({
      transform(chunk, controller) {
        controller.enqueue(chunk);
        if (chunk === 5) return new Promise((resolve) => setTimeout(resolve, 1));
      },
    }))
    .pipeThrough(mapping((x) => x))
    .pipeTo(new WritableStream({ write(chunk) { out.push(chunk); } }))
    .then(common.mustCall(() => {
      assert.deepStrictEqual(out, Array.from({ length: 20 }, (_, i) => i));
    }));
}

// The last chunk of a byte source, read as the source closes, is written
// before the pipe closes its destination.
{
  let n = 0;
  const out = [];
  new ReadableStream({
    type: 'bytes',
    pull(controller) {
      controller.enqueue(new Uint8Array([++n]));
      controller.enqueue(new Uint8Array([++n]));
      if (n === 24) controller.close();
    },
  })
    .pipeThrough(new TransformStream({
      transform(chunk, controller) {
        controller.enqueue(chunk[0]);
        controller.enqueue(chunk[0]);
      },
    }))
    .pipeTo(new WritableStream({ write(chunk) { out.push(chunk); } }, { highWaterMark: 4 }))
    .then(common.mustCall(() => {
      assert.deepStrictEqual(out, Array.from({ length: 48 }, (_, i) => (i >> 1) + 1));
    }));
}

// A transform() that throws errors the chain both ways: the sink is
// aborted and the source canceled with its error, after the chunks before.
{
  const error = new Error('boom');
  const out = [];
  let canceled;
  let i = 0;
  const source = new ReadableStream({
    pull(controller) { controller.enqueue(i++); },
    cancel: common.mustCall((reason) => { canceled = reason; }),
  });
  assert.rejects(source
    .pipeThrough(mapping((x) => x))
    .pipeThrough(mapping((x) => { if (x === 3) throw error; return x; }))
    .pipeTo(new WritableStream({
      write(chunk) { out.push(chunk); },
      abort: common.mustCall((reason) => assert.strictEqual(reason, error)),
    })), (reason) => {
    assert.strictEqual(reason, error);
    assert.deepStrictEqual(out, [0, 1, 2]);
    setImmediate(common.mustCall(() => assert.strictEqual(canceled, error)));
    return true;
  }).then(common.mustCall());
}

// terminate() in the first transform closes the rest of the chain after
// the chunks it let through.
{
  const out = [];
  countingSource(100)
    .pipeThrough(new TransformStream({
      transform(chunk, controller) {
        controller.enqueue(chunk);
        if (chunk === 4) controller.terminate();
      },
    }))
    .pipeThrough(mapping((x) => x))
    .pipeTo(new WritableStream({ write(chunk) { out.push(chunk); } }))
    .then(common.mustCall(() => { assert.deepStrictEqual(out, [0, 1, 2, 3, 4]); }));
}

// A chain read by a reader at the end, and a source that errors after
// three chunks: the reader gets them, then the error.
(async () => {
  let i = 0;
  const error = new Error('source error');
  const reader = new ReadableStream({
    pull(controller) {
      if (i < 3) controller.enqueue(i++);
      else controller.error(error);
    },
  }).pipeThrough(mapping((x) => x)).pipeThrough(mapping((x) => x)).getReader();
  for (let k = 0; k < 3; k++)
    assert.deepStrictEqual(await reader.read(), { done: false, value: k });
  await assert.rejects(reader.read(), error);
})().then(common.mustCall());

// The signal of the pipe into the last transform is aborted from the
// first transform, right after it enqueued its tenth chunk: the pipe has
// read that chunk, so it writes it and waits for the write before it
// aborts, and the chunk reaches the sink like the nine before it.
{
  const controller = new AbortController();
  const reason = new Error('abort');
  const out = [];
  assert.rejects(countingSource(20)
    .pipeThrough(new TransformStream({
      transform(chunk, c) {
        c.enqueue(chunk);
        if (chunk === 9) controller.abort(reason);
      },
    }))
    .pipeThrough(mapping((x) => x), { signal: controller.signal })
    .pipeTo(new WritableStream({ write(chunk) { out.push(chunk); } })), (error) => {
    assert.strictEqual(error, reason);
    assert.deepStrictEqual(out, [0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    return true;
  }).then(common.mustCall());
}
