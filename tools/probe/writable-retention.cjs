'use strict';
// Stock Node's webstreams keep finished WritableStreams alive through
// young-generation collections when the young generation is large: one
// stream after another, each written once and closed, the next started
// when the close settles. Nothing refers to a finished stream, and a
// full GC frees them all, yet each scavenge keeps megabytes of them.
// Runs on any Node, with or without this project's lib injected:
//
//   node --min-semi-space-size=16 --max-semi-space-size=16 --trace-gc-nvp \
//     tools/probe/writable-retention.cjs [streams=200000] > gc.log
//   node tools/gc-summary.ts gc.log --skip 2
//
// `write` or `close` as the second argument does only that. On v26.12.1
// write-close kept 1.8-3.6 MB per scavenge, write alone 1.2-2.3 MB and
// close alone 1-2 KB (four runs each); with patch 19, 2 KB. The cause:
// the write reactions are stored as `state.f = () => {…}`, which V8
// allocates in the old generation unless TurboFan compiled the code.
// doc/series.md, "The retention found: closures V8 pretenures (patch
// 19)", has the rest.
const { WritableStream } = require('node:stream/web');

const streams = Number(process.argv[2] ?? 200000);
const mode = process.argv[3] ?? 'write-close';
const steps = {
  'write-close': (writer) => { writer.write(1); return writer.close(); },
  'write': (writer) => writer.write(1),
  'close': (writer) => writer.close(),
}[mode];
if (steps === undefined || !Number.isInteger(streams) || streams < 1) {
  console.error('usage: writable-retention.cjs [streams] [write-close|write|close]');
  process.exit(2);
}

(function next(i) {
  if (i === streams) return;
  steps(new WritableStream({ write() {} }).getWriter()).then(() => next(i + 1));
})(0);
