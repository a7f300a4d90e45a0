// Default (non-byte) underlying sources: every callback in every mode, and
// the shapes without callbacks.
import { MODES } from '../harness.js';

const scenarios = {};

// start() in each mode; it enqueues two chunks first. Reads are issued
// before start settles, so the order of start's settlement, the first pull
// and the read fulfilments is what the log pins.
for (const mode of MODES) {
  scenarios[`start-${mode}`] = (t) => {
    const rs = new ReadableStream({
      start: t.fn('start', mode, (c) => { c.enqueue('a'); c.enqueue('b'); }),
      pull: t.fn('pull', 'sync'),
    });
    const reader = rs.getReader();
    t.track('closed', reader.closed);
    t.track('read#1', reader.read());
    t.track('read#2', reader.read());
    t.track('read#3', reader.read());
  };
}

// pull() in each mode, enqueuing one chunk per call, read by a loop.
for (const mode of MODES) {
  scenarios[`pull-${mode}`] = async (t) => {
    let n = 0;
    const rs = new ReadableStream({
      pull: t.fn('pull', mode, (c) => {
        c.enqueue(++n);
        if (n === 3) c.close();
      }),
    });
    await t.drain(rs.getReader(), 'read', 5);
  };
}

// cancel() in each mode, with a chunk queued and a read pending on a
// second stream state.
for (const mode of MODES) {
  scenarios[`cancel-${mode}`] = async (t) => {
    const rs = new ReadableStream({
      start: t.fn('start', 'sync', (c) => c.enqueue('queued')),
      pull: t.fn('pull', 'sync'),
      cancel: t.fn('cancel', mode),
    });
    const reader = rs.getReader();
    t.track('closed', reader.closed);
    await t.ticks(2);
    t.track('read#1', reader.read());
    t.track('read#2', reader.read());
    t.op('cancel', () => reader.cancel('reason'));
    t.track('read#3', reader.read());
  };
}

// An underlying source whose members are getters: the order the
// constructor reads them in, and which invalid member it reports.
function loggedSource(t, members) {
  const source = {};
  for (const [key, value] of Object.entries(members)) {
    Object.defineProperty(source, key, {
      get() { t.log(`source.${key} read`); return value; },
      enumerable: true,
    });
  }
  return source;
}

for (const type of [undefined, 'bytes']) {
  const name = type ?? 'default';
  scenarios[`source-members-read-order-${name}`] = (t) => {
    const source = loggedSource(t, { start() {}, pull() {}, cancel: t.fn('cancel', 'sync'), type });
    const rs = t.op('construct', () => new ReadableStream(source));
    t.op('cancel', () => rs.cancel('why'));
  };
  for (const [bad, members] of [
    ['pull', { pull: 1, cancel: 2, type }],
    ['cancel', { pull() {}, cancel: 2, type }],
  ]) {
    scenarios[`source-invalid-${bad}-${name}`] = (t) => {
      t.op('construct', () => new ReadableStream(loggedSource(t, members)));
    };
  }
}

