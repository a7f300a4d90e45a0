'use strict';

// A pipe reads nothing from its source while the destination is erroring
// (its desiredSize is null): the chunks stay in the source, for a later
// reader when preventCancel is set, and a pull source is not pulled for them.

const common = require('../common');
const assert = require('assert');
const {
  ReadableStream,
  WritableStream,
} = require('stream/web');

async function readAll(readable) {
  const chunks = [];
  for await (const chunk of readable) chunks.push(chunk);
  return chunks;
}

// A sink that errors its controller in its first write, which stays in
// flight: the stream is erroring until the write settles.
(async () => {
  const source = new ReadableStream({
    start(controller) {
      for (let i = 1; i <= 5; i++) controller.enqueue(i);
      controller.close();
    },
  });
  const written = [];
  const sink = new WritableStream({
    write: common.mustCall((chunk, controller) => {
      written.push(chunk);
      controller.error(new Error('sink error'));
      return new Promise((resolve) => setTimeout(resolve, 10));
    }),
  }, { highWaterMark: 10 });
  // Both streams have started: the pipe's first write reaches the sink at
  // once, the rest would wait in its queue.
  await new Promise((resolve) => setTimeout(resolve, 1));
  await assert.rejects(source.pipeTo(sink, { preventCancel: true }),
                       { message: 'sink error' });
  assert.deepStrictEqual(written, [1]);
  assert.deepStrictEqual(await readAll(source), [2, 3, 4, 5]);
})().then(common.mustCall());

// A pull source piped into a sink that errors its controller in its third
// write: the source is pulled for no chunk after that, and the data the
// pipe did not read stays in it, in order.
(async () => {
  let errored = false;
  let pulledAfterError = 0;
  let next = 1;
  const source = new ReadableStream({
    pull(controller) {
      if (errored) pulledAfterError++;
      controller.enqueue(next++);
      if (next > 20) controller.close();
    },
  }, { highWaterMark: 0 });
  const written = [];
  const sink = new WritableStream({
    write(chunk, controller) {
      written.push(chunk);
      if (chunk !== 3) return;
      errored = true;
      controller.error(new Error('sink error'));
      return new Promise((resolve) => setTimeout(resolve, 10));
    },
  }, { highWaterMark: 10 });
  await new Promise((resolve) => setTimeout(resolve, 1));
  await assert.rejects(source.pipeTo(sink, { preventCancel: true }),
                       { message: 'sink error' });
  assert.deepStrictEqual(written, [1, 2, 3]);
  assert.strictEqual(pulledAfterError, 0);
  const rest = await readAll(source);
  assert.deepStrictEqual(rest, Array.from({ length: 21 - rest[0] }, (_, i) => rest[0] + i));
})().then(common.mustCall());
