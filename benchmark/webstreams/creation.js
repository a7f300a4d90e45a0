'use strict';
// Cost of constructing streams, readers and tee branches with no source.
const common = require('../common.js');
const assert = require('assert');
const {
  ReadableStream,
  ReadableStreamDefaultReader,
  ReadableStreamBYOBReader,
  TransformStream,
  WritableStream,
} = require('node:stream/web');

const bench = common.createBenchmark(main, {
  n: [1e5],
  kind: [
    'ReadableStream',
    'TransformStream',
    'WritableStream',
    'ReadableStreamDefaultReader',
    'ReadableStreamBYOBReader',
    'ReadableStream.tee',
  ],
}, {
  // Each kind collects the setup's garbage before bench.start() (upstream's
  // creation.js, as far as it could be read here, does not): otherwise a
  // scavenge promoting the streams made for the reader and tee kinds can
  // fall inside the timed loop or not, depending on how much the setup
  // allocated.
  flags: ['--expose-gc'],
});

// The kinds differ twentyfold in cost; one count for all would leave the
// cheap ones a few milliseconds. Each kind runs n * scale[kind] operations
// (the reported rate is per object either way). Every object stays alive
// until the loop ends (its start() reaction is a pending microtask), so the
// counts also stay below ~500k objects: more runs older releases out of heap.
const scale = {
  'ReadableStream': 5,
  'TransformStream': 1,
  'WritableStream': 5,
  'ReadableStreamDefaultReader': 5,
  'ReadableStreamBYOBReader': 5,
  'ReadableStream.tee': 2,
};

// Results land in a module-level slot so the loops cannot be optimized away.
let last;

function construct(n, make) {
  globalThis.gc();
  bench.start();
  for (let i = 0; i < n; i++) last = make(i);
  bench.end(n);
}

function main({ n: count, kind }) {
  if (!scale[kind]) throw new Error(`unknown kind ${kind}`);
  const n = count * scale[kind];
  switch (kind) {
    case 'ReadableStream':
      construct(n, () => new ReadableStream());
      assert.ok(last instanceof ReadableStream && !last.locked);
      break;
    case 'WritableStream':
      construct(n, () => new WritableStream());
      assert.ok(last instanceof WritableStream && !last.locked);
      break;
    case 'TransformStream':
      construct(n, () => new TransformStream());
      assert.ok(last instanceof TransformStream && last.readable instanceof ReadableStream);
      break;
    case 'ReadableStreamDefaultReader': {
      const streams = Array.from({ length: n }, () => new ReadableStream());
      construct(n, (i) => new ReadableStreamDefaultReader(streams[i]));
      assert.ok(last instanceof ReadableStreamDefaultReader && streams[n - 1].locked);
      break;
    }
    case 'ReadableStreamBYOBReader': {
      const streams = Array.from({ length: n }, () => new ReadableStream({ type: 'bytes' }));
      construct(n, (i) => new ReadableStreamBYOBReader(streams[i]));
      assert.ok(last instanceof ReadableStreamBYOBReader && streams[n - 1].locked);
      break;
    }
    case 'ReadableStream.tee': {
      const streams = Array.from({ length: n }, () => new ReadableStream());
      construct(n, (i) => streams[i].tee());
      assert.ok(last.length === 2 && last[0] instanceof ReadableStream && streams[n - 1].locked);
      break;
    }
    default:
      throw new Error(`unknown kind ${kind}`);
  }
}
