// Async iteration: for await with break/return/throw, preventCancel,
// manual next()/return(), concurrent next() calls.

const scenarios = {};

function numbers(t, { chunks = 4, mode = 'sync', type } = {}) {
  let n = 0;
  return new ReadableStream({
    ...(type ? { type } : {}),
    pull: t.fn('pull', mode, (c) => {
      if (n < chunks) c.enqueue(type === 'bytes' ? new Uint8Array([++n]) : ++n);
      else c.close();
    }),
    cancel: t.fn('cancel', 'sync'),
  });
}

for (const preventCancel of [false, true]) {
  const suffix = preventCancel ? '-prevent-cancel' : '';
  scenarios[`break${suffix}`] = async (t) => {
    const rs = numbers(t);
    for await (const v of rs.values({ preventCancel })) {
      t.log(`value ${v}`);
      if (v === 2) break;
    }
    t.log(`after loop locked ${rs.locked}`);
  };
  scenarios[`throw${suffix}`] = async (t) => {
    const rs = numbers(t);
    try {
      for await (const v of rs.values({ preventCancel })) {
        t.log(`value ${v}`);
        if (v === 2) throw new Error('loop body throws');
      }
    } catch (err) {
      t.log(`caught ${t.fmt(err)}`);
    }
    t.log(`after loop locked ${rs.locked}`);
  };
  scenarios[`return-from-function${suffix}`] = async (t) => {
    const rs = numbers(t, { mode: 'async' });
    const first = await (async () => {
      for await (const v of rs.values({ preventCancel })) return v;
      return 'none';
    })();
    t.log(`returned ${first} locked ${rs.locked}`);
  };
}

Object.assign(scenarios, {
  'to-completion': async (t) => {
    for await (const v of numbers(t)) t.log(`value ${v}`);
    t.log('loop done');
  },
  'to-completion-async-pull': async (t) => {
    for await (const v of numbers(t, { mode: 'late' })) t.log(`value ${v}`);
  },
  'bytes-stream': async (t) => {
    for await (const v of numbers(t, { type: 'bytes' })) t.log(`value ${t.fmt(v)}`);
  },
  'symbol-async-iterator': async (t) => {
    const rs = numbers(t, { chunks: 2 });
    const it = rs[Symbol.asyncIterator]();
    t.track('next#1', it.next());
    t.track('next#2', it.next());
    t.track('next#3', it.next());
    t.track('next#4', it.next());
  },
  'concurrent-next-then-return': async (t) => {
    const rs = numbers(t, { mode: 'late' });
    const it = rs.values();
    t.track('next#1', it.next());
    t.track('next#2', it.next());
    t.track('return', it.return('bye'));
    t.track('next#3', it.next());
  },
  'return-before-next': async (t) => {
    const rs = numbers(t);
    const it = rs.values();
    t.track('return#1', it.return('early'));
    t.track('return#2', it.return('again'));
    t.track('next', it.next());
  },
  'errored-stream': async (t) => {
    const rs = new ReadableStream({ start: (c) => { c.enqueue(1); c.error(new Error('iter error')); } });
    try {
      for await (const v of rs) t.log(`value ${v}`);
    } catch (err) {
      t.log(`caught ${t.fmt(err)}`);
    }
  },
  'error-during-iteration': async (t) => {
    let ctl;
    const rs = new ReadableStream({ start: (c) => { ctl = c; } });
    const it = rs.values();
    t.track('next#1', it.next());
    await t.ticks(2);
    ctl.enqueue('x');
    t.track('next#2', it.next());
    await t.ticks(2);
    ctl.error(new Error('mid error'));
    t.track('next#3', it.next());
  },
  'cancel-rejects-on-return': async (t) => {
    const rs = new ReadableStream({ start: (c) => c.enqueue(1), cancel: t.fn('cancel', 'reject') });
    const it = rs.values();
    t.track('next', it.next());
    t.track('return', it.return());
  },
  'values-on-locked-and-bad-options': (t) => {
    t.op('values(null)', () => numbers(t).values(null).next());
    t.op('values(1)', () => numbers(t).values(1).next());
    const rs = numbers(t);
    rs.getReader();
    t.op('values locked', () => rs.values().next());
  },
});

export default scenarios;
