'use strict';
// Real-world shape: a proxy that rewrites a fetched HTML page as it streams
// through: `fetch()` of a local node:http server's chunked response ->
// body.pipeThrough(TextDecoderStream) -> three rewriting TransformStreams
// (origin URLs to the CDN's, <b> and </b> to <strong>; a match may straddle
// chunks) -> TextEncoderStream -> a WritableStream sink that compares each
// chunk with the expected output. `n` requests of a `kb` KiB page, the
// server writing 4 KiB at a time (the body arrives in about 5 chunks here).
// The server runs in this process on an ephemeral port, started before
// bench.start() and closed at the end, so both sides of a comparison do the
// same network work; how the body's bytes are cut into chunks depends on
// the socket reads, as in a real client.
const common = require('../common.js');
const assert = require('assert');
const http = require('http');
const { TextDecoderStream, TextEncoderStream, TransformStream, WritableStream } = require('node:stream/web');
const { TOKENS } = require('./lib/text.js');

const bench = common.createBenchmark(main, {
  n: [600],
  kb: [64],
});

const FROM_URL = 'http://origin.example.com/';
const TO_URL = 'https://cdn.example.net/assets/';

function page(kb) {
  let html = '<!doctype html>\n<html><head><title>Catalogue — page 1</title></head><body>\n';
  for (let i = 0; html.length < kb * 1024 - 200; i++) {
    const word = TOKENS[i % TOKENS.length];
    html += `<div class="item"><a href="${FROM_URL}item/${i}">Item ${i}:${word}</a>` +
      `<img src="${FROM_URL}img/${i}.png" alt="${word}"><b>${i % 7 === 0 ? 'sale' : 'new'}</b></div>\n`;
  }
  return `${html}</body></html>\n`;
}

// Replaces `from` with `to` in a text stream; a match may straddle chunks,
// so the last from.length - 1 characters wait for the next chunk.
function replaceStream(from, to) {
  let carry = '';
  return new TransformStream({
    transform(chunk, controller) {
      const text = carry + chunk;
      let out = '';
      let pos = 0;
      for (let i = text.indexOf(from); i !== -1; i = text.indexOf(from, pos)) {
        out += text.slice(pos, i) + to;
        pos = i + from.length;
      }
      const keep = Math.max(pos, text.length - (from.length - 1));
      out += text.slice(pos, keep);
      carry = text.slice(keep);
      if (out.length > 0) controller.enqueue(out);
    },
    flush(controller) {
      if (carry.length > 0) controller.enqueue(carry);
    },
  });
}

function listen(body) {
  const server = http.createServer((req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    for (let offset = 0; offset < body.length; offset += 4096) res.write(body.subarray(offset, offset + 4096));
    res.end();
  });
  // A stalled stream must let the process exit (and common.js report the
  // stall) rather than hang on the server's handles.
  server.on('connection', (socket) => socket.unref());
  server.unref();
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

async function main({ n, kb }) {
  const html = page(kb);
  const body = Buffer.from(html, 'utf8');
  const expected = Buffer.from(html.replaceAll(FROM_URL, TO_URL).replaceAll('<b>', '<strong>').replaceAll('</b>', '</strong>'), 'utf8');
  assert.ok(expected.length > body.length);
  const server = await listen(body);
  const url = `http://127.0.0.1:${server.address().port}/catalogue`;

  // One request before the clock starts: loads fetch() (undici) and opens
  // the keep-alive connection the timed requests reuse.
  const first = await fetch(url);
  assert.strictEqual(Buffer.compare(Buffer.from(await first.arrayBuffer()), body), 0);

  let total = 0;
  let chunks = 0;
  bench.start();
  for (let i = 0; i < n; i++) {
    const response = await fetch(url);
    if (response.status !== 200) throw new Error(`request ${i}: status ${response.status}`);
    let offset = 0;
    await response.body
      .pipeThrough(new TextDecoderStream())
      .pipeThrough(replaceStream(FROM_URL, TO_URL))
      .pipeThrough(replaceStream('<b>', '<strong>'))
      .pipeThrough(replaceStream('</b>', '</strong>'))
      .pipeThrough(new TextEncoderStream())
      .pipeTo(new WritableStream({
        write(chunk) {
          if (offset + chunk.length > expected.length ||
              expected.compare(chunk, 0, chunk.length, offset, offset + chunk.length) !== 0) {
            throw new Error(`request ${i}: output differs in bytes ${offset}..${offset + chunk.length}`);
          }
          offset += chunk.length;
          chunks++;
        },
      }));
    if (offset !== expected.length) throw new Error(`request ${i}: ${offset} bytes out, expected ${expected.length}`);
    total += offset;
  }
  bench.end(n);
  server.closeAllConnections();
  server.close();
  assert.strictEqual(total, n * expected.length);
  assert.ok(chunks >= n, `${chunks} chunks`);
}
