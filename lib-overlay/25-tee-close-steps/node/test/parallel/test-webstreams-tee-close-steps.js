'use strict';

// A default stream's tee() closes its branches in the close steps of its
// read, as ReadableStreamDefaultTee does: a branch's read of a closed
// source settles within microtasks, not after a process.nextTick() that
// waits for the microtask queue to drain. A chunk the source enqueues just
// before it closes still reaches both branches.

const common = require('../common');
const assert = require('assert');
const { ReadableStream } = require('stream/web');

{
  const stream = new ReadableStream({
    pull: common.mustCall((controller) => controller.close()),
  });
  const [branch1, branch2] = stream.tee();
  const done = [];
  branch1.getReader().read().then(common.mustCall(({ done: d }) => { done.push(`1:${d}`); }));
  branch2.getReader().read().then(common.mustCall(({ done: d }) => { done.push(`2:${d}`); }));
  // Keep the microtask queue busy: a process.nextTick() runs only once it
  // is empty, after this loop.
  (async () => {
    for (let i = 0; i < 20; i++) await undefined;
    assert.deepStrictEqual(done, ['1:true', '2:true']);
  })().then(common.mustCall());
}

{
  // The source enqueues a chunk and closes at once while both branches wait
  // to read. The chunk is forwarded in a microtask; a branch's pull during
  // that only marks a read to do again after branch 2 has the chunk too, so
  // the read that finds the source closed cannot close branch 2 first.
  let controller;
  const stream = new ReadableStream({ start(c) { controller = c; } });
  const [branch1, branch2] = stream.tee();
  const read = async (branch) => {
    const chunks = [];
    for await (const chunk of branch) chunks.push(chunk);
    return chunks;
  };
  Promise.all([read(branch1), read(branch2)]).then(common.mustCall((results) => {
    assert.deepStrictEqual(results, [['chunk'], ['chunk']]);
  }));
  setImmediate(() => {
    controller.enqueue('chunk');
    controller.close();
  });
}
