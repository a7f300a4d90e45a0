// Readers: released and re-acquired, pending requests at release, the
// closed promise of old readers, locking errors.

export default {
  'release-reacquire-between-reads': async (t) => {
    let n = 0;
    const rs = new ReadableStream({ pull: t.fn('pull', 'sync', (c) => { c.enqueue(++n); if (n === 4) c.close(); }) });
    const r1 = rs.getReader();
    t.track('r1.closed', r1.closed);
    t.track('r1.read', r1.read());
    await t.ticks(2);
    t.op('r1.releaseLock', () => r1.releaseLock());
    const r2 = rs.getReader();
    t.track('r2.closed', r2.closed);
    await t.drain(r2, 'r2.read');
  },
  'release-with-pending-reads': async (t) => {
    const rs = new ReadableStream({ pull: t.fn('pull', 'never') });
    const r1 = rs.getReader();
    t.track('r1.read#1', r1.read());
    t.track('r1.read#2', r1.read());
    t.track('r1.closed', r1.closed);
    await t.ticks(1);
    t.op('r1.releaseLock', () => r1.releaseLock());
    t.op('r1.read after release', () => r1.read());
    t.op('r1.cancel after release', () => r1.cancel());
    t.track('r1.closed again', r1.closed);
    t.op('r1.releaseLock twice', () => r1.releaseLock());
    const r2 = rs.getReader();
    t.track('r2.read', r2.read());
  },
  'release-after-close': async (t) => {
    const rs = new ReadableStream({ start: (c) => c.close() });
    const r1 = rs.getReader();
    t.track('r1.closed', r1.closed);
    await t.ticks(1);
    r1.releaseLock();
    t.track('r1.closed after release', r1.closed);
    const r2 = rs.getReader();
    t.track('r2.closed', r2.closed);
    t.track('r2.read', r2.read());
  },
  'release-after-error': async (t) => {
    const rs = new ReadableStream({ start: (c) => c.error(new Error('err')) });
    const r1 = rs.getReader();
    t.track('r1.closed', r1.closed);
    await t.ticks(1);
    r1.releaseLock();
    t.track('r1.closed after release', r1.closed);
    const r2 = rs.getReader();
    t.track('r2.closed', r2.closed);
    t.track('r2.read', r2.read());
  },
  'locked-errors': (t) => {
    const rs = new ReadableStream();
    rs.getReader();
    t.log(`locked ${rs.locked}`);
    t.op('second getReader', () => rs.getReader());
    t.op('cancel locked', () => rs.cancel());
    t.op('tee locked', () => rs.tee());
    t.op('pipeTo locked', () => rs.pipeTo(new WritableStream()));
    t.op('values locked', () => rs.values().next());
    t.op('byob on default', () => new ReadableStream().getReader({ mode: 'byob' }));
    t.op('bad mode', () => new ReadableStream().getReader({ mode: 'nope' }));
  },
  'reader-constructors': (t) => {
    const rs = new ReadableStream({ type: 'bytes' });
    const r = t.op('new ReadableStreamBYOBReader', () => new ReadableStreamBYOBReader(rs));
    t.op('new ReadableStreamDefaultReader on locked', () => new ReadableStreamDefaultReader(rs));
    r.releaseLock();
    const d = t.op('new ReadableStreamDefaultReader', () => new ReadableStreamDefaultReader(rs));
    t.track('d.read', d.read());
    t.op('read this=other', () => ReadableStreamDefaultReader.prototype.read.call({}));
  },
  'reacquire-byob-after-default': async (t) => {
    let ctl;
    const rs = new ReadableStream({ type: 'bytes', start: (c) => { ctl = c; c.enqueue(new Uint8Array([1, 2, 3, 4])); } });
    const d = rs.getReader();
    t.track('d.read', d.read());
    await t.ticks(1);
    d.releaseLock();
    const b = rs.getReader({ mode: 'byob' });
    t.track('b.read#1', b.read(new Uint8Array(2)));
    ctl.enqueue(new Uint8Array([5, 6]));
    t.track('b.read#2', b.read(new Uint8Array(2)));
    t.track('b.read#3', b.read(new Uint8Array(2)));
    ctl.close();
  },
  'many-pending-reads-fulfilled-in-order': async (t) => {
    let ctl;
    const rs = new ReadableStream({ start: (c) => { ctl = c; } }, { highWaterMark: 0 });
    const reader = rs.getReader();
    for (let i = 1; i <= 5; i++) t.track(`read#${i}`, reader.read());
    await t.ticks(1);
    for (let i = 1; i <= 3; i++) ctl.enqueue(i);
    await t.ticks(1);
    ctl.close();
  },
  'read-then-cancel-same-tick': (t) => {
    const rs = new ReadableStream({ start: (c) => c.enqueue('x'), cancel: t.fn('cancel', 'sync') });
    const reader = rs.getReader();
    t.track('read#1', reader.read());
    t.track('read#2', reader.read());
    t.track('cancel', reader.cancel('now'));
    t.track('read#3', reader.read());
    t.track('closed', reader.closed);
  },
};
