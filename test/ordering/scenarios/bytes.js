// Byte streams: source callbacks in each mode, default and BYOB readers,
// every view type, respond/respondWithNewView, min, and the states a
// pending pull-into can meet.
import { makeView, VIEW_TYPES } from '../program.js';

const scenarios = {};
const START_MODES = ['sync', 'async', 'late', 'throw', 'reject', 'thenable', 'then-getter', 'then-getter-fn', 'never'];
const PULL_MODES = ['sync', 'async', 'late', 'throw', 'reject', 'thenable', 'thenable-reject', 'then-getter', 'value'];

const bytes = (...values) => new Uint8Array(values);

for (const mode of START_MODES) {
  scenarios[`start-${mode}`] = (t) => {
    const rs = new ReadableStream({
      type: 'bytes',
      start: t.fn('start', mode, (c) => { c.enqueue(bytes(1, 2)); c.enqueue(bytes(3)); }),
      pull: t.fn('pull', 'sync'),
    });
    const reader = rs.getReader();
    t.track('closed', reader.closed);
    t.track('read#1', reader.read());
    t.track('read#2', reader.read());
    t.track('read#3', reader.read());
  };
}

// pull() in each mode on a BYOB reader, answering through byobRequest.
for (const mode of PULL_MODES) {
  scenarios[`pull-byob-${mode}`] = async (t) => {
    let n = 0;
    const rs = new ReadableStream({
      type: 'bytes',
      pull: t.fn('pull', mode, (c) => {
        const req = c.byobRequest;
        t.log(`byobRequest view ${t.fmt(req?.view)}`);
        if (++n === 3) { c.close(); req?.respond(0); return; }
        new Uint8Array(req.view.buffer, req.view.byteOffset, 2).set([n, n]);
        req.respond(2);
      }),
    });
    const reader = rs.getReader({ mode: 'byob' });
    t.track('closed', reader.closed);
    for (let i = 1; i <= 4; i++) {
      const r = await t.track(`read#${i}`, reader.read(new Uint8Array(4))).catch(() => ({ done: true }));
      if (r.done) break;
    }
  };
}

// autoAllocateChunkSize: a default reader still gets a byobRequest.
for (const mode of ['sync', 'async', 'thenable', 'throw']) {
  scenarios[`pull-autoallocate-${mode}`] = async (t) => {
    let n = 0;
    const rs = new ReadableStream({
      type: 'bytes',
      autoAllocateChunkSize: 8,
      pull: t.fn('pull', mode, (c) => {
        const req = c.byobRequest;
        t.log(`byobRequest view ${t.fmt(req?.view)}`);
        if (++n === 3) { c.close(); req.respond(0); return; }
        req.view[0] = n;
        req.respond(1);
      }),
    });
    await t.drain(rs.getReader(), 'read', 5);
  };
}

// A BYOB read into each view type, from queued bytes and from pull.
for (const type of VIEW_TYPES) {
  scenarios[`byob-queued-${type.toLowerCase()}`] = (t) => {
    const rs = new ReadableStream({
      type: 'bytes',
      start: (c) => { c.enqueue(bytes(1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17)); c.close(); },
    });
    const reader = rs.getReader({ mode: 'byob' });
    t.track('closed', reader.closed);
    t.track('read#1', reader.read(makeView(type, 1)));
    t.track('read#2', reader.read(makeView(type, 2, 1)));
    t.track('read#3', reader.read(makeView(type, 8)));
    t.track('read#4', reader.read(makeView(type, 1)));
  };
  scenarios[`byob-pull-${type.toLowerCase()}`] = async (t) => {
    const rs = new ReadableStream({
      type: 'bytes',
      pull: t.fn('pull', 'sync', (c) => {
        const v = c.byobRequest.view;
        t.log(`view ${v.constructor.name} ${v.byteOffset}+${v.byteLength}`);
        new Uint8Array(v.buffer, v.byteOffset, v.byteLength).fill(7);
        c.byobRequest.respond(v.byteLength);
        c.close();
      }),
    });
    const reader = rs.getReader({ mode: 'byob' });
    t.track('read#1', reader.read(makeView(type, 2)));
    t.track('read#2', reader.read(makeView(type, 2)));
  };
}

