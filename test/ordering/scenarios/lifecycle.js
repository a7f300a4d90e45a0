// cancel/error/abort at every stage of a stream's life, and push-only
// sources (start() keeps the controller, enqueues come from outside).

const scenarios = {};

// Readable stages: each returns { stream, controller, reader } with the
// stream put in that stage; `late` start/pull callbacks keep a stage open
// for a few ticks.
const READABLE_STAGES = {
  'before-start-settles': (t) => {
    let controller;
    const stream = new ReadableStream({ start: t.fn('start', 'late', (c) => { controller = c; }), pull: t.fn('pull', 'sync'), cancel: t.fn('cancel', 'sync') });
    return { stream, controller };
  },
  'idle': async (t) => {
    let controller;
    const stream = new ReadableStream({ start: (c) => { controller = c; }, pull: t.fn('pull', 'sync'), cancel: t.fn('cancel', 'sync') }, { highWaterMark: 0 });
    await t.ticks(2);
    return { stream, controller };
  },
  'during-pull': async (t) => {
    let controller;
    const stream = new ReadableStream({ start: (c) => { controller = c; }, pull: t.fn('pull', 'late'), cancel: t.fn('cancel', 'sync') });
    await t.ticks(2);
    return { stream, controller };
  },
  'with-parked-read': async (t) => {
    let controller;
    const stream = new ReadableStream({ start: (c) => { controller = c; }, pull: t.fn('pull', 'sync'), cancel: t.fn('cancel', 'sync') });
    const reader = stream.getReader();
    t.track('parked read', reader.read());
    await t.ticks(2);
    return { stream, controller, reader };
  },
  'with-queued-chunks': async (t) => {
    let controller;
    const stream = new ReadableStream({ start: (c) => { controller = c; c.enqueue(1); c.enqueue(2); }, cancel: t.fn('cancel', 'sync') });
    await t.ticks(2);
    return { stream, controller };
  },
  'close-requested': async (t) => {
    let controller;
    const stream = new ReadableStream({ start: (c) => { controller = c; c.enqueue(1); c.close(); }, cancel: t.fn('cancel', 'sync') });
    await t.ticks(2);
    return { stream, controller };
  },
  'closed': async (t) => {
    let controller;
    const stream = new ReadableStream({ start: (c) => { controller = c; c.close(); }, cancel: t.fn('cancel', 'sync') });
    await t.ticks(2);
    return { stream, controller };
  },
  'errored': async (t) => {
    let controller;
    const stream = new ReadableStream({ start: (c) => { controller = c; c.error(new Error('first error')); }, cancel: t.fn('cancel', 'sync') });
    await t.ticks(2);
    return { stream, controller };
  },
  'piping': async (t) => {
    let controller;
    let n = 0;
    // At most three chunks: an endless source piped into a sink never yields.
    const stream = new ReadableStream({ start: (c) => { controller = c; }, pull: t.fn('pull', 'sync', (c) => { if (n++ < 3) c.enqueue('p'); }), cancel: t.fn('cancel', 'sync') }, { highWaterMark: 0 });
    const dest = new WritableStream({ write: t.fn('write', 'late'), abort: t.fn('dest.abort', 'sync'), close: t.fn('dest.close', 'sync') });
    t.track('pipeTo', stream.pipeTo(dest));
    await t.ticks(5);
    return { stream, controller };
  },
};

for (const [stage, setup] of Object.entries(READABLE_STAGES)) {
  scenarios[`readable-cancel-${stage}`] = async (t) => {
    const { stream, reader } = await setup(t);
    const r = reader ?? (stream.locked ? undefined : stream.getReader());
    if (r) {
      t.track('closed', r.closed);
      t.track('cancel', r.cancel('stage cancel'));
      t.track('read after cancel', r.read());
    } else {
      t.op('stream.cancel (locked)', () => stream.cancel('stage cancel'));
    }
  };
  scenarios[`readable-error-${stage}`] = async (t) => {
    const { stream, controller, reader } = await setup(t);
    const r = reader ?? (stream.locked ? undefined : stream.getReader());
    if (r) t.track('closed', r.closed);
    t.quietOp('controller.error', () => controller.error(new Error('stage error')));
    t.log(`desiredSize ${controller.desiredSize}`);
    if (r) t.track('read after error', r.read());
  };
}

