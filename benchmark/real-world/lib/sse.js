'use strict';
// The Server-Sent Events workload of real-world/sse.js, shared with its
// model (model/sse.js): the bytes, the pipeline, the application's mapper
// and sink check.
const assert = require('assert');
const { TOKENS, splitBytes, midCharacterSplits } = require('./text.js');

/** `n` events as an OpenAI-style completion stream sends them, in `size`-byte pieces. */
function sseChunks(n, size) {
  let text = ': stream opened\n\n';
  for (let i = 0; i < n; i++) {
    // The fields such a stream sends, one comment in 16.
    text += `id: ${i}\nevent: delta\ndata: {"index":${i},"delta":${JSON.stringify(TOKENS[i % TOKENS.length])}}\n\n`;
    if (i % 16 === 15) text += ': keep-alive\n\n';
  }
  const chunks = splitBytes(Buffer.from(text, 'utf8'), size);
  // The shape's point: the decoder must carry partial characters across chunks.
  if (chunks.length >= 1000) assert.ok(midCharacterSplits(chunks) > 0, 'no mid-character split');
  return chunks;
}

/** The mapper's transform(): each parsed event's JSON data, as the UI uses it. */
function mapEvent(message, controller) {
  const data = JSON.parse(message.data);
  controller.enqueue({ id: Number(message.id), type: message.event, index: data.index, text: data.delta });
}

/**
 * The pipeline on web streams: `source` -> TextDecoderStream ->
 * EventSourceParserStream -> the mapper -> a sink calling `write`. The
 * package is loaded here, on first use, so that model/sse.js can load it
 * its own way.
 */
function ssePipeline(source, write) {
  const { TextDecoderStream, TransformStream, WritableStream } = require('node:stream/web');
  const { EventSourceParserStream } = require('eventsource-parser/stream');
  return source
    .pipeThrough(new TextDecoderStream())
    .pipeThrough(new EventSourceParserStream())
    .pipeThrough(new TransformStream({ transform: mapEvent }))
    .pipeTo(new WritableStream({ write }));
}

/** The sink: write() checks every event, in order and intact; done(n) checks the count. */
function eventSink() {
  let received = 0;
  let characters = 0;
  return {
    write(event) {
      // A chunk lost or split wrongly upstream breaks the JSON, the id
      // sequence or the text.
      if (event.id !== received || event.index !== received || event.type !== 'delta' ||
          event.text !== TOKENS[received % TOKENS.length]) {
        throw new Error(`event ${received}: got ${JSON.stringify(event)}`);
      }
      characters += event.text.length;
      received++;
    },
    done(n) {
      assert.strictEqual(received, n);
      let expected = 0;
      for (let i = 0; i < n; i++) expected += TOKENS[i % TOKENS.length].length;
      assert.strictEqual(characters, expected);
    },
  };
}

module.exports = { sseChunks, mapEvent, ssePipeline, eventSink };
