'use strict';
// Real-world shape: `await new Response(stream).text()`, how fetch-style
// code reads a whole text body: a stream of `chunks` pieces of `size` bytes
// of UTF-8 text (the boundaries fall inside multi-byte characters), decoded
// by the Response body reader. `n` bodies. The webstreams/response.js twin
// reads bytes with arrayBuffer().
const common = require('../common.js');
const assert = require('assert');
const { ReadableStream } = require('node:stream/web');
const { TOKENS, splitBytes, midCharacterSplits } = require('./lib/text.js');

const bench = common.createBenchmark(main, {
  n: [8e3],
  chunks: [64],
  size: [1024],
});

async function main({ n, chunks, size }) {
  let text = '';
  for (let i = 0; Buffer.byteLength(text) < chunks * size; i++) text += `${i}${TOKENS[i % TOKENS.length]} `;
  const bytes = Buffer.from(text, 'utf8').subarray(0, chunks * size);
  // Cut at a character boundary at the end, so the body is valid UTF-8.
  let end = bytes.length;
  while (end > 0 && (bytes[end] & 0xc0) === 0x80) end--;
  const body = bytes.subarray(0, end);
  const expected = body.toString('utf8');
  const pieces = splitBytes(body, size);
  if (pieces.length >= 16) assert.ok(midCharacterSplits(pieces) > 0, 'no mid-character split');

  const makeBody = () => {
    let i = 0;
    return new ReadableStream({
      pull(controller) {
        if (i < pieces.length) controller.enqueue(pieces[i++]);
        else controller.close();
      },
    });
  };

  bench.start();
  for (let i = 0; i < n; i++) {
    const result = await new Response(makeBody()).text();
    if (result !== expected) throw new Error(`body ${i}: ${result.length} characters, expected ${expected.length}`);
  }
  bench.end(n);
}
