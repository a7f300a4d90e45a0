'use strict';

// A BYOB read (and an auto-allocated default read) returns a view whose
// buffer nobody else holds: not the reader's buffer, not any buffer a
// byobRequest.view has shown to the source, whichever way the source
// fills the request (respond, respondWithNewView, enqueue).

const common = require('../common');
const assert = require('assert');
const { ReadableStream } = require('stream/web');

// Every ArrayBuffer the source could have kept a reference to.
function tracked() {
  const seen = [];
  function assertFresh(result) {
    for (const buffer of seen) {
      assert.notStrictEqual(result.buffer, buffer);
      assert.ok(buffer.detached, 'a buffer the source saw is still attached');
    }
  }
  return {
    seen,
    keep(view) {
      seen.push(view.buffer);
      return view;
    },
    assertFresh,
  };
}

const fillers = {
  respond(controller, t, byte) {
    const view = t.keep(controller.byobRequest.view);
    view[0] = byte;
    controller.byobRequest.respond(1);
  },
  respondWithNewView(controller, t, byte) {
    const old = t.keep(controller.byobRequest.view);
    const view = t.keep(new Uint8Array(old.buffer, old.byteOffset, 1));
    view[0] = byte;
    controller.byobRequest.respondWithNewView(view);
  },
  enqueue(controller, t, byte) {
    t.keep(controller.byobRequest.view);
    const chunk = t.keep(new Uint8Array([byte]));
    controller.enqueue(chunk);
  },
};

// Three reads, each of which the source fills with one byte.
function sourceFilledBy(fill, t, options) {
  let byte = 0;
  return new ReadableStream({
    type: 'bytes',
    ...options,
    pull(controller) {
      fill(controller, t, ++byte);
    },
  });
}

async function readThree(read, t) {
  for (let i = 1; i <= 3; i++) {
    const { value, done } = await read();
    assert.strictEqual(done, false);
    assert.deepStrictEqual([...value], [i]);
    t.assertFresh(value);
  }
}

async function byobRead(fill) {
  const t = tracked();
  const reader = sourceFilledBy(fill, t).getReader({ mode: 'byob' });
  await readThree(() => reader.read(t.keep(new Uint8Array(4))), t);
}

async function autoAllocatedRead(fill) {
  const t = tracked();
  const reader = sourceFilledBy(fill, t, { autoAllocateChunkSize: 8 }).getReader();
  await readThree(() => reader.read(), t);
}

// Two reads in flight: the second descriptor is filled only after the
// first, its buffer never shown to the source before that.
async function queuedReads() {
  const t = tracked();
  let controller;
  const stream = new ReadableStream({
    type: 'bytes',
    start(c) { controller = c; },
  });
  const reader = stream.getReader({ mode: 'byob' });
  const first = reader.read(t.keep(new Uint8Array(2)));
  const second = reader.read(t.keep(new Uint8Array(2)));
  t.keep(controller.byobRequest.view);
  controller.enqueue(t.keep(new Uint8Array([1, 2, 3, 4])));
  for (const { value } of [await first, await second]) t.assertFresh(value);
}

(async () => {
  for (const fill of Object.values(fillers)) {
    await byobRead(fill);
    await autoAllocatedRead(fill);
  }
  await queuedReads();
})().then(common.mustCall());
