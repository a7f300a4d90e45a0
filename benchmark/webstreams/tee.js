'use strict';
// Steady-state tee(): both branches read together, chunk by chunk.
const common = require('../common.js');
const assert = require('assert');
const { ReadableStream } = require('node:stream/web');

const bench = common.createBenchmark(main, {
  n: [2e5],
  type: ['normal', 'bytes'],
});

// Byte tee clones every chunk and costs about four times the default tee;
// the default tee moves 4 * n chunks so both take similar time.
async function main({ n: count, type }) {
  const n = type === 'bytes' ? count : 4 * count;
  let produced = 0;
  const source = type === 'bytes' ? {
    type: 'bytes',
    pull(controller) {
      if (produced >= n) return controller.close();
      const chunk = new Uint8Array(16);
      chunk[0] = produced++ & 0xff;
      controller.enqueue(chunk);
    },
  } : {
    pull(controller) {
      if (produced >= n) controller.close();
      else controller.enqueue(produced++);
    },
  };
  const [branch1, branch2] = new ReadableStream(source).tee();
  const reader1 = branch1.getReader();
  const reader2 = branch2.getReader();
  const same = type === 'bytes' ?
    (a, b, i) => a.byteLength === 16 && b.byteLength === 16 && a[0] === (i & 0xff) && b[0] === (i & 0xff) :
    (a, b, i) => a === i && b === i;

  let reads = 0;
  bench.start();
  for (;;) {
    const [result1, result2] = await Promise.all([reader1.read(), reader2.read()]);
    if (result1.done || result2.done) {
      assert.ok(result1.done && result2.done, 'one branch ended early');
      break;
    }
    if (!same(result1.value, result2.value, reads)) throw new Error(`read ${reads}: the branches disagree`);
    reads++;
  }
  bench.end(reads);
  assert.strictEqual(reads, n);
}
