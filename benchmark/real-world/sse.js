'use strict';
// Real-world shape: a Server-Sent Events client, as a chat UI reads a
// streamed completion: UTF-8 bytes in `size`-byte pieces (the boundaries
// fall inside multi-byte characters) -> TextDecoderStream ->
// eventsource-parser's EventSourceParserStream -> a mapper TransformStream
// (JSON.parse of each event's data) -> a WritableStream sink. `n` events.
// Not one of Node's benchmarks: it needs the eventsource-parser package.
const common = require('../common.js');
const assert = require('assert');
const { ReadableStream, TextDecoderStream, TransformStream, WritableStream } = require('node:stream/web');
const { EventSourceParserStream } = require('eventsource-parser/stream');
const { TOKENS, splitBytes, midCharacterSplits } = require('./lib/text.js');

const bench = common.createBenchmark(main, {
  n: [3e5],
  size: [512],
});

function payload(n) {
  let text = ': stream opened\n\n';
  for (let i = 0; i < n; i++) {
    // The fields an OpenAI-style completion stream sends, one comment in 16.
    text += `id: ${i}\nevent: delta\ndata: {"index":${i},"delta":${JSON.stringify(TOKENS[i % TOKENS.length])}}\n\n`;
    if (i % 16 === 15) text += ': keep-alive\n\n';
  }
  return Buffer.from(text, 'utf8');
}

async function main({ n, size }) {
  const bytes = payload(n);
  const chunks = splitBytes(bytes, size);
  // The shape's point: the decoder must carry partial characters across chunks.
  if (chunks.length >= 1000) assert.ok(midCharacterSplits(chunks) > 0, 'no mid-character split');

  let next = 0;
  const source = new ReadableStream({
    pull(controller) {
      if (next < chunks.length) controller.enqueue(chunks[next++]);
      else controller.close();
    },
  });
  const mapper = new TransformStream({
    transform(message, controller) {
      const data = JSON.parse(message.data);
      controller.enqueue({ id: Number(message.id), type: message.event, index: data.index, text: data.delta });
    },
  });
  let received = 0;
  let characters = 0;
  const sink = new WritableStream({
    write(event) {
      // Every event, in order, intact (a chunk lost or split wrongly upstream
      // breaks the JSON, the id sequence or the text).
      if (event.id !== received || event.index !== received || event.type !== 'delta' ||
          event.text !== TOKENS[received % TOKENS.length]) {
        throw new Error(`event ${received}: got ${JSON.stringify(event)}`);
      }
      characters += event.text.length;
      received++;
    },
  });

  bench.start();
  await source
    .pipeThrough(new TextDecoderStream())
    .pipeThrough(new EventSourceParserStream())
    .pipeThrough(mapper)
    .pipeTo(sink);
  bench.end(n);
  assert.strictEqual(received, n);
  assert.strictEqual(next, chunks.length);
  let expected = 0;
  for (let i = 0; i < n; i++) expected += TOKENS[i % TOKENS.length].length;
  assert.strictEqual(characters, expected);
}
