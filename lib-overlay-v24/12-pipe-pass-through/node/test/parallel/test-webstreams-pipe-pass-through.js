'use strict';

// Pipes hand chunks past idle pass-through TransformStreams: every chunk
// still arrives once and in order, backpressure still holds, and close,
// errors and cancellation still travel the whole chain.

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

function chain(readable, length) {
  for (let i = 0; i < length; i++)
    readable = readable.pipeThrough(new TransformStream());
  return readable;
}

// Every chunk, in order, through chains of several lengths, then close.
for (const length of [1, 3, 8]) {
  const seen = [];
  chain(countingSource(1000), length).pipeTo(new WritableStream({
    write(chunk) { seen.push(chunk); },
    close: common.mustCall(() => {
      assert.deepStrictEqual(seen, Array.from({ length: 1000 }, (_, i) => i));
    }),
  })).then(common.mustCall());
}

// A pass-through chain read by a reader at the end.
(async () => {
  const reader = chain(countingSource(100), 2).getReader();
  for (let i = 0; i < 100; i++)
    assert.deepStrictEqual(await reader.read(), { done: false, value: i });
  assert.deepStrictEqual(await reader.read(), { done: true, value: undefined });
})().then(common.mustCall());

// A user transform between pass-throughs keeps its order and sees every chunk.
{
  const transformed = [];
  const out = [];
  chain(countingSource(50), 2)
    .pipeThrough(new TransformStream({
      transform(chunk, controller) {
        transformed.push(chunk);
        controller.enqueue(chunk * 2);
      },
    }))
    .pipeThrough(new TransformStream())
    .pipeTo(new WritableStream({ write(chunk) { out.push(chunk); } }))
    .then(common.mustCall(() => {
      assert.deepStrictEqual(transformed, Array.from({ length: 50 }, (_, i) => i));
      assert.deepStrictEqual(out, Array.from({ length: 50 }, (_, i) => i * 2));
    }));
}

// A slow sink holds the source back: pulls stay bounded by the buffers in
// between (each TransformStream holds at most one chunk on its writable
// side), not by the length of the source.
{
  const pulls = { count: 0 };
  const release = [];
  const done = chain(countingSource(1e6, pulls), 3).pipeTo(new WritableStream({
    write() { return new Promise((resolve) => release.push(resolve)); },
  }));
  setTimeout(common.mustCall(() => {
    assert.ok(pulls.count < 20, `source pulled ${pulls.count} times with a stalled sink`);
    assert.strictEqual(release.length, 1);
    done.catch(() => {});
  }), 20);
}

// A sink error cancels the source with the same reason, across the chain.
{
  const reason = new Error('sink failed');
  let i = 0;
  const source = new ReadableStream({
    pull(controller) { controller.enqueue(i++); },
    cancel: common.mustCall((r) => assert.strictEqual(r, reason)),
  });
  assert.rejects(chain(source, 3).pipeTo(new WritableStream({
    write(chunk) { if (chunk === 10) throw reason; },
  })), (error) => {
    assert.strictEqual(error, reason);
    return true;
  }).then(common.mustCall());
}

// Cancelling the reader at the end reaches the source and every
// transformer's cancel().
{
  const reason = new Error('enough');
  const source = new ReadableStream({
    pull(controller) { controller.enqueue('x'); },
    cancel: common.mustCall((r) => assert.strictEqual(r, reason)),
  });
  const readable = source
    .pipeThrough(new TransformStream({ cancel: common.mustCall() }))
    .pipeThrough(new TransformStream({ cancel: common.mustCall() }));
  const reader = readable.getReader();
  reader.read().then(() => reader.cancel(reason)).then(common.mustCall());
}
