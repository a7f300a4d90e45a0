// WritableStream sinks: start/write/close/abort in every mode, writers'
// ready/closed/desiredSize, release with pending writes, abort and error
// at each stage.
import { MODES } from '../harness.js';

const scenarios = {};

for (const mode of MODES) {
  scenarios[`start-${mode}`] = (t) => {
    const ws = new WritableStream({ start: t.fn('start', mode), write: t.fn('write', 'sync'), close: t.fn('close', 'sync') });
    const writer = ws.getWriter();
    t.track('ready', writer.ready);
    t.track('closed', writer.closed);
    t.track('write#1', writer.write('a'));
    t.track('write#2', writer.write('b'));
    t.track('close', writer.close());
  };
  scenarios[`write-${mode}`] = (t) => {
    const ws = new WritableStream({ write: t.fn('write', mode), close: t.fn('close', 'sync'), abort: t.fn('abort', 'sync') });
    const writer = ws.getWriter();
    t.track('closed', writer.closed);
    for (let i = 1; i <= 3; i++) {
      t.track(`write#${i}`, writer.write(`w${i}`));
      t.track(`ready#${i}`, writer.ready);
    }
    t.track('close', writer.close());
  };
  scenarios[`close-${mode}`] = (t) => {
    const ws = new WritableStream({ write: t.fn('write', 'async'), close: t.fn('close', mode) });
    const writer = ws.getWriter();
    t.track('closed', writer.closed);
    t.track('write', writer.write('x'));
    t.track('close', writer.close());
    t.track('ready', writer.ready);
  };
  scenarios[`abort-${mode}`] = async (t) => {
    const ws = new WritableStream({
      start: t.fn('start', 'sync', (c) => {
        c.signal.addEventListener('abort', () => t.log(`signal abort event ${t.fmt(c.signal.reason)}`));
      }),
      write: t.fn('write', 'late'),
      abort: t.fn('abort', mode),
    });
    const writer = ws.getWriter();
    t.track('closed', writer.closed);
    t.track('write#1', writer.write('a'));
    t.track('write#2', writer.write('b'));
    await t.ticks(1);
    t.track('abort', writer.abort('reason'));
    t.track('write#3', writer.write('c'));
    t.track('ready', writer.ready);
  };
}

