'use strict';

// A write into a WritableStream whose close is in flight rejects with a
// TypeError, as WritableStreamDefaultWriterWrite says, instead of throwing
// an internal assertion: the sink's close() has begun, so the controller's
// algorithms, the size algorithm among them, are already cleared while
// the stream is still writable (whatwg/streams#1218).

const common = require('../common');
const assert = require('assert');
const { WritableStream } = require('stream/web');

const closing = { code: 'ERR_INVALID_STATE', name: 'TypeError' };

// writer.write() must return a rejected promise, not throw: a throw rejects
// the case's async function, which common.mustCall() then reports.

// The stream closed by WritableStream.prototype.close(), then a writer.
(async () => {
  let finishClose;
  const stream = new WritableStream({
    close: common.mustCall(() => new Promise((resolve) => { finishClose = resolve; })),
  });
  const closed = stream.close();
  const writer = stream.getWriter();
  await new Promise((resolve) => setImmediate(resolve));
  await assert.rejects(writer.write('a'), closing);
  finishClose();
  await closed;
  await writer.closed;
})().then(common.mustCall());

// A write from inside the sink's close(), after it has awaited.
(async () => {
  let writer;
  let rejected;
  const stream = new WritableStream({
    close: common.mustCall(async () => {
      await new Promise((resolve) => setImmediate(resolve));
      rejected = assert.rejects(writer.write('b'), closing);
    }),
  });
  writer = stream.getWriter();
  await writer.close();
  await rejected;
})().then(common.mustCall());

// The same with a size() strategy, which the in-flight close has cleared too.
(async () => {
  let finishClose;
  const stream = new WritableStream({
    close: common.mustCall(() => new Promise((resolve) => { finishClose = resolve; })),
  }, { highWaterMark: 4, size: common.mustNotCall('size() after the close began') });
  const writer = stream.getWriter();
  const closed = writer.close();
  await new Promise((resolve) => setImmediate(resolve));
  await assert.rejects(writer.write('c'), closing);
  finishClose();
  await closed;
})().then(common.mustCall());
