'use strict';

// When pipeTo() shuts down while a write is pending, it waits for the
// write to settle and then takes its shutdown action and finalizes with
// the shutdown's own error, whether that write succeeded or failed
// (ReadableStreamPipeTo's "shutdown with an action" and "shutdown").

const common = require('../common');
const assert = require('assert');
const { ReadableStream, WritableStream } = require('stream/web');

async function pipeWithFailingWrite({ options = {}, shutDown }) {
  const events = [];
  let controller;
  const source = new ReadableStream({
    start(c) {
      controller = c;
      c.enqueue('a');
    },
    cancel(reason) { events.push(`source cancel: ${reason.message}`); },
  });
  const { promise: writing, resolve: onWrite } = Promise.withResolvers();
  const dest = new WritableStream({
    write(chunk) {
      events.push(`write ${chunk}`);
      onWrite();
      return new Promise((resolve, reject) => {
        setImmediate(() => reject(new Error('write fails')));
      });
    },
    abort(reason) { events.push(`sink abort: ${reason.message}`); },
    close() { events.push('sink close'); },
  });
  const piped = source.pipeTo(dest, options).then(
    () => 'fulfilled', (error) => `rejected: ${error.message}`);
  await writing;
  shutDown(controller);
  events.push(`pipe ${await piped}`);
  return events;
}

(async () => {
  const ac = new AbortController();
  assert.deepStrictEqual(await pipeWithFailingWrite({
    options: { signal: ac.signal },
    shutDown: () => ac.abort(new Error('aborted')),
  }), ['write a', 'source cancel: aborted', 'pipe rejected: aborted']);

  for (const preventAbort of [false, true]) {
    assert.deepStrictEqual(await pipeWithFailingWrite({
      options: { preventAbort },
      shutDown: (c) => c.error(new Error('source error')),
    }), ['write a', 'pipe rejected: source error']);
  }

  // Closing the destination reports the failed write.
  assert.deepStrictEqual(await pipeWithFailingWrite({
    shutDown: (c) => c.close(),
  }), ['write a', 'pipe rejected: write fails']);

  // With preventClose there is nothing left to do once the write settled.
  assert.deepStrictEqual(await pipeWithFailingWrite({
    options: { preventClose: true },
    shutDown: (c) => c.close(),
  }), ['write a', 'pipe fulfilled']);
})().then(common.mustCall());
