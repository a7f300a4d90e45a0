'use strict';
// What a pending plain pipe (new ReadableStream() piped to new
// WritableStream(), both kept) retains, by heap-snapshot node kind: the
// objects of which at least one per pipe appeared, bytes per pipe. Run with
// the lib to measure:
//
//   LAYERS=16 bin/node-patched --expose-gc test/helpers/pipe-retained.cjs
const { ReadableStream, WritableStream } = require('node:stream/web');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const v8 = require('node:v8');

if (typeof globalThis.gc !== 'function') throw new Error('run with --expose-gc');
const pipes = 2000;

function byKind() {
  globalThis.gc();
  const file = v8.writeHeapSnapshot(path.join(os.tmpdir(), `pipe-retained-${process.pid}.heapsnapshot`));
  const snapshot = JSON.parse(fs.readFileSync(file, 'utf8'));
  fs.unlinkSync(file);
  const meta = snapshot.snapshot.meta;
  const width = meta.node_fields.length;
  const type = meta.node_fields.indexOf('type');
  const name = meta.node_fields.indexOf('name');
  const size = meta.node_fields.indexOf('self_size');
  const kinds = new Map();
  for (let i = 0; i < snapshot.nodes.length; i += width) {
    const key = `${meta.node_types[0][snapshot.nodes[i + type]]} ${snapshot.strings[snapshot.nodes[i + name]].slice(0, 40)}`;
    const entry = kinds.get(key) ?? { count: 0, bytes: 0 };
    entry.count++;
    entry.bytes += snapshot.nodes[i + size];
    kinds.set(key, entry);
  }
  return kinds;
}

const before = byKind();
const kept = [];
for (let i = 0; i < pipes; i++) {
  const readable = new ReadableStream();
  const writable = new WritableStream();
  kept.push(readable, writable, readable.pipeTo(writable));
}
const after = byKind();
const rows = [];
for (const [key, { count, bytes }] of after) {
  const old = before.get(key) ?? { count: 0, bytes: 0 };
  if (count - old.count >= pipes) rows.push({ key, count: (count - old.count) / pipes, bytes: (bytes - old.bytes) / pipes });
}
rows.sort((a, b) => b.bytes - a.bytes);
let total = 0;
let closures = 0;
for (const row of rows) {
  total += row.bytes;
  if (row.key.startsWith('closure')) closures += row.count;
  console.log(`${row.bytes.toFixed(0).padStart(6)} B  ${row.count.toFixed(2).padStart(5)} × ${row.key}`);
}
console.log(`per pending pipe with its two streams: ${total.toFixed(0)} B, ${closures} closures (${kept.length / 3} pipes)`);
