'use strict';
// How many times each web streams function runs per chunk, counted by V8's
// precise coverage (the inspector's call counts, exact, and with no
// instrumented copy of the lib). Four shapes:
//   read:  reader.read() in a loop on a pull source (read-loop.js); counts
//          per read.
//   pipe:  a pull source -> pipeTo(sink) (pipe-to-sink.js); per chunk.
//   chain: a pull source -> K TransformStreams whose transform() re-enqueues
//          -> pipeTo(sink) (pipe-through-chain.js transformer=function);
//          counts per chunk.
//   split: a pull source -> a transform() that enqueues L chunks per chunk
//          (a line splitter) -> a transform() that maps -> one that drops
//          every other chunk -> pipeTo(sink) (the NDJSON shape); counts per
//          split chunk.
// Prints the functions run at least once per 20 units, then their total.
// Not a benchmark: counts say where calls are, not what they cost.
//
//   bin/node-patched tools/probe/calls-per-chunk.cjs read|pipe [chunks=20000]
//   bin/node-patched tools/probe/calls-per-chunk.cjs chain [chunks=20000] [transforms=1]
//   bin/node-base tools/probe/calls-per-chunk.cjs split [chunks=5000] [lines=8]
const inspector = require('node:inspector');
const { ReadableStream, TransformStream, WritableStream } = require('node:stream/web');

const [shape = 'chain', ...rest] = process.argv.slice(2);
const numbers = rest.map(Number);
if (!['read', 'pipe', 'chain', 'split'].includes(shape) || numbers.some((x) => !(Number.isInteger(x) && x > 0)) ||
    (numbers.length > 1 && (shape === 'read' || shape === 'pipe'))) {
  process.stderr.write('usage: calls-per-chunk.cjs read|pipe [chunks] | chain|split [chunks] [transforms|lines] (positive integers)\n');
  process.exit(2);
}
const [chunks = shape === 'split' ? 5000 : 20000, width = shape === 'split' ? 8 : 1] = numbers;

const session = new inspector.Session();
session.connect();
const post = (method, params) => new Promise((resolve, reject) =>
  session.post(method, params, (error, result) => (error ? reject(error) : resolve(result))));

function source() {
  let produced = 0;
  return new ReadableStream({
    pull(controller) {
      if (produced < chunks) controller.enqueue(produced++);
      else controller.close();
    },
  });
}

async function readLoop() {
  const reader = source().getReader();
  for (let reads = 0; ; reads++) {
    const { done } = await reader.read();
    if (done) {
      if (reads !== chunks) throw new Error(`${reads} reads, expected ${chunks}`);
      return;
    }
  }
}

// Returns the run's promise and how many units its counts are divided by.
function run() {
  if (shape === 'read') return { done: readLoop(), units: chunks };
  let readable = source();
  let expected = chunks;
  if (shape === 'chain') {
    for (let i = 0; i < width; i++) {
      readable = readable.pipeThrough(new TransformStream({ transform(chunk, c) { c.enqueue(chunk); } }));
    }
  } else if (shape === 'split') {
    readable = readable
      .pipeThrough(new TransformStream({ transform(chunk, c) { for (let i = 0; i < width; i++) c.enqueue(chunk * width + i); } }))
      .pipeThrough(new TransformStream({ transform(line, c) { c.enqueue(line); } }))
      .pipeThrough(new TransformStream({ transform(line, c) { if (line & 1) c.enqueue(line); } }));
    expected = Math.floor(chunks * width / 2);
  }
  let written = 0;
  const done = readable.pipeTo(new WritableStream({ write() { written++; } }))
    .then(() => {
      if (written !== expected) throw new Error(`the sink got ${written} chunks, expected ${expected}`);
    });
  return { done, units: shape === 'split' ? chunks * width : chunks };
}

async function main() {
  await post('Profiler.enable');
  await post('Profiler.startPreciseCoverage', { callCount: true, detailed: true });
  const { done, units } = run();
  await done;
  const { result } = await post('Profiler.takePreciseCoverage');
  await post('Profiler.stopPreciseCoverage');
  const rows = [];
  for (const script of result) {
    if (!script.url.includes('internal/webstreams/')) continue;
    const file = script.url.slice(script.url.lastIndexOf('/') + 1);
    for (const fn of script.functions) {
      const perUnit = fn.ranges[0].count / units;
      if (perUnit >= 0.05) rows.push({ perUnit, name: `${fn.functionName || '(anonymous)'} ${file}` });
    }
  }
  if (rows.length === 0) throw new Error('no web streams function was counted: is this a lib run by bin/node-base or bin/node-patched?');
  rows.sort((a, b) => b.perUnit - a.perUnit || (a.name < b.name ? -1 : 1));
  for (const { perUnit, name } of rows) console.log(`${perUnit.toFixed(2).padStart(6)}  ${name}`);
  const total = rows.reduce((sum, row) => sum + row.perUnit, 0);
  const unit = { read: 'read', pipe: 'chunk', chain: 'chunk', split: 'split chunk' }[shape];
  const detail = { read: '', pipe: '', chain: `, ${width} transforms`, split: `, ${width} per chunk` }[shape];
  console.log(`${total.toFixed(1).padStart(6)}  calls per ${unit} in all (${shape}, ${chunks} chunks${detail})`);
}

main().catch((error) => {
  process.stderr.write(`${error.stack}\n`);
  process.exitCode = 1;
});
