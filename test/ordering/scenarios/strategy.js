// Queuing strategies: high-water marks 0, 1 and large, with and without
// size(), the built-in strategy classes, and size() misbehaving.

const scenarios = {};

for (const hwm of [0, 1, 4, 1000]) {
  for (const sized of [false, true]) {
    scenarios[`readable-hwm-${hwm}${sized ? '-size' : ''}`] = async (t) => {
      let n = 0;
      const rs = new ReadableStream({
        pull: t.fn('pull', 'sync', (c) => {
          c.enqueue(`c${++n}`);
          t.log(`desiredSize ${c.desiredSize}`);
          if (n === 6) c.close();
        }),
      }, t.strategy(hwm, sized ? (chunk) => chunk.length : undefined));
      await t.ticks(4);
      await t.drain(rs.getReader());
    };
    scenarios[`writable-hwm-${hwm}${sized ? '-size' : ''}`] = async (t) => {
      const ws = new WritableStream({ write: t.fn('write', 'late') },
        t.strategy(hwm, sized ? (chunk) => chunk.length : undefined));
      const writer = ws.getWriter();
      t.track('ready#1', writer.ready);
      for (let i = 1; i <= 4; i++) {
        t.track(`write#${i}`, writer.write('x'.repeat(i)));
        t.log(`desiredSize ${writer.desiredSize}`);
        t.track(`ready#${i + 1}`, writer.ready);
      }
      t.track('close', writer.close());
    };
  }
}

Object.assign(scenarios, {
  'count-queuing-strategy': async (t) => {
    const s = new CountQueuingStrategy({ highWaterMark: 2 });
    t.log(`hwm ${s.highWaterMark} size ${s.size('x')}`);
    const rs = new ReadableStream({ pull: t.fn('pull', 'sync', (c) => c.enqueue(1)) }, s);
    await t.ticks(3);
    t.track('read', rs.getReader().read());
  },
  'byte-length-queuing-strategy': async (t) => {
    const s = new ByteLengthQueuingStrategy({ highWaterMark: 4 });
    let ctl;
    const rs = new ReadableStream({ start: (c) => { ctl = c; }, pull: t.fn('pull', 'sync') }, s);
    for (const len of [1, 2, 3]) {
      ctl.enqueue(new Uint8Array(len));
      t.log(`desiredSize ${ctl.desiredSize}`);
    }
    await t.drain(rs.getReader(), 'read', 3);
  },
  'size-throws': (t) => {
    const rs = new ReadableStream({
      start: t.fn('start', 'sync', (c) => t.quietOp('enqueue', () => c.enqueue('x'))),
    }, { size: () => { t.log('size called'); throw new Error('size throws'); } });
    const reader = rs.getReader();
    t.track('closed', reader.closed);
    t.track('read', reader.read());
  },
  'size-bad-values': (t) => {
    for (const bad of [NaN, -1, Infinity]) {
      const rs = new ReadableStream({
        start: (c) => t.quietOp(`enqueue size ${bad}`, () => c.enqueue('x')),
      }, { size: () => bad });
      t.track(`closed size ${bad}`, rs.getReader().closed);
    }
  },
  'writable-size-throws': (t) => {
    const ws = new WritableStream({ write: t.fn('write', 'sync') }, { size: () => { throw new Error('wsize'); } });
    const writer = ws.getWriter();
    t.track('write', writer.write('x'));
    t.track('closed', writer.closed);
    t.track('ready', writer.ready);
  },
  'strategy-validation': (t) => {
    t.op('hwm -1', () => new ReadableStream({}, { highWaterMark: -1 }));
    t.op('hwm NaN', () => new WritableStream({}, { highWaterMark: NaN }));
    t.op('size not fn', () => new ReadableStream({}, { size: 5 }));
    t.op('hwm string', () => new ReadableStream({}, { highWaterMark: '2' }).getReader());
  },
});

export default scenarios;
