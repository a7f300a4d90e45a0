'use strict';
// How a pipe chain's speed develops: `rounds` pipelines, one after another,
// each source.pipeThrough(t1)…pipeThrough(tK).pipeTo(sink) with
// synchronous transform()s, new streams every round. Prints, for each
// round, the ns per chunk of every block of `block` chunks, then every
// round's rate, so warm-up (V8 tiering a fresh process's code) and the
// steady state of a process that has run many streams can be told apart.
// Not a benchmark: compare libs with tools/compare.ts.
//
//   bin/node-base tools/probe/chain-rounds.cjs [chunks=300000] [transforms=1] [rounds=4] [block=25000]
//   bin/node-patched tools/probe/chain-rounds.cjs 300000 1 4
const { ReadableStream, TransformStream, WritableStream } = require('node:stream/web');

const args = process.argv.slice(2).map(Number);
if (args.length > 4 || args.some((x) => !(Number.isInteger(x) && x > 0))) {
  process.stderr.write('usage: chain-rounds.cjs [chunks] [transforms] [rounds] [block] (positive integers)\n');
  process.exit(2);
}
const [chunks = 300000, transforms = 1, rounds = 4, BLOCK = 25000] = args;
const pool = Array.from({ length: 256 }, (_, i) => new Uint8Array(1024).fill(i));

async function round(blocks) {
  let produced = 0;
  let readable = new ReadableStream({
    pull(controller) {
      if (produced < chunks) controller.enqueue(pool[produced++ & 0xff]);
      else controller.close();
    },
  });
  for (let i = 0; i < transforms; i++) {
    readable = readable.pipeThrough(new TransformStream({
      transform(chunk, controller) { controller.enqueue(chunk); },
    }));
  }
  let written = 0;
  const start = process.hrtime.bigint();
  let blockStart = start;
  await readable.pipeTo(new WritableStream({
    write(chunk) {
      if (chunk !== pool[written & 0xff]) throw new Error(`chunk ${written} out of order`);
      if (++written % BLOCK === 0) {
        const now = process.hrtime.bigint();
        blocks.push(Number(now - blockStart) / BLOCK);
        blockStart = now;
      }
    },
  }));
  if (written !== chunks) throw new Error(`${written} chunks written, ${chunks} expected`);
  return chunks / (Number(process.hrtime.bigint() - start) / 1e9);
}

(async () => {
  const rates = [];
  for (let i = 0; i < rounds; i++) {
    const blocks = [];
    rates.push(await round(blocks));
    console.log(`round ${i + 1}, ns per chunk by ${BLOCK} chunks: ${blocks.map((ns) => ns.toFixed(0)).join(' ')}`);
  }
  console.log(`rounds (M chunks/s): ${rates.map((r) => (r / 1e6).toFixed(2)).join(' ')}`);
})();