Object.assign(scenarios, {
  'no-sink': async (t) => {
    const ws = new WritableStream();
    const writer = ws.getWriter();
    t.track('ready', writer.ready);
    t.track('write', writer.write(1));
    t.track('close', writer.close());
    t.track('closed', writer.closed);
  },
  'backpressure-ready-cycles': async (t) => {
    const ws = new WritableStream({ write: t.fn('write', 'late') }, { highWaterMark: 2 });
    const writer = ws.getWriter();
    for (let i = 1; i <= 4; i++) {
      t.log(`desiredSize ${writer.desiredSize}`);
      t.track(`ready#${i}`, writer.ready);
      t.track(`write#${i}`, writer.write(i));
    }
    await writer.ready;
    t.log(`after ready desiredSize ${writer.desiredSize}`);
  },
  'release-with-pending-writes': async (t) => {
    const ws = new WritableStream({ write: t.fn('write', 'late') });
    const w1 = ws.getWriter();
    t.track('w1.write#1', w1.write('a'));
    t.track('w1.write#2', w1.write('b'));
    t.track('w1.closed', w1.closed);
    t.track('w1.ready', w1.ready);
    t.op('w1.releaseLock', () => w1.releaseLock());
    t.track('w1.ready after release', w1.ready);
    t.op('w1.write after release', () => w1.write('c'));
    t.op('w1.desiredSize after release', () => w1.desiredSize);
    const w2 = ws.getWriter();
    t.track('w2.write', w2.write('d'));
    t.track('w2.close', w2.close());
  },
  'controller-error-during-write': async (t) => {
    let ctl;
    const ws = new WritableStream({
      start: (c) => { ctl = c; },
      write: t.fn('write', 'late', () => ctl.error(new Error('sink error'))),
      close: t.fn('close', 'sync'),
    });
    const writer = ws.getWriter();
    t.track('write#1', writer.write('a'));
    t.track('write#2', writer.write('b'));
    t.track('close', writer.close());
    t.track('closed', writer.closed);
  },
  'controller-error-idle': async (t) => {
    let ctl;
    const ws = new WritableStream({ start: (c) => { ctl = c; }, abort: t.fn('abort', 'sync') });
    const writer = ws.getWriter();
    t.track('closed', writer.closed);
    t.track('ready', writer.ready);
    await t.ticks(2);
    ctl.error(new Error('idle error'));
    t.track('write', writer.write('x'));
    t.track('abort', writer.abort());
  },
  'abort-during-close': async (t) => {
    const ws = new WritableStream({ close: t.fn('close', 'late'), abort: t.fn('abort', 'sync') });
    const writer = ws.getWriter();
    t.track('close', writer.close());
    await t.ticks(1);
    t.track('abort', writer.abort('late abort'));
    t.track('closed', writer.closed);
  },
  // Ready is first read after the close that the abort found in flight has
  // completed: StartErroring rejected it, and the close leaves it so.
  'erroring-close-then-ready': async (t) => {
    const ws = new WritableStream({ close: t.fn('close', 'late'), abort: t.fn('abort', 'sync') });
    const writer = ws.getWriter();
    t.track('close', writer.close());
    await t.ticks(1);
    t.track('abort', writer.abort('late abort'));
    await t.track('closed', writer.closed);
    t.track('ready', writer.ready);
  },
  // A write while the close is in flight, when the size algorithm is
  // already cleared and the stream still writable: it is rejected.
  'write-during-close-in-flight': async (t) => {
    const ws = new WritableStream({ close: t.fn('close', 'late') });
    t.track('close', ws.close());
    const writer = ws.getWriter();
    await t.ticks(1);
    t.op('write', () => writer.write('x'));
    t.track('closed', writer.closed);
  },
  'abort-before-start-settles': (t) => {
    const ws = new WritableStream({ start: t.fn('start', 'late'), abort: t.fn('abort', 'async'), write: t.fn('write', 'sync') });
    const writer = ws.getWriter();
    t.track('write', writer.write('x'));
    t.track('abort#1', writer.abort('early'));
    t.track('abort#2', writer.abort('again'));
    t.track('closed', writer.closed);
  },
  'close-twice-and-write-after-close': (t) => {
    const ws = new WritableStream({ close: t.fn('close', 'sync') });
    const writer = ws.getWriter();
    t.track('close#1', writer.close());
    t.op('close#2', () => writer.close());
    t.op('write after close', () => writer.write('x'));
    t.track('closed', writer.closed);
  },
  'stream-abort-and-close-without-writer': async (t) => {
    const a = new WritableStream({ abort: t.fn('a.abort', 'sync') });
    t.op('a.abort', () => a.abort('x'));
    const b = new WritableStream({ close: t.fn('b.close', 'sync') });
    t.op('b.close', () => b.close());
    const c = new WritableStream();
    c.getWriter();
    t.op('c.close locked', () => c.close());
    t.op('c.abort locked', () => c.abort());
  },
  'signal-reason-and-write-in-flight': async (t) => {
    let signal;
    const ws = new WritableStream({
      start: (c) => { signal = c.signal; },
      write: t.fn('write', 'sync', () => new Promise((resolve) => {
        signal.addEventListener('abort', () => { t.log('write sees abort'); resolve(); });
      })),
      abort: t.fn('abort', 'sync'),
    });
    const writer = ws.getWriter();
    t.track('write', writer.write('x'));
    await t.ticks(2);
    t.track('abort', writer.abort(new Error('stop')));
    t.log(`signal.aborted ${signal.aborted}`);
  },
});

export default scenarios;
