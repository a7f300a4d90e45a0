'use strict';

// A WritableStream that starts erroring while its close is in flight
// (writer.abort(), controller.error(), a TransformStream terminated by its
// flush()) still closes, and its writer's ready promise stays rejected with
// the error, as WritableStreamStartErroring left it, however late the
// writer reads it.

const common = require('../common');
const assert = require('assert');
const {
  TextDecoderStream,
  TransformStream,
  WritableStream,
} = require('stream/web');

// A sink whose close() settles only when the test says so.
function slowClose() {
  let controller;
  let finishClose;
  const stream = new WritableStream({
    start(c) {
      controller = c;
    },
    close: common.mustCall(() => new Promise((resolve) => {
      finishClose = resolve;
    })),
  });
  return { stream, controller: () => controller, finishClose: () => finishClose() };
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

// writer.abort() while the close is in flight; ready is first read after
// the close has completed.
(async () => {
  const sink = slowClose();
  const writer = sink.stream.getWriter();
  await tick();
  const closed = writer.close();
  const reason = new Error('abort reason');
  const aborted = writer.abort(reason);
  await tick();
  sink.finishClose();
  await closed;
  await aborted;
  await writer.closed;
  await assert.rejects(writer.ready, (err) => err === reason);
})().then(common.mustCall());

// controller.error() while the close is in flight.
(async () => {
  const sink = slowClose();
  const writer = sink.stream.getWriter();
  await tick();
  const closed = writer.close();
  await tick();
  const error = new Error('sink error');
  sink.controller().error(error);
  sink.finishClose();
  await closed;
  await assert.rejects(writer.ready, (err) => err === error);
})().then(common.mustCall());

// A writer acquired while the stream errors gets a ready promise rejected
// with the stored error, which the completed close does not settle anew;
// a writer acquired after the close gets a fulfilled one.
(async () => {
  const sink = slowClose();
  const first = sink.stream.getWriter();
  await tick();
  const closed = first.close();
  const reason = new Error('abort reason');
  const aborted = first.abort(reason);
  first.releaseLock();
  const second = sink.stream.getWriter();
  sink.finishClose();
  await closed;
  await aborted;
  await assert.rejects(second.ready, (err) => err === reason);
  second.releaseLock();
  await sink.stream.getWriter().ready;
})().then(common.mustCall());

// A TransformStream whose flush() calls controller.terminate(), as
// TextDecoderStream's does: the writable side starts erroring during its
// close.
const flush = common.mustCall((controller) => controller.terminate());
for (const makeTransform of [
  () => new TransformStream({ flush }),
  () => new TextDecoderStream(),
]) {
  (async () => {
    const transform = makeTransform();
    const writer = transform.writable.getWriter();
    const reading = transform.readable.getReader().read();
    await writer.close();
    assert.deepStrictEqual(await reading, { value: undefined, done: true });
    await assert.rejects(writer.ready, { code: 'ERR_INVALID_STATE', name: 'TypeError' });
  })().then(common.mustCall());
}
