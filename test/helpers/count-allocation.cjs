'use strict';
// Preload (-r): prints how many bytes the V8 heap allocated while the
// process ran, collected or not, on exit, as `allocated: N` on stderr. Per
// chunk: the difference between two runs of a benchmark with different
// `n`, divided by the difference in `n` (start-up and set-up cancel out).
const { getHeapStatistics } = require('v8');

const start = getHeapStatistics().total_allocated_bytes;
process.on('exit', () => {
  process.stderr.write(`allocated: ${getHeapStatistics().total_allocated_bytes - start}\n`);
});
