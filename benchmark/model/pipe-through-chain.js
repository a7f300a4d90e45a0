'use strict';
// webstreams/pipe-through-chain.js transformer='function' (a pull source ->
// K TransformStreams whose transform() re-enqueues -> pipeTo(sink)) against
// the floor the spec leaves such a chain (lib/minimal-streams.js
// minimalChain): one pull settlement and one sink-write settlement per
// chunk, whatever K, and no transform() or sink write() inside the
// enqueue() that handed it its chunk. Unlike the other models, this one
// does not take the stream's own turns: it bounds what an implementation
// using the spec's latitude for pipes could reach, and the gap to it is
// what a chain of synchronous transforms still spends on turns and
// bookkeeping. impl='userland' runs the chain on the userland library
// (lib/userland-streams.js), n chunks.
const common = require('../common.js');
const assert = require('assert');
const { ReadableStream, TransformStream, WritableStream } = require('node:stream/web');
const { MinimalReadable, MinimalWriter, minimalChain } = require('./lib/minimal-streams.js');
const { userlandStreams } = require('./lib/userland-streams.js');

const bench = common.createBenchmark(main, {
  impl: ['webstreams', 'model', 'userland'],
  n: [3e5],
  transforms: [1, 3, 8],
  size: [1024],
});

// The model runs 10 x n chunks (about 14M chunks/s against the web streams'
// 0.6-3.5M here), so that its runs are not a few milliseconds long; rates are
// per chunk either way.
const MODEL_MULTIPLE = 10;

async function main({ impl, n: chunks, transforms, size }) {
  const n = impl === 'model' ? chunks * MODEL_MULTIPLE : chunks;
  const pool = Array.from({ length: 256 }, (_, i) => new Uint8Array(size).fill(i));
  let produced = 0;
  const pull = (controller) => {
    if (produced < n) controller.enqueue(pool[produced++ & 0xff]);
    else controller.close();
  };
  let transformed = 0;
  const transform = (chunk, controller) => {
    transformed++;
    controller.enqueue(chunk);
  };
  let written = 0;
  let bytes = 0;
  let closed = false;
  const write = (chunk) => {
    if (chunk !== pool[written & 0xff]) throw new Error(`write ${written}: chunk out of order`);
    bytes += chunk.byteLength;
    written++;
  };
  const close = () => {
    closed = true;
  };

  if (impl === 'model') {
    const source = new MinimalReadable(pull);
    const writer = new MinimalWriter(write, close);
    bench.start();
    await minimalChain(source, Array.from({ length: transforms }, () => transform), writer);
  } else {
    const streams = impl === 'userland' ? await userlandStreams() : { ReadableStream, TransformStream, WritableStream };
    let readable = new streams.ReadableStream({ pull });
    for (let i = 0; i < transforms; i++) readable = readable.pipeThrough(new streams.TransformStream({ transform }));
    const sink = new streams.WritableStream({ write, close });
    bench.start();
    await readable.pipeTo(sink);
  }
  bench.end(n);
  assert.strictEqual(written, n);
  assert.strictEqual(bytes, n * size);
  assert.strictEqual(transformed, n * transforms);
  assert.ok(closed);
}
