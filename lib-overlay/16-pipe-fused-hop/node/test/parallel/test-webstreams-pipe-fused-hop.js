'use strict';

// A pipe reading a TransformStream's readable side, in a chain at rest,
// runs the hop into it itself: every chunk still arrives once and in
// order, each transform() sees the same desiredSize before and after its
// enqueue(), the source is pulled as far ahead as before, and a
// transform() that does anything but enqueue one chunk ends its pipeline
// as through the writable side.

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

// The middle one of three transforms does `act` at its tenth chunk; the
// others enqueue what they get.
function chain(source, act) {
  let readable = source;
  for (const k of [1, 2, 3]) {
    let n = 0;
    readable = readable.pipeThrough(new TransformStream({
      transform: common.mustCallAtLeast((chunk, controller) => {
        if (k === 2 && ++n === 10) return act(chunk, controller);
        assert.strictEqual(controller.desiredSize, 0);
        controller.enqueue(chunk);
        assert.strictEqual(controller.desiredSize, 0);
      }),
    }));
  }
  return readable;
}

function run(act) {
  const pulls = { count: 0 };
  const out = [];
  return chain(countingSource(20, pulls), act).pipeTo(new WritableStream({
    write(chunk) { out.push(chunk); },
  })).then(() => 'fulfilled', (error) => error.message).then((outcome) => ({ out, outcome, pulls: pulls.count }));
}

const range = (from, to) => Array.from({ length: to - from }, (_, i) => from + i);
const all = range(0, 20);
const upTo9 = range(0, 9);
const upTo10 = range(0, 10);
const cases = [
  ['one enqueue', (c, ctl) => ctl.enqueue(c), all, 'fulfilled', 21],
  ['no enqueue', () => {}, [...upTo9, ...range(10, 20)], 'fulfilled', 21],
  ['two enqueues', common.mustCall((c, ctl) => {
    ctl.enqueue(c);
    assert.strictEqual(ctl.desiredSize, 0);
    ctl.enqueue(-c);
    assert.strictEqual(ctl.desiredSize, -1);
  }), [...upTo10, -9, ...range(10, 20)], 'fulfilled', 21],
  ['error()', (c, ctl) => ctl.error(new Error('boom')), upTo9, 'boom', 12],
  ['enqueue() then error()', (c, ctl) => {
    ctl.enqueue(c);
    ctl.error(new Error('boom'));
  }, upTo10, 'boom', 12],
  ['terminate()', (c, ctl) => ctl.terminate(), upTo9, 'fulfilled', 12],
  ['enqueue() then terminate()', (c, ctl) => {
    ctl.enqueue(c);
    ctl.terminate();
  }, upTo10, 'fulfilled', 12],
  ['a throw', () => { throw new Error('boom'); }, upTo9, 'boom', 12],
  ['enqueue() then a throw', (c, ctl) => {
    ctl.enqueue(c);
    throw new Error('boom');
  }, upTo10, 'boom', 12],
  ['enqueue() then a promise', (c, ctl) => {
    ctl.enqueue(c);
    return delay(1);
  }, all, 'fulfilled', 21],
];
for (const [name, act, out, outcome, pulls] of cases) {
  run(act).then(common.mustCall((result) => {
    assert.deepStrictEqual(result, { out, outcome, pulls }, name);
  }));
}

// A sink that completes one write at a time: whenever the pipeline has
// come to rest with the m-th write in flight, the source has been pulled
// m + 4 times (the chunk in flight, one held per TransformStream, one in
// the source's queue).
{
  const pulls = { count: 0 };
  const pending = [];
  const written = [];
  chain(countingSource(100, pulls), (c, ctl) => ctl.enqueue(c)).pipeTo(new WritableStream({
    write(chunk) {
      written.push(chunk);
      return new Promise((resolve) => pending.push(resolve));
    },
  }));
  (async () => {
    for (let m = 1; m <= 12; m++) {
      await delay(5);
      assert.deepStrictEqual(written, range(0, m));
      assert.strictEqual(pulls.count, m + 4, `write ${m}`);
      pending.shift()();
    }
  })().then(common.mustCall());
}
