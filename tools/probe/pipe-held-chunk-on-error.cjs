'use strict';
// The fuzz finding fuzz/drops-seed-3-12077 (doc/testing.md, "Long fuzz runs, and what they found")
// by hand: r0 -> ts1 (asynchronous transform() dropping every third chunk)
// -> ts2 (synchronous, high water marks 1) -> a reader that reads once,
// then reads again and the source errors `delay` microtasks later
// (-1: the error first, as in the program). Prints whether the pipe
// r1 -> ts2 settled (r2.closed rejected, r1 and ts2.writable unlocked) or
// still waits for the write of a chunk it read before the error.
//
//   bin/node-base tools/probe/pipe-held-chunk-on-error.cjs [delay=-1]
//   bin/node-patched tools/probe/pipe-held-chunk-on-error.cjs 0
const { ReadableStream, TransformStream } = require('node:stream/web');

const delay = Number(process.argv[2] ?? -1);
let controller;
const r0 = new ReadableStream({
  start(c) {
    controller = c;
    for (const chunk of ['c1', 'c2', 'c3']) c.enqueue(chunk);
    return { then(resolve) { resolve(); } };
  },
});
let calls = 0;
const ts1 = new TransformStream({
  async transform(chunk, c) { if (calls++ % 3 !== 2) c.enqueue(chunk); },
}, { highWaterMark: 4 }, { highWaterMark: 1 });
const r1 = r0.pipeThrough(ts1);
const ts2 = new TransformStream({
  transform(chunk, c) { c.enqueue(chunk); },
}, { highWaterMark: 1 }, { highWaterMark: 1 });
const r2 = r1.pipeThrough(ts2);
controller.enqueue('c4');
controller.enqueue('c5');
const reader = r2.getReader();
let closed = 'pending';
reader.closed.then(() => { closed = 'fulfilled'; }, (error) => { closed = `rejected (${error.message})`; });
const fail = () => controller.error(new Error('source error'));

reader.read().then(() => setTimeout(() => {
  if (delay < 0) fail();
  reader.read().catch(() => {});
  let later = Promise.resolve();
  for (let i = 0; i < delay; i++) later = later.then(() => {});
  if (delay >= 0) later.then(fail);
  setTimeout(() => {
    console.log(`delay ${delay}: r2.closed ${closed}; r1 locked ${r1.locked}, ts2.writable locked ${ts2.writable.locked}`);
  }, 50);
}, 0));
