'use strict';

// A pipe shutting down waits until every chunk it has read has been
// written, including one whose read completed just before the shutdown
// began and whose write the pipe has not started yet.

const common = require('../common');
const assert = require('assert');
const { setImmediate: tick } = require('timers/promises');
const {
  ReadableStream,
  WritableStream,
} = require('stream/web');

// The source closes (preventClose) or errors (preventAbort) right after
// enqueue() fulfils the pipe's pending read: the sink's write of that
// chunk, which stays in flight, holds the pipe and both locks until it
// settles.
async function closingRightAfterARead(end, options) {
  let controller;
  const source = new ReadableStream({
    start(c) { controller = c; },
  });
  const written = [];
  let finishWrite;
  const sink = new WritableStream({
    write: common.mustCall((chunk) => {
      written.push(chunk);
      return new Promise((resolve) => { finishWrite = resolve; });
    }),
  });
  let settled = false;
  const piped = source.pipeTo(sink, options).finally(() => { settled = true; });
  // Both streams start, and the pipe parks a read on the empty source.
  await tick();
  controller.enqueue('a');
  end(controller);
  await tick();
  assert.deepStrictEqual(written, ['a']);
  assert.strictEqual(settled, false);
  assert.strictEqual(source.locked, true);
  assert.strictEqual(sink.locked, true);
  finishWrite();
  return piped.then(() => {
    assert.strictEqual(source.locked, false);
    assert.strictEqual(sink.locked, false);
  }, (error) => {
    assert.strictEqual(sink.locked, false);
    throw error;
  });
}

(async () => {
  await closingRightAfterARead((c) => c.close(), { preventClose: true });
  const ac = new AbortController();
  await assert.rejects(
    closingRightAfterARead(() => ac.abort(),
                           { signal: ac.signal, preventAbort: true, preventCancel: true }),
    { name: 'AbortError' });
  const error = new Error('source error');
  await assert.rejects(
    closingRightAfterARead((c) => c.error(error), { preventAbort: true }),
    error);
})().then(common.mustCall());

// The destination errors and a read completes in the same turn: the pipe
// shuts down without waiting (its destination is no longer writable) and
// releases the writer, and the chunk the read received is dropped rather
// than written through the released writer.
(async () => {
  process.on('unhandledRejection', common.mustNotCall('unhandled rejection'));
  let source;
  let sink;
  const readable = new ReadableStream({ start(c) { source = c; } });
  const writable = new WritableStream({
    start(c) { sink = c; },
    write: common.mustNotCall('write after the destination errored'),
  });
  const error = new Error('sink error');
  const piped = readable.pipeTo(writable, { preventCancel: true });
  await tick();
  sink.error(error);
  source.enqueue('x');
  await assert.rejects(piped, error);
  await tick();
  assert.strictEqual(readable.locked, false);
})().then(common.mustCall());