Object.assign(scenarios, {
  'byob-min': async (t) => {
    let ctl;
    const rs = new ReadableStream({ type: 'bytes', start: (c) => { ctl = c; }, pull: t.fn('pull', 'sync') });
    const reader = rs.getReader({ mode: 'byob' });
    t.track('read', reader.read(new Uint8Array(6), { min: 4 }));
    await t.ticks(2);
    ctl.enqueue(bytes(1, 2));
    await t.ticks(2);
    ctl.enqueue(bytes(3, 4, 5));
  },
  'byob-min-invalid': (t) => {
    const rs = new ReadableStream({ type: 'bytes' });
    const reader = rs.getReader({ mode: 'byob' });
    t.op('min 0', () => reader.read(new Uint8Array(4), { min: 0 }));
    t.op('min too big', () => reader.read(new Uint8Array(4), { min: 5 }));
    t.op('zero-length view', () => reader.read(new Uint8Array(0)));
    t.op('not a view', () => reader.read(new ArrayBuffer(4)));
    const detached = new ArrayBuffer(4);
    structuredClone(detached, { transfer: [detached] });
    t.op('detached view', () => reader.read(new Uint8Array(detached)));
  },
  'byob-respond-with-new-view': async (t) => {
    const rs = new ReadableStream({
      type: 'bytes',
      pull: t.fn('pull', 'sync', (c) => {
        const v = c.byobRequest.view;
        const nv = new Uint8Array(v.buffer, v.byteOffset, 3);
        nv.set([9, 8, 7]);
        c.byobRequest.respondWithNewView(nv);
      }),
    });
    const reader = rs.getReader({ mode: 'byob' });
    t.track('read#1', reader.read(new Uint8Array(5)));
    await t.ticks(3);
    t.op('releaseLock', () => reader.releaseLock());
  },
  'byob-respond-errors': (t) => {
    const rs = new ReadableStream({
      type: 'bytes',
      pull: t.fn('pull', 'sync', (c) => {
        const req = c.byobRequest;
        t.quietOp('respond too much', () => req.respond(99));
        t.quietOp('respondWithNewView wrong buffer', () => req.respondWithNewView(new Uint8Array(2)));
        t.quietOp('respond ok', () => req.respond(1));
        t.quietOp('respond twice', () => req.respond(1));
        t.log(`byobRequest after respond ${t.fmt(c.byobRequest)}`);
      }),
    });
    t.track('read', rs.getReader({ mode: 'byob' }).read(new Uint8Array(4)));
  },
  'byob-close-with-pending-read': async (t) => {
    let ctl;
    const rs = new ReadableStream({ type: 'bytes', start: (c) => { ctl = c; }, pull: t.fn('pull', 'sync') });
    const reader = rs.getReader({ mode: 'byob' });
    t.track('closed', reader.closed);
    t.track('read#1', reader.read(new Uint16Array(2)));
    await t.ticks(2);
    ctl.close();
    t.log(`byobRequest ${t.fmt(ctl.byobRequest?.view)}`);
    ctl.byobRequest.respond(0);
    t.track('read#2', reader.read(new Uint16Array(2)));
  },
  'byob-close-with-partial-element': async (t) => {
    let ctl;
    const rs = new ReadableStream({ type: 'bytes', start: (c) => { ctl = c; } });
    const reader = rs.getReader({ mode: 'byob' });
    t.track('read', reader.read(new Uint16Array(2)));
    await t.ticks(1);
    ctl.enqueue(bytes(1));
    t.quietOp('close', () => ctl.close());
    t.track('closed', reader.closed);
  },
  'byob-cancel-with-pending-read': async (t) => {
    const rs = new ReadableStream({ type: 'bytes', pull: t.fn('pull', 'never'), cancel: t.fn('cancel', 'async') });
    const reader = rs.getReader({ mode: 'byob' });
    t.track('read', reader.read(new Uint8Array(4)));
    await t.ticks(2);
    t.op('cancel', () => reader.cancel('stop'));
  },
  'byob-release-with-pending-read-then-default-reader': async (t) => {
    let ctl;
    const rs = new ReadableStream({ type: 'bytes', start: (c) => { ctl = c; }, pull: t.fn('pull', 'sync') });
    const byob = rs.getReader({ mode: 'byob' });
    t.track('byob.read', byob.read(new Uint8Array(4)));
    t.track('byob.closed', byob.closed);
    await t.ticks(1);
    t.op('releaseLock', () => byob.releaseLock());
    const reader = rs.getReader();
    t.track('read', reader.read());
    await t.ticks(1);
    t.log(`byobRequest ${t.fmt(ctl.byobRequest?.view)}`);
    ctl.enqueue(bytes(5, 6));
  },
  'byob-enqueue-while-pull-into-pending': async (t) => {
    let ctl;
    const rs = new ReadableStream({ type: 'bytes', start: (c) => { ctl = c; }, pull: t.fn('pull', 'sync') });
    const reader = rs.getReader({ mode: 'byob' });
    t.track('read#1', reader.read(new Uint8Array(2)));
    t.track('read#2', reader.read(new Uint8Array(2)));
    await t.ticks(1);
    ctl.enqueue(bytes(1, 2, 3));
    t.log(`desiredSize ${ctl.desiredSize}`);
    ctl.enqueue(bytes(4));
  },
  'byob-error-with-pending-reads': async (t) => {
    let ctl;
    const rs = new ReadableStream({ type: 'bytes', start: (c) => { ctl = c; } });
    const reader = rs.getReader({ mode: 'byob' });
    t.track('read#1', reader.read(new Uint8Array(2)));
    t.track('read#2', reader.read(new Int32Array(1)));
    t.track('closed', reader.closed);
    await t.ticks(1);
    ctl.error(new Error('byte boom'));
  },
  'default-reader-enqueue-transfers-buffer': async (t) => {
    let ctl;
    const rs = new ReadableStream({ type: 'bytes', start: (c) => { ctl = c; } });
    const reader = rs.getReader();
    const chunk = bytes(1, 2, 3);
    ctl.enqueue(chunk);
    t.log(`after enqueue ${t.fmt(chunk)}`);
    t.quietOp('enqueue detached', () => ctl.enqueue(chunk));
    t.quietOp('enqueue empty', () => ctl.enqueue(new Uint8Array(0)));
    t.track('read', reader.read());
  },
  'default-reader-pending-then-enqueue-views': async (t) => {
    let ctl;
    const rs = new ReadableStream({ type: 'bytes', start: (c) => { ctl = c; }, pull: t.fn('pull', 'sync') });
    const reader = rs.getReader();
    t.track('read#1', reader.read());
    t.track('read#2', reader.read());
    await t.ticks(2);
    ctl.enqueue(new Int16Array([1, 2]));
    ctl.enqueue(new DataView(new ArrayBuffer(3)));
    ctl.close();
    t.track('read#3', reader.read());
  },
  'hwm-zero-pull-on-read-only': async (t) => {
    let n = 0;
    const rs = new ReadableStream({
      type: 'bytes',
      pull: t.fn('pull', 'sync', (c) => { c.enqueue(bytes(++n)); if (n === 2) c.close(); }),
    }, { highWaterMark: 0 });
    await t.ticks(3);
    t.log('reading');
    await t.drain(rs.getReader());
  },
  'byte-stream-size-rejected': (t) => {
    t.op('bytes with size', () => new ReadableStream({ type: 'bytes' }, { size: () => 1 }));
    t.op('autoAllocate 0', () => new ReadableStream({ type: 'bytes', autoAllocateChunkSize: 0 }));
    t.op('bad type', () => new ReadableStream({ type: 'owning-or-not' }));
  },
});

// A released BYOB reader's pending pull-into queues the bytes the source
// writes into it; a default reader's reads wait behind them, and the next
// enqueue() serves the queued chunk, then its own.
scenarios['released-pull-into-queue-serves-reads'] = async (t) => {
  let pulls = 0;
  const rs = new ReadableStream({
    type: 'bytes',
    pull: t.fn('pull', 'sync', (c) => {
      pulls++;
      const request = c.byobRequest;
      if (request !== null) {
        new Uint8Array(request.view.buffer, request.view.byteOffset, 2).fill(pulls);
        t.op('respond', () => request.respond(2));
      } else {
        t.op('enqueue', () => c.enqueue(new Uint8Array(pulls).fill(pulls)));
        if (pulls === 3) c.close();
      }
    }),
  });
  const byob = rs.getReader({ mode: 'byob' });
  t.track('byob.read', byob.read(new Float32Array(4), { min: 2 }));
  byob.releaseLock();
  const reader = rs.getReader();
  for (let i = 1; i <= 4; i++) t.track(`read#${i}`, reader.read());
};

export default scenarios;