Object.assign(scenarios, {
  'no-source': async (t) => {
    const rs = new ReadableStream();
    const reader = rs.getReader();
    t.track('closed', reader.closed);
    t.track('read', reader.read());
    await t.ticks(3);
    t.op('cancel', () => reader.cancel());
  },
  'empty-source-object': (t) => {
    const rs = new ReadableStream({});
    const reader = rs.getReader();
    t.track('read', reader.read());
    t.op('cancel', () => rs.cancel('x'));
    t.op('cancel-locked', () => reader.cancel('y'));
  },
  'start-close-only': (t) => {
    const rs = new ReadableStream({ start: t.fn('start', 'sync', (c) => c.close()) });
    const reader = rs.getReader();
    t.track('closed', reader.closed);
    t.track('read', reader.read());
  },
  'start-error-only': (t) => {
    const rs = new ReadableStream({ start: t.fn('start', 'sync', (c) => c.error(new Error('e'))) });
    const reader = rs.getReader();
    t.track('closed', reader.closed);
    t.track('read', reader.read());
  },
  'start-rejects-late-after-enqueue': (t) => {
    const rs = new ReadableStream({
      start: t.fn('start', 'sync', (c) => {
        c.enqueue('lost');
        return t.ticks(2).then(() => { throw new Error('late start failure'); });
      }),
      pull: t.fn('pull', 'sync'),
    });
    const reader = rs.getReader();
    t.track('closed', reader.closed);
    t.track('read#1', reader.read());
    t.track('read#2', reader.read());
  },
  'pull-after-start-async-enqueue': async (t) => {
    let ctl;
    const rs = new ReadableStream({
      start: t.fn('start', 'async', (c) => { ctl = c; }),
      pull: t.fn('pull', 'sync'),
    }, { highWaterMark: 2 });
    const reader = rs.getReader();
    t.track('read#1', reader.read());
    await t.ticks(1);
    t.quietOp('enqueue', () => ctl.enqueue('x'));
    t.quietOp('enqueue', () => ctl.enqueue('y'));
    t.track('read#2', reader.read());
    t.track('read#3', reader.read());
    await t.ticks(4);
    t.quietOp('close', () => ctl.close());
  },
  'pull-closes-with-pending-reads': (t) => {
    const rs = new ReadableStream({ pull: t.fn('pull', 'sync', (c) => c.close()) });
    const reader = rs.getReader();
    t.track('closed', reader.closed);
    t.track('read#1', reader.read());
    t.track('read#2', reader.read());
  },
  'pull-errors-controller': (t) => {
    const rs = new ReadableStream({ pull: t.fn('pull', 'sync', (c) => { c.enqueue(1); c.error(new TypeError('bad')); }) });
    const reader = rs.getReader();
    t.track('closed', reader.closed);
    t.track('read#1', reader.read());
    t.track('read#2', reader.read());
  },
  'enqueue-after-close-throws': (t) => {
    new ReadableStream({
      start: t.fn('start', 'sync', (c) => {
        c.close();
        t.quietOp('enqueue', () => c.enqueue('late'));
        t.quietOp('close again', () => c.close());
        t.quietOp('error', () => c.error(new Error('ignored')));
      }),
    });
  },
  'desired-size-through-reads': async (t) => {
    let ctl;
    const rs = new ReadableStream({ start: (c) => { ctl = c; } }, { highWaterMark: 3 });
    const reader = rs.getReader();
    for (const chunk of ['a', 'b', 'c', 'd']) {
      ctl.enqueue(chunk);
      t.log(`enqueued ${chunk}, desiredSize ${ctl.desiredSize}`);
    }
    t.track('read#1', reader.read());
    t.log(`desiredSize ${ctl.desiredSize}`);
    await t.ticks(1);
    t.log(`desiredSize ${ctl.desiredSize}`);
    ctl.close();
    t.log(`after close desiredSize ${ctl.desiredSize}`);
    await t.drain(reader, 'drain');
    t.log(`closed desiredSize ${ctl.desiredSize}`);
  },
  'external-enqueue-with-parked-reads': async (t) => {
    let ctl;
    const rs = new ReadableStream({ start: (c) => { ctl = c; }, pull: t.fn('pull', 'sync') }, { highWaterMark: 0 });
    const reader = rs.getReader();
    for (let i = 1; i <= 3; i++) t.track(`read#${i}`, reader.read());
    await t.ticks(2);
    ctl.enqueue(1);
    await t.ticks(1);
    ctl.enqueue(2);
    ctl.enqueue(3);
    ctl.close();
  },
  'pull-reentrant-enqueue-many': async (t) => {
    let n = 0;
    const rs = new ReadableStream({
      pull: t.fn('pull', 'sync', (c) => {
        for (let i = 0; i < 3; i++) c.enqueue(++n);
        if (n >= 6) c.close();
      }),
    }, { highWaterMark: 2 });
    await t.drain(rs.getReader());
  },
  'pull-promise-resolves-after-enqueue': async (t) => {
    let n = 0;
    const rs = new ReadableStream({
      pull: t.fn('pull', 'sync', (c) => t.ticks(2).then(() => {
        t.log('pull body enqueues');
        c.enqueue(++n);
        if (n === 2) c.close();
      })),
    });
    await t.drain(rs.getReader());
  },
  'cancel-reason-error-object': async (t) => {
    const rs = new ReadableStream({ cancel: t.fn('cancel', 'async') });
    t.op('cancel', () => rs.cancel(new RangeError('why')));
    t.log(`locked ${rs.locked}`);
    t.op('cancel again', () => rs.cancel('again'));
  },
  'cancel-after-close-and-error': async (t) => {
    const closed = new ReadableStream({ start: (c) => c.close(), cancel: t.fn('cancel1', 'sync') });
    t.op('cancel closed', () => closed.cancel('x'));
    const errored = new ReadableStream({ start: (c) => c.error(new Error('e')), cancel: t.fn('cancel2', 'sync') });
    t.op('cancel errored', () => errored.cancel('x'));
  },
  'error-with-pending-reads-and-queue': async (t) => {
    let ctl;
    const rs = new ReadableStream({ start: (c) => { ctl = c; c.enqueue(1); } });
    const reader = rs.getReader();
    t.track('read#1', reader.read());
    t.track('read#2', reader.read());
    t.track('read#3', reader.read());
    t.track('closed', reader.closed);
    await t.ticks(1);
    ctl.error(new Error('boom'));
    t.track('read#4', reader.read());
  },
});

export default scenarios;
