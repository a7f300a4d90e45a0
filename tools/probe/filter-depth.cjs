'use strict';
// How far ahead of the sink a chain of synchronous transform()s runs, and
// how a filter changes that: source -> K transforms -> sink, the last
// transform() dropping every `drop`th chunk (0: none). At every sink write
// it notes the depth, how many chunks the first transform() has taken
// beyond the one written, and prints the depths seen in each block of
// 1,000 writes with the rate. Only the streams' callbacks are observed,
// so it runs on any lib. Not a benchmark: compare libs with
// tools/compare.ts (pipe-through-chain.js transformer=filter).
//
//   bin/node-base tools/probe/filter-depth.cjs [chunks=20000] [transforms=3] [drop=16]
//   bin/node-patched tools/probe/filter-depth.cjs 20000 3 16
const { ReadableStream, TransformStream, WritableStream } = require('node:stream/web');

const [chunks = 20000, transforms = 3, drop = 16] = process.argv.slice(2).map(Number);
const BLOCK = 1000;

async function main() {
  let produced = 0;
  let firstSeen = -1;
  let readable = new ReadableStream({
    pull(controller) {
      if (produced < chunks) controller.enqueue(produced++);
      else controller.close();
    },
  });
  for (let i = 0; i < transforms; i++) {
    const first = i === 0;
    const filters = drop > 0 && i === transforms - 1;
    readable = readable.pipeThrough(new TransformStream({
      transform(chunk, controller) {
        if (first) firstSeen = chunk;
        if (!filters || chunk % drop !== drop - 1) controller.enqueue(chunk);
      },
    }));
  }
  let depths = new Set();
  let writes = 0;
  let started = process.hrtime.bigint();
  await readable.pipeTo(new WritableStream({
    write(chunk) {
      depths.add(firstSeen - chunk);
      if (++writes % BLOCK === 0) {
        const now = process.hrtime.bigint();
        const rate = (BLOCK / (Number(now - started) / 1e9) / 1e6).toFixed(2);
        console.log(`writes ${writes - BLOCK}-${writes - 1}: depth ${[...depths].sort((a, b) => a - b).join(',')}, ${rate}M writes/s`);
        depths = new Set();
        started = now;
      }
    },
  }));
}

main();
