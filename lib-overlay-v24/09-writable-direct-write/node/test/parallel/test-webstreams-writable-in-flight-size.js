'use strict';

// While a write is in flight its chunk's size still counts against the
// high water mark (desiredSize, backpressure), until the sink's write
// settles; close() and later writes queue behind it; the sizes leave
// [[queueTotalSize]] in the order and with the arithmetic of the spec's
// DequeueValue (no rounding to zero, no reset when the queue empties).

const common = require('../common');
const assert = require('assert');
const { WritableStream } = require('stream/web');

function deferred() {
  let resolve;
  let reject;
  const promise = new Promise((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

// A sink whose writes settle when the test says so, recording the
// writer's desiredSize as each write starts.
function manualSink() {
  const log = [];
  const pending = [];
  let writer;
  const sink = {
    write(chunk) {
      log.push(`write ${chunk} desiredSize=${writer.desiredSize}`);
      const d = deferred();
      pending.push(d);
      return d.promise;
    },
    close() {
      log.push(`close desiredSize=${writer.desiredSize}`);
    },
  };
  return {
    log,
    pending,
    sink,
    setWriter(w) { writer = w; },
    settle() {
      pending.shift().resolve();
      // Let the write's reaction and the next write start.
      return new Promise((resolve) => setImmediate(resolve));
    },
  };
}

// A started stream over a manual sink, and its writer.
async function open(strategy) {
  const s = manualSink();
  const writer = new WritableStream(s.sink, strategy).getWriter();
  s.setWriter(writer);
  await writer.ready;
  return { s, writer };
}

const size = (chunk) => chunk.length;

(async () => {
  // The first write goes in flight; its size counts until it settles.
  const { s, writer } = await open({ highWaterMark: 10, size });
  const first = writer.write('abc');
  assert.strictEqual(writer.desiredSize, 7);
  const second = writer.write('defgh');
  assert.strictEqual(writer.desiredSize, 2);
  const closed = writer.close();
  assert.strictEqual(writer.desiredSize, 2);
  await s.settle();
  await first;
  assert.strictEqual(writer.desiredSize, 5);
  await s.settle();
  await second;
  await closed;
  assert.deepStrictEqual(s.log, [
    'write abc desiredSize=7',
    'write defgh desiredSize=5',
    'close desiredSize=10',
  ]);
  assert.strictEqual(writer.desiredSize, 0);
})().then(common.mustCall());

(async () => {
  // Backpressure turns on with the in-flight chunk and off when it settles.
  const { s, writer } = await open({ highWaterMark: 3, size });
  const ready = writer.ready;
  writer.write('xyz');
  assert.strictEqual(writer.desiredSize, 0);
  assert.notStrictEqual(writer.ready, ready);
  let readyResolved = false;
  writer.ready.then(common.mustCall(() => { readyResolved = true; }));
  await new Promise((resolve) => setImmediate(resolve));
  assert.strictEqual(readyResolved, false);
  await s.settle();
  assert.strictEqual(readyResolved, true);
  assert.strictEqual(writer.desiredSize, 3);
})().then(common.mustCall());

(async () => {
  // Fractional sizes leave the total as the spec's subtractions leave it.
  const { s, writer } = await open({ highWaterMark: 1, size: (chunk) => chunk });
  writer.write(0.1);
  writer.write(0.2);
  const total = 0.1 + 0.2;
  assert.strictEqual(writer.desiredSize, 1 - total);
  await s.settle();
  assert.strictEqual(writer.desiredSize, 1 - (total - 0.1));
  await s.settle();
  assert.strictEqual(writer.desiredSize, 1 - Math.max(0, (total - 0.1) - 0.2));
})().then(common.mustCall());

(async () => {
  // An abort while the write is in flight waits for it, then resets.
  const { s, writer } = await open({ highWaterMark: 4, size });
  const write = writer.write('ab');
  const queued = writer.write('cd');
  const aborted = writer.abort(new Error('stop'));
  assert.strictEqual(writer.desiredSize, null);
  s.pending.shift().resolve();
  await write;
  await assert.rejects(queued, { message: 'stop' });
  await aborted;
  await assert.rejects(writer.closed, { message: 'stop' });
  assert.deepStrictEqual(s.log, ['write ab desiredSize=2']);
})().then(common.mustCall());

(async () => {
  // A rejected in-flight write errors the stream; later writes reject.
  const { s, writer } = await open({ highWaterMark: 4, size });
  const write = writer.write('ab');
  const queued = writer.write('cd');
  s.pending.shift().reject(new Error('sink failed'));
  await assert.rejects(write, { message: 'sink failed' });
  await assert.rejects(queued, { message: 'sink failed' });
  assert.strictEqual(writer.desiredSize, null);
  await assert.rejects(writer.write('ef'), { message: 'sink failed' });
  assert.deepStrictEqual(s.log, ['write ab desiredSize=2']);
})().then(common.mustCall());
