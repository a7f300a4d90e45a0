'use strict';

// pipeTo() and tee() watch the streams they lock through their reader's
// and writer's closed state. Each way that state can settle must still
// reach the pipe or the tee: a source that closes or errors, a
// destination that errors, before or after the pipe starts, a reader the
// byte tee swaps out, and a tee whose branches are canceled only after
// its source has settled.

const common = require('../common');
const assert = require('assert');
const { ReadableStream, WritableStream } = require('stream/web');

process.on('unhandledRejection', common.mustNotCall());

function sourceOf(chunks, { errorWith, close = true, type } = {}) {
  let controller;
  const stream = new ReadableStream({
    type,
    start(c) {
      controller = c;
      for (const chunk of chunks) c.enqueue(chunk);
      if (errorWith !== undefined) c.error(errorWith);
      else if (close) c.close();
    },
  });
  return { stream, controller: () => controller };
}

function recordingSink({ writeError } = {}) {
  const log = [];
  const stream = new WritableStream({
    write(chunk) {
      log.push(['write', chunk]);
      if (writeError !== undefined) throw writeError;
    },
    close() { log.push(['close']); },
    abort(reason) { log.push(['abort', reason]); },
  });
  return { stream, log };
}

const tests = [];
const test = (name, fn) => tests.push([name, fn]);

test('source closes after the pipe starts', async () => {
  const { stream, controller } = sourceOf([], { close: false });
  const sink = recordingSink();
  const piped = stream.pipeTo(sink.stream);
  controller().enqueue('a');
  controller().close();
  await piped;
  assert.deepStrictEqual(sink.log, [['write', 'a'], ['close']]);
  assert.strictEqual(stream.locked, false);
  assert.strictEqual(sink.stream.locked, false);
});

test('source already closed', async () => {
  const { stream } = sourceOf(['a']);
  const sink = recordingSink();
  await stream.pipeTo(sink.stream);
  assert.deepStrictEqual(sink.log, [['write', 'a'], ['close']]);
});

test('source errors after the pipe starts', async () => {
  const error = new Error('source');
  const { stream, controller } = sourceOf([], { close: false });
  const sink = recordingSink();
  const piped = stream.pipeTo(sink.stream);
  controller().error(error);
  await assert.rejects(piped, error);
  assert.deepStrictEqual(sink.log, [['abort', error]]);
  assert.strictEqual(stream.locked, false);
  assert.strictEqual(sink.stream.locked, false);
});

test('source already errored, preventAbort', async () => {
  const error = new Error('source');
  const { stream } = sourceOf([], { errorWith: error });
  const sink = recordingSink();
  await assert.rejects(stream.pipeTo(sink.stream, { preventAbort: true }), error);
  assert.deepStrictEqual(sink.log, []);
  assert.strictEqual(sink.stream.locked, false);
});

test('destination errors', async () => {
  const error = new Error('sink');
  let canceled;
  const stream = new ReadableStream({
    pull(c) { c.enqueue('a'); },
    cancel(reason) { canceled = reason; },
  });
  const sink = recordingSink({ writeError: error });
  await assert.rejects(stream.pipeTo(sink.stream), error);
  assert.strictEqual(canceled, error);
  assert.strictEqual(stream.locked, false);
});

test('destination errors, preventCancel: the source stays readable', async () => {
  const error = new Error('sink');
  const { stream } = sourceOf(['a', 'b'], { close: false });
  const sink = recordingSink({ writeError: error });
  await assert.rejects(stream.pipeTo(sink.stream, { preventCancel: true }), error);
  assert.strictEqual(stream.locked, false);
  // The pipe released its reader: a new one reads on.
  const reader = stream.getReader();
  assert.deepStrictEqual(await reader.read(), { value: 'b', done: false });
});

test('destination already errored', async () => {
  const error = new Error('sink');
  const sink = new WritableStream({ start(c) { c.error(error); } });
  await new Promise((resolve) => setImmediate(resolve));
  let canceled;
  const stream = new ReadableStream({ cancel(reason) { canceled = reason; } });
  await assert.rejects(stream.pipeTo(sink), error);
  assert.strictEqual(canceled, error);
});

test('tee: the source errors', async () => {
  const error = new Error('source');
  const { stream, controller } = sourceOf([], { close: false });
  const [a, b] = stream.tee();
  const reads = [a.getReader().read(), b.getReader().read()];
  controller().error(error);
  await assert.rejects(reads[0], error);
  await assert.rejects(reads[1], error);
});

test('tee: both branches canceled after the source closed', async () => {
  const { stream } = sourceOf(['a']);
  const [a, b] = stream.tee();
  const reader = a.getReader();
  assert.deepStrictEqual(await reader.read(), { value: 'a', done: false });
  assert.deepStrictEqual(await reader.read(), { value: undefined, done: true });
  // Canceling a closed branch resolves at once; the other branch's cancel
  // takes the tee's settled cancel promise.
  await reader.cancel();
  assert.strictEqual(await b.cancel('why'), undefined);
});

test('tee: both branches canceled while the source is readable', async () => {
  let canceled;
  const stream = new ReadableStream({ cancel(reason) { canceled = reason; } });
  const [a, b] = stream.tee();
  const first = a.cancel('one');
  await b.cancel('two');
  await first;
  assert.deepStrictEqual(canceled, ['one', 'two']);
});

test('byte tee: the source errors after a branch swapped readers', async () => {
  const error = new Error('source');
  const { stream, controller } = sourceOf([], { close: false, type: 'bytes' });
  const [a, b] = stream.tee();
  const byob = a.getReader({ mode: 'byob' });
  const read = byob.read(new Uint8Array(4));
  controller().enqueue(new Uint8Array([1, 2]));
  const { value } = await read;
  assert.deepStrictEqual([...value], [1, 2]);
  const next = byob.read(new Uint8Array(4));
  const other = b.getReader();
  assert.deepStrictEqual([...(await other.read()).value], [1, 2]);
  controller().error(error);
  await assert.rejects(next, error);
  await assert.rejects(other.read(), error);
});

test('byte tee: both branches canceled after the source closed', async () => {
  const { stream } = sourceOf([], { type: 'bytes' });
  const [a, b] = stream.tee();
  assert.strictEqual((await a.getReader().read()).done, true);
  assert.strictEqual(await b.cancel('why'), undefined);
});

(async () => {
  for (const [name, fn] of tests) {
    await fn().catch((error) => {
      error.message = `${name}: ${error.message}`;
      throw error;
    });
  }
})().then(common.mustCall());
