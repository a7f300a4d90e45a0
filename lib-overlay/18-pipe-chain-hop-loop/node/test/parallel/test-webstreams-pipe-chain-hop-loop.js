'use strict';

// A chain of pipes through synchronous transforms runs its hops in one
// loop, from the last TransformStream to the first. Whatever a transform()
// in that loop does besides enqueue one chunk, at any position in the
// chain, the chunks, the outcome and the teardown are those of a pipe
// through the writable side: a second enqueue(), none, error(),
// terminate(), a throw, a returned promise, an abort of the pipe writing
// into it or of the pipe reading it, another TransformStream's
// controller, and another chain's pipe started from inside transform().

const common = require('../common');
const assert = require('assert');
const {
  ReadableStream,
  TransformStream,
  WritableStream,
} = require('stream/web');
const { setTimeout: delay } = require('timers/promises');

function source(n) {
  let i = 0;
  return new ReadableStream({
    pull(controller) {
      if (i < n) controller.enqueue(i++);
      else controller.close();
    },
  });
}

// Four transforms; the one at `at` (1 to 4) runs `act` at its tenth chunk
// and the others enqueue what they get. `act` gets the controllers and
// the signals of the pipes into each TransformStream (index 1 to 4) and
// of the pipe to the sink (index 5).
function run(at, act) {
  const controllers = [];
  const aborts = [];
  const signals = [];
  for (let k = 1; k <= 5; k++) {
    const ac = new AbortController();
    aborts[k] = (error) => ac.abort(error);
    signals[k] = ac.signal;
  }
  let readable = source(20);
  for (let k = 1; k <= 4; k++) {
    let n = 0;
    readable = readable.pipeThrough(new TransformStream({
      start(controller) { controllers[k] = controller; },
      transform: common.mustCallAtLeast((chunk, controller) => {
        if (k === at && ++n === 10) return act(chunk, controller, { controllers, aborts });
        assert.strictEqual(controller.desiredSize, 0);
        controller.enqueue(chunk);
      }),
    }), { signal: signals[k] });
  }
  const out = [];
  return readable.pipeTo(new WritableStream({
    write(chunk) { out.push(chunk); },
  }), { signal: signals[5] }).then(() => 'fulfilled', (error) => error.message)
    .then((outcome) => ({ out, outcome }));
}

const range = (from, to) => Array.from({ length: to - from }, (_, i) => from + i);
const all = range(0, 20);
const upTo9 = range(0, 9);
const upTo10 = range(0, 10);
const cases = [
  ['one enqueue', (c, ctl) => ctl.enqueue(c), all, 'fulfilled'],
  ['no enqueue', () => {}, [...upTo9, ...range(10, 20)], 'fulfilled'],
  ['two enqueues', common.mustCall((c, ctl) => {
    ctl.enqueue(c);
    assert.strictEqual(ctl.desiredSize, 0);
    ctl.enqueue(-c);
  }, 4), [...upTo10, -9, ...range(10, 20)], 'fulfilled'],
  ['error()', (c, ctl) => ctl.error(new Error('boom')), upTo9, 'boom'],
  ['enqueue() then error()', (c, ctl) => {
    ctl.enqueue(c);
    ctl.error(new Error('boom'));
  }, upTo10, 'boom'],
  ['terminate()', (c, ctl) => ctl.terminate(), upTo9, 'fulfilled'],
  ['enqueue() then terminate()', (c, ctl) => {
    ctl.enqueue(c);
    ctl.terminate();
  }, upTo10, 'fulfilled'],
  ['a throw', () => { throw new Error('boom'); }, upTo9, 'boom'],
  ['enqueue() then a promise', (c, ctl) => {
    ctl.enqueue(c);
    return delay(1);
  }, all, 'fulfilled'],
];
for (const [name, act, out, outcome] of cases) {
  for (let at = 1; at <= 4; at++) {
    run(at, act).then(common.mustCall((result) => {
      assert.strictEqual(result.outcome, outcome, `${name} at ${at}`);
      assert.deepStrictEqual(result.out, out, `${name} at ${at}`);
    }));
  }
}

// The last TransformStream's controller, called from an earlier one's
// transform(): its chunk reaches the sink once, before the chunk that
// transform() enqueues, and every other chunk in order.
for (let at = 1; at <= 4; at++) {
  run(at, (c, ctl, { controllers }) => {
    controllers[4].enqueue(-c);
    ctl.enqueue(c);
  }).then(common.mustCall(({ out, outcome }) => {
    assert.strictEqual(outcome, 'fulfilled');
    assert.deepStrictEqual(out.filter((chunk) => chunk !== -9), all, `at ${at}`);
    assert.ok(out.indexOf(-9) !== -1 && out.indexOf(-9) < out.indexOf(9), `at ${at}: ${out}`);
  }));
}

// The pipe writing into the TransformStream whose transform() runs, and
// the pipe reading it, aborted from inside it: the chunk transform() got
// was read by the first, so it is still written, and the chunk it
// enqueues reaches the sink; the second takes the chunk enqueued after
// its abort no further. The pipeline rejects with the abort's reason.
// (The last TransformStream is read by the sink's pipe, whose own hop
// patch 16 covers.)
for (const [name, index, to] of [['feeding', 0, 4], ['reading', 1, 3]]) {
  for (let at = 1; at <= to; at++) {
    for (const first of [false, true]) {
      run(at, (c, ctl, { aborts }) => {
        if (first) aborts[at + index](new Error('aborted'));
        ctl.enqueue(c);
        if (!first) aborts[at + index](new Error('aborted'));
      }).then(common.mustCall(({ out, outcome }) => {
        const label = `${name} pipe at ${at}${first ? ', before enqueue()' : ''}`;
        assert.strictEqual(outcome, 'aborted', label);
        assert.deepStrictEqual(out, name === 'reading' && first ? upTo9 : upTo10, label);
      }));
    }
  }
}

// Another chain's pipe, started from inside transform(), runs its own loop
// at once; both chains deliver every chunk.
{
  const held = source(5).pipeThrough(new TransformStream({
    transform(chunk, controller) { controller.enqueue(chunk * 10); },
  }));
  const other = [];
  let started = false;
  run(2, common.mustCall((c, ctl) => {
    held.pipeThrough(new TransformStream({
      transform(chunk, controller) { controller.enqueue(chunk + 1); },
    })).pipeTo(new WritableStream({ write(chunk) { other.push(chunk); } }))
      .then(common.mustCall(() => { assert.deepStrictEqual(other, [1, 11, 21, 31, 41]); }));
    started = true;
    ctl.enqueue(c);
  })).then(common.mustCall(({ out, outcome }) => {
    assert.ok(started);
    assert.strictEqual(outcome, 'fulfilled');
    assert.deepStrictEqual(out, all);
  }));
}
