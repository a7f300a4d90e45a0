'use strict';
// The streams Node makes for the caller kept alive through young-generation
// collections: Readable.toWeb() of a stream.Readable, or a ReadableStream
// transferred through structuredClone(), one after another, each read to
// the end (four 1 KiB chunks). Nothing refers to a finished stream, and a
// full GC frees them all. Runs on any Node, with or without this project's
// lib injected:
//
//   node --min-semi-space-size=16 --max-semi-space-size=16 --trace-gc-nvp \
//     tools/probe/adapted-retention.cjs [to-web|transferred] [streams] > gc.log
//   node tools/gc-summary.ts gc.log --skip 2
//
// The cause is the one writable-retention.cjs shows: closures stored as
// `obj.prop = () => {…}` (Readable.toWeb()'s pull(), a transferred
// stream's port handlers), which V8 allocates in the old generation.
// doc/series.md, "Closures Node's own adapters pretenure (patch 20)".
const { Readable } = require('node:stream');
const { ReadableStream } = require('node:stream/web');

const mode = process.argv[2] ?? 'to-web';
const streams = Number(process.argv[3] ?? (mode === 'to-web' ? 60000 : 20000));
const chunk = Buffer.alloc(1024);
const CHUNKS = 4;

const makers = {
  'to-web'() {
    const readable = new Readable({ read() {} });
    for (let i = 0; i < CHUNKS; i++) readable.push(chunk);
    readable.push(null);
    return Readable.toWeb(readable);
  },
  'transferred'() {
    let i = 0;
    const stream = new ReadableStream({
      pull(controller) {
        if (i++ < CHUNKS) controller.enqueue(chunk);
        else controller.close();
      },
    });
    return structuredClone(stream, { transfer: [stream] });
  },
};
const make = makers[mode];
if (make === undefined || !Number.isInteger(streams) || streams < 1) {
  console.error('usage: adapted-retention.cjs [to-web|transferred] [streams]');
  process.exit(2);
}

(async () => {
  for (let i = 0; i < streams; i++) {
    let bytes = 0;
    for await (const c of make()) bytes += c.byteLength;
    if (bytes !== CHUNKS * chunk.length) throw new Error(`stream ${i}: ${bytes} bytes`);
  }
})();
