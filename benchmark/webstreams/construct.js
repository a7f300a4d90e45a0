'use strict';
// Real-world shape: constructing streams the way applications do, with an
// underlying source / sink / transformer and a queuing strategy (creation.js
// covers the empty constructors).
const common = require('../common.js');
const assert = require('assert');
const { ReadableStream, WritableStream, TransformStream, CountQueuingStrategy } = require('node:stream/web');

const bench = common.createBenchmark(main, {
  n: [1e5],
  kind: ['ReadableStream', 'WritableStream', 'TransformStream'],
});

const strategy = new CountQueuingStrategy({ highWaterMark: 16 });
let last;

const make = {
  ReadableStream: () => new ReadableStream({
    start() {},
    pull(controller) {
      controller.enqueue(1);
    },
    cancel() {},
  }, strategy),
  WritableStream: () => new WritableStream({
    start() {},
    write() {},
    close() {},
    abort() {},
  }, strategy),
  TransformStream: () => new TransformStream({
    start() {},
    transform(chunk, controller) {
      controller.enqueue(chunk);
    },
    flush() {},
  }, strategy, strategy),
};

async function main({ n, kind }) {
  const create = make[kind];
  assert.ok(create, `unknown kind ${kind}`);
  bench.start();
  for (let i = 0; i < n; i++) last = create();
  bench.end(n);
  assert.ok(last instanceof { ReadableStream, WritableStream, TransformStream }[kind]);
  // The last one works.
  if (kind === 'ReadableStream') {
    assert.strictEqual((await last.getReader().read()).value, 1);
  } else if (kind === 'WritableStream') {
    await last.getWriter().write('x');
  } else {
    const writer = last.writable.getWriter();
    writer.write('x');
    assert.strictEqual((await last.readable.getReader().read()).value, 'x');
  }
}
