// tee(): default and byte streams, both branches read in different
// interleavings, one or both canceled, errors, BYOB readers on branches.

const scenarios = {};

function src(t, type, { chunks = 3, end = 'close', mode = 'sync' } = {}) {
  let n = 0;
  return new ReadableStream({
    ...(type === 'bytes' ? { type: 'bytes' } : {}),
    pull: t.fn('pull', mode, (c) => {
      if (n < chunks) c.enqueue(type === 'bytes' ? new Uint8Array([++n, n]) : `c${++n}`);
      else if (end === 'close') c.close();
      else c.error(new Error('tee source error'));
    }),
    cancel: t.fn('source.cancel', 'sync'),
  });
}

for (const type of ['default', 'bytes']) {
  scenarios[`${type}-read-both-concurrently`] = async (t) => {
    const [a, b] = src(t, type).tee();
    const ra = a.getReader();
    const rb = b.getReader();
    t.track('a.closed', ra.closed);
    t.track('b.closed', rb.closed);
    await Promise.all([t.drain(ra, 'a.read'), t.drain(rb, 'b.read')]);
  };
  scenarios[`${type}-read-a-then-b`] = async (t) => {
    const [a, b] = src(t, type).tee();
    await t.drain(a.getReader(), 'a.read');
    await t.drain(b.getReader(), 'b.read');
  };
  scenarios[`${type}-cancel-a-read-b`] = async (t) => {
    const [a, b] = src(t, type).tee();
    t.track('a.cancel', a.cancel('a gone'));
    await t.drain(b.getReader(), 'b.read');
  };
  scenarios[`${type}-cancel-both`] = async (t) => {
    const [a, b] = src(t, type).tee();
    const ra = a.getReader();
    t.track('a.read', ra.read());
    await t.ticks(3);
    t.track('a.cancel', ra.cancel('ra'));
    await t.ticks(2);
    t.track('b.cancel', b.cancel('rb'));
  };
  scenarios[`${type}-cancel-both-same-tick`] = (t) => {
    const [a, b] = src(t, type).tee();
    t.track('a.cancel', a.cancel('x'));
    t.track('b.cancel', b.cancel('y'));
  };
  scenarios[`${type}-source-errors`] = async (t) => {
    const [a, b] = src(t, type, { chunks: 1, end: 'error' }).tee();
    const ra = a.getReader();
    const rb = b.getReader();
    t.track('a.closed', ra.closed);
    t.track('b.closed', rb.closed);
    await t.drain(ra, 'a.read');
    await t.drain(rb, 'b.read');
  };
  scenarios[`${type}-async-pull`] = async (t) => {
    const [a, b] = src(t, type, { mode: 'late' }).tee();
    await Promise.all([t.drain(a.getReader(), 'a.read'), t.drain(b.getReader(), 'b.read')]);
  };
  scenarios[`${type}-tee-of-tee`] = async (t) => {
    const [a, b] = src(t, type, { chunks: 2 }).tee();
    const [a1, a2] = a.tee();
    await Promise.all([t.drain(a1.getReader(), 'a1.read'), t.drain(a2.getReader(), 'a2.read'), t.drain(b.getReader(), 'b.read')]);
  };
  scenarios[`${type}-pipe-branches`] = (t) => {
    const [a, b] = src(t, type).tee();
    const sink = (name) => new WritableStream({ write: t.fn(`${name}.write`, 'sync'), close: t.fn(`${name}.close`, 'sync') });
    t.track('a.pipeTo', a.pipeTo(sink('wa')));
    t.track('b.pipeTo', b.pipeTo(sink('wb')));
  };
}

Object.assign(scenarios, {
  'bytes-byob-reader-on-branch': async (t) => {
    const [a, b] = src(t, 'bytes').tee();
    const ra = a.getReader({ mode: 'byob' });
    const rb = b.getReader();
    t.track('a.read#1', ra.read(new Uint8Array(1)));
    t.track('b.read#1', rb.read());
    t.track('a.read#2', ra.read(new Uint16Array(2)));
    await t.ticks(8);
    await t.drain(rb, 'b.rest');
    t.track('a.read#3', ra.read(new Uint8Array(8)));
  },
  'bytes-byob-both-branches': async (t) => {
    const [a, b] = src(t, 'bytes', { chunks: 2 }).tee();
    const ra = a.getReader({ mode: 'byob' });
    const rb = b.getReader({ mode: 'byob' });
    for (let i = 1; i <= 3; i++) {
      t.track(`a.read#${i}`, ra.read(new Uint8Array(4)));
      t.track(`b.read#${i}`, rb.read(new Uint8Array(4)));
      await t.ticks(3);
    }
  },
  'bytes-branch-chunks-independent': async (t) => {
    const [a, b] = src(t, 'bytes', { chunks: 1 }).tee();
    const { value } = await a.getReader().read();
    value[0] = 99;
    t.track('b.read', b.getReader().read());
  },
  'default-object-chunks-shared': async (t) => {
    const obj = { x: 1 };
    const [a, b] = new ReadableStream({ start: (c) => { c.enqueue(obj); c.close(); } }).tee();
    const va = (await a.getReader().read()).value;
    const vb = (await b.getReader().read()).value;
    t.log(`same object ${va === vb && va === obj}`);
  },
  'default-start-enqueued-then-closed': async (t) => {
    const rs = new ReadableStream({ start: t.fn('start', 'sync', (c) => { c.enqueue(1); c.enqueue(2); c.close(); }) });
    const [a, b] = rs.tee();
    await Promise.all([t.drain(a.getReader(), 'a.read'), t.drain(b.getReader(), 'b.read')]);
  },
  'cancel-branch-with-pending-read': async (t) => {
    const rs = new ReadableStream({ pull: t.fn('pull', 'never'), cancel: t.fn('cancel', 'async') });
    const [a, b] = rs.tee();
    const ra = a.getReader();
    t.track('a.read', ra.read());
    await t.ticks(2);
    t.track('a.cancel', ra.cancel('x'));
    t.track('b.cancel', b.cancel('y'));
  },
});

export default scenarios;