// Writable stages.
const WRITABLE_STAGES = {
  'before-start-settles': (t) => {
    let controller;
    const stream = new WritableStream({ start: t.fn('start', 'late', (c) => { controller = c; }), write: t.fn('write', 'sync'), abort: t.fn('abort', 'sync'), close: t.fn('close', 'sync') });
    return { stream, controller: () => controller };
  },
  'idle': async (t) => {
    let controller;
    const stream = new WritableStream({ start: (c) => { controller = c; }, write: t.fn('write', 'sync'), abort: t.fn('abort', 'sync') });
    await t.ticks(2);
    return { stream, controller: () => controller };
  },
  'during-write': async (t) => {
    let controller;
    const stream = new WritableStream({ start: (c) => { controller = c; }, write: t.fn('write', 'late'), abort: t.fn('abort', 'sync') });
    const writer = stream.getWriter();
    t.track('write#1', writer.write('a'));
    await t.ticks(1);
    return { stream, writer, controller: () => controller };
  },
  'with-queued-writes': async (t) => {
    let controller;
    const stream = new WritableStream({ start: (c) => { controller = c; }, write: t.fn('write', 'late'), abort: t.fn('abort', 'sync') }, { highWaterMark: 4 });
    const writer = stream.getWriter();
    for (let i = 1; i <= 3; i++) t.track(`write#${i}`, writer.write(i));
    await t.ticks(1);
    return { stream, writer, controller: () => controller };
  },
  'during-close': async (t) => {
    let controller;
    const stream = new WritableStream({ start: (c) => { controller = c; }, close: t.fn('close', 'late'), abort: t.fn('abort', 'sync') });
    const writer = stream.getWriter();
    t.track('close', writer.close());
    await t.ticks(1);
    return { stream, writer, controller: () => controller };
  },
  'closed': async (t) => {
    let controller;
    const stream = new WritableStream({ start: (c) => { controller = c; }, close: t.fn('close', 'sync'), abort: t.fn('abort', 'sync') });
    const writer = stream.getWriter();
    await writer.close();
    return { stream, writer, controller: () => controller };
  },
  'erroring': async (t) => {
    let controller;
    const stream = new WritableStream({ start: (c) => { controller = c; }, write: t.fn('write', 'late', () => controller.error(new Error('in write'))), abort: t.fn('abort', 'sync') });
    const writer = stream.getWriter();
    t.track('write#1', writer.write('a'));
    await t.ticks(1);
    return { stream, writer, controller: () => controller };
  },
};

for (const [stage, setup] of Object.entries(WRITABLE_STAGES)) {
  scenarios[`writable-abort-${stage}`] = async (t) => {
    const { stream, writer } = await setup(t);
    const w = writer ?? stream.getWriter();
    t.track('closed', w.closed);
    t.track('abort', w.abort('stage abort'));
    t.track('ready', w.ready);
    t.op('write after abort', () => w.write('late'));
  };
  scenarios[`writable-error-${stage}`] = async (t) => {
    const { stream, writer, controller } = await setup(t);
    const w = writer ?? stream.getWriter();
    t.track('closed', w.closed);
    t.quietOp('controller.error', () => controller().error(new Error('stage error')));
    t.log(`desiredSize ${t.quietOp('desiredSize', () => w.desiredSize)}`);
    t.op('write after error', () => w.write('late'));
  };
}

Object.assign(scenarios, {
  'push-only-enqueue-before-read': async (t) => {
    let ctl;
    const rs = new ReadableStream({ start: (c) => { ctl = c; } });
    ctl.enqueue('a');
    ctl.enqueue('b');
    const reader = rs.getReader();
    t.track('read#1', reader.read());
    ctl.enqueue('c');
    ctl.close();
    await t.drain(reader, 'rest');
  },
  'push-only-read-before-enqueue': async (t) => {
    let ctl;
    const rs = new ReadableStream({ start: (c) => { ctl = c; } });
    const reader = rs.getReader();
    t.track('read#1', reader.read());
    t.track('read#2', reader.read());
    ctl.enqueue('a');
    await t.ticks(1);
    ctl.enqueue('b');
    ctl.close();
    t.track('read#3', reader.read());
  },
  'push-only-bytes-external-enqueue': async (t) => {
    let ctl;
    const rs = new ReadableStream({ type: 'bytes', start: (c) => { ctl = c; } });
    const reader = rs.getReader();
    t.track('read#1', reader.read());
    for (let i = 1; i <= 3; i++) ctl.enqueue(new Uint8Array([i]));
    ctl.close();
    await t.drain(reader, 'rest');
  },
  'push-only-for-await': async (t) => {
    let ctl;
    const rs = new ReadableStream({ start: (c) => { ctl = c; } });
    const done = (async () => {
      for await (const v of rs) t.log(`value ${v}`);
      t.log('loop end');
    })();
    ctl.enqueue(1);
    await t.ticks(2);
    ctl.enqueue(2);
    ctl.close();
    await done;
  },
  'push-only-pipe': async (t) => {
    let ctl;
    const rs = new ReadableStream({ start: (c) => { ctl = c; } });
    t.track('pipeTo', rs.pipeTo(new WritableStream({ write: t.fn('write', 'sync'), close: t.fn('close', 'sync') })));
    ctl.enqueue('a');
    await t.ticks(3);
    ctl.enqueue('b');
    ctl.enqueue('c');
    ctl.close();
  },
});

export default scenarios;
