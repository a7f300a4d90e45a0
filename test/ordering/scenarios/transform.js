// TransformStream transformers: start/transform/flush/cancel in each mode,
// no transformer, controller.terminate()/error(), backpressure between the
// two sides.
import { MODES } from '../harness.js';

const scenarios = {};

// Drives a transform stream from a writer and a reader at the same time.
function drive(t, ts, chunks = ['a', 'b']) {
  const writer = ts.writable.getWriter();
  const reader = ts.readable.getReader();
  t.track('writer.closed', writer.closed);
  t.track('reader.closed', reader.closed);
  chunks.forEach((c, i) => t.track(`write#${i + 1}`, writer.write(c)));
  t.track('close', writer.close());
  return t.drain(reader);
}

for (const mode of MODES) {
  scenarios[`transform-${mode}`] = (t) => drive(t, new TransformStream({
    transform: t.fn('transform', mode, (chunk, c) => c.enqueue(chunk.toUpperCase())),
  }));
  scenarios[`flush-${mode}`] = (t) => drive(t, new TransformStream({
    transform: t.fn('transform', 'sync', (chunk, c) => c.enqueue(chunk)),
    flush: t.fn('flush', mode, (c) => c.enqueue('flushed')),
  }));
  scenarios[`start-${mode}`] = (t) => drive(t, new TransformStream({
    start: t.fn('start', mode, (c) => c.enqueue('from start')),
    transform: t.fn('transform', 'sync', (chunk, c) => c.enqueue(chunk)),
  }));
  scenarios[`cancel-${mode}`] = async (t) => {
    const ts = new TransformStream({
      transform: t.fn('transform', 'sync', (chunk, c) => c.enqueue(chunk)),
      cancel: t.fn('cancel', mode),
    });
    const writer = ts.writable.getWriter();
    const reader = ts.readable.getReader();
    t.track('writer.closed', writer.closed);
    t.track('write', writer.write('x'));
    await t.ticks(1);
    t.track('reader.cancel', reader.cancel('no more'));
    t.track('write after cancel', writer.write('y'));
  };
}

Object.assign(scenarios, {
  'identity-no-transformer': (t) => drive(t, new TransformStream(), ['x', 'y', 'z']),
  'empty-transformer-object': (t) => drive(t, new TransformStream({}), [1, 2]),
  'writer-abort-calls-cancel': async (t) => {
    const ts = new TransformStream({ cancel: t.fn('cancel', 'async'), flush: t.fn('flush', 'sync') });
    const writer = ts.writable.getWriter();
    const reader = ts.readable.getReader();
    t.track('reader.closed', reader.closed);
    t.track('read', reader.read());
    t.track('abort', writer.abort('abort reason'));
  },
  'terminate-in-transform': (t) => drive(t, new TransformStream({
    transform: t.fn('transform', 'sync', (chunk, c) => { c.enqueue(chunk); c.terminate(); }),
    flush: t.fn('flush', 'sync'),
  }), ['a', 'b', 'c']),
  'error-in-transform': (t) => drive(t, new TransformStream({
    transform: t.fn('transform', 'sync', (chunk, c) => { c.enqueue(chunk); c.error(new Error('transform error')); }),
  })),
  // start() queues microtasks of its own: the sides' post-start steps
  // must keep their turns relative to them (the start promise's wrappers
  // are set up before start() runs).
  'start-queues-microtasks': (t) => drive(t, new TransformStream({
    start: t.fn('start', 'sync', () => {
      Promise.resolve()
        .then(() => t.log('start microtask 1'))
        .then(() => t.log('start microtask 2'))
        .then(() => t.log('start microtask 3'))
        .then(() => t.log('start microtask 4'));
    }),
    transform: t.fn('transform', 'sync', (chunk, c) => c.enqueue(chunk)),
  }), ['a']),
  'terminate-in-start': (t) => drive(t, new TransformStream({
    start: t.fn('start', 'sync', (c) => c.terminate()),
    transform: t.fn('transform', 'sync'),
  }), ['a']),
  'enqueue-many-backpressure': async (t) => {
    const ts = new TransformStream({
      transform: t.fn('transform', 'sync', (chunk, c) => {
        for (let i = 0; i < 3; i++) {
          c.enqueue(`${chunk}${i}`);
          t.log(`desiredSize ${c.desiredSize}`);
        }
      }),
    }, { highWaterMark: 1 }, { highWaterMark: 2 });
    const writer = ts.writable.getWriter();
    t.track('write#1', writer.write('a'));
    t.track('ready', writer.ready);
    t.track('write#2', writer.write('b'));
    await t.ticks(5);
    t.log(`writer desiredSize ${writer.desiredSize}`);
    await t.drain(ts.readable.getReader(), 'read', 6);
  },
  'readable-hwm-zero-write-waits-for-read': async (t) => {
    const ts = new TransformStream({ transform: t.fn('transform', 'sync', (c, ctl) => ctl.enqueue(c)) },
      { highWaterMark: 1 }, { highWaterMark: 0 });
    const writer = ts.writable.getWriter();
    t.track('write#1', writer.write(1));
    t.track('write#2', writer.write(2));
    await t.ticks(4);
    const reader = ts.readable.getReader();
    t.track('read#1', reader.read());
    await t.ticks(4);
    t.track('read#2', reader.read());
  },
  'readable-cancel-while-write-pending': async (t) => {
    const ts = new TransformStream({ transform: t.fn('transform', 'never'), cancel: t.fn('cancel', 'sync') });
    const writer = ts.writable.getWriter();
    t.track('write', writer.write('x'));
    t.track('writer.closed', writer.closed);
    await t.ticks(2);
    t.track('cancel', ts.readable.cancel('stop'));
  },
  'flush-throws-after-enqueue': (t) => drive(t, new TransformStream({
    flush: t.fn('flush', 'throw', (c) => c.enqueue('last')),
  }), ['a']),
  // terminate() in flush(), as TextDecoderStream's does, errors the
  // writable side while its close is in flight; ready is read afterwards.
  'flush-terminates-then-ready': async (t) => {
    const ts = new TransformStream({ flush: t.fn('flush', 'sync', (c) => c.terminate()) });
    const writer = ts.writable.getWriter();
    t.track('read', ts.readable.getReader().read());
    await t.track('close', writer.close());
    t.track('ready', writer.ready);
  },
  'transformer-validation': (t) => {
    t.op('readableType', () => new TransformStream({ readableType: 'bytes' }));
    t.op('writableType', () => new TransformStream({ writableType: 'bytes' }));
    t.op('transform not fn', () => new TransformStream({ transform: 1 }));
  },
});

export default scenarios;
