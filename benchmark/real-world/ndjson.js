'use strict';
// Real-world shape: an NDJSON (JSON Lines) consumer, as a client reads a
// log export or a streamed API result: UTF-8 bytes in `size`-byte pieces
// (lines and characters split across them) -> TextDecoderStream ->
// textlinestream's TextLineStream (Deno std's line splitter) -> a parser
// TransformStream (JSON.parse per line) -> a mapper TransformStream (a
// filter and a projection) -> a WritableStream sink. `n` records.
// Not one of Node's benchmarks: it needs the textlinestream package.
const common = require('../common.js');
const assert = require('assert');
const { ReadableStream, TextDecoderStream, TransformStream, WritableStream } = require('node:stream/web');
const { TOKENS, splitBytes, midCharacterSplits } = require('./lib/text.js');

const bench = common.createBenchmark(main, {
  n: [2e5],
  size: [1024],
});

const LEVELS = ['debug', 'info', 'warn', 'error'];

function record(i) {
  return {
    id: i,
    ts: 1767225600000 + i * 250,
    level: LEVELS[i & 3],
    user: { name: `user-${i % 97}${TOKENS[i % TOKENS.length]}`, region: i % 3 === 0 ? 'eu-west' : 'us-east' },
    msg: `request ${i}:${TOKENS[(i * 7) % TOKENS.length]}`,
    took: (i % 1000) / 10,
    tags: ['api', i % 5 === 0 ? 'slow' : 'ok'],
  };
}

async function main({ n, size }) {
  // textlinestream's CommonJS entry is broken (a .js file in a "type": "module"
  // package); its ES module entry is the one bundlers and Deno-style code use.
  const { default: TextLineStream } = await import('textlinestream');
  let text = '';
  for (let i = 0; i < n; i++) text += `${JSON.stringify(record(i))}\n`;
  const bytes = Buffer.from(text, 'utf8');
  const chunks = splitBytes(bytes, size);
  if (chunks.length >= 1000) assert.ok(midCharacterSplits(chunks) > 0, 'no mid-character split');

  let next = 0;
  const source = new ReadableStream({
    pull(controller) {
      if (next < chunks.length) controller.enqueue(chunks[next++]);
      else controller.close();
    },
  });
  let parsed = 0;
  const parse = new TransformStream({
    transform(line, controller) {
      parsed++;
      controller.enqueue(JSON.parse(line));
    },
  });
  // Keep warnings and errors, with the fields a dashboard shows.
  const project = new TransformStream({
    transform(r, controller) {
      if (r.level === 'warn' || r.level === 'error') {
        controller.enqueue({ id: r.id, level: r.level, user: r.user.name, msg: r.msg, slow: r.tags.includes('slow') });
      }
    },
  });
  let kept = 0;
  let expectedId = 2;
  let checksum = 0;
  const sink = new WritableStream({
    write(row) {
      // Every record, in order and intact: ids 2, 3, 6, 7, 10, …
      const r = record(expectedId);
      if (row.id !== expectedId || row.level !== r.level || row.user !== r.user.name || row.msg !== r.msg ||
          row.slow !== (expectedId % 5 === 0)) {
        throw new Error(`row ${kept}: expected record ${expectedId}, got ${JSON.stringify(row)}`);
      }
      checksum = (checksum + row.id * 31 + row.msg.length) >>> 0;
      kept++;
      expectedId += (expectedId & 3) === 2 ? 1 : 3;
    },
  });

  bench.start();
  await source
    .pipeThrough(new TextDecoderStream())
    .pipeThrough(new TextLineStream())
    .pipeThrough(parse)
    .pipeThrough(project)
    .pipeTo(sink);
  bench.end(n);
  assert.strictEqual(parsed, n);
  let expectedKept = 0;
  let expectedSum = 0;
  for (let i = 0; i < n; i++) {
    if ((i & 3) >= 2) {
      expectedKept++;
      expectedSum = (expectedSum + i * 31 + record(i).msg.length) >>> 0;
    }
  }
  assert.strictEqual(kept, expectedKept);
  assert.strictEqual(checksum, expectedSum);
}
