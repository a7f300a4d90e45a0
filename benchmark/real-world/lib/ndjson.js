'use strict';
// The NDJSON workload of real-world/ndjson.js, shared with its model
// (model/ndjson.js): the bytes, the pipeline, the application's parser,
// projection and sink check.
const assert = require('assert');
const { TOKENS, splitBytes, midCharacterSplits } = require('./text.js');

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

/** `n` records, one JSON text per line, in `size`-byte pieces. */
function ndjsonChunks(n, size) {
  let text = '';
  for (let i = 0; i < n; i++) text += `${JSON.stringify(record(i))}\n`;
  const chunks = splitBytes(Buffer.from(text, 'utf8'), size);
  if (chunks.length >= 1000) assert.ok(midCharacterSplits(chunks) > 0, 'no mid-character split');
  return chunks;
}

/** The parser's transform(): one record per line; `counter.parsed` counts them. */
function parseLine(counter) {
  return (line, controller) => {
    counter.parsed++;
    controller.enqueue(JSON.parse(line));
  };
}

/** The projection's transform(): warnings and errors, with the fields a dashboard shows. */
function project(r, controller) {
  if (r.level === 'warn' || r.level === 'error') {
    controller.enqueue({ id: r.id, level: r.level, user: r.user.name, msg: r.msg, slow: r.tags.includes('slow') });
  }
}

/**
 * The pipeline on web streams, once its package is loaded: a function of
 * (source, counter, write) piping `source` -> TextDecoderStream ->
 * TextLineStream -> the parser -> the projection -> a sink calling
 * `write`. textlinestream's CommonJS entry is broken (a .js file in a
 * "type": "module" package); its ES module entry is the one bundlers and
 * Deno-style code use.
 */
async function loadNdjsonPipeline() {
  const { TextDecoderStream, TransformStream, WritableStream } = require('node:stream/web');
  const { default: TextLineStream } = await import('textlinestream');
  return (source, counter, write) => source
    .pipeThrough(new TextDecoderStream())
    .pipeThrough(new TextLineStream())
    .pipeThrough(new TransformStream({ transform: parseLine(counter) }))
    .pipeThrough(new TransformStream({ transform: project }))
    .pipeTo(new WritableStream({ write }));
}

/** The sink: write() checks every row, in order and intact; done(n) checks the count and sum. */
function rowSink() {
  let kept = 0;
  let expectedId = 2;
  let checksum = 0;
  return {
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
    done(n) {
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
    },
  };
}

module.exports = { ndjsonChunks, parseLine, project, loadNdjsonPipeline, rowSink };
