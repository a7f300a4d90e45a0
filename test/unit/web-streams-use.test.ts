// tools/lib/web-streams-use.ts: which of Node's tests use web streams.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { usesWebStreams } from '../../tools/lib/web-streams-use.ts';

test('tests that reach web streams through Node\'s own APIs are selected', () => {
  for (const source of [
    "const { ReadableStream } = require('stream/web');",
    'new TransformStream({ transform() {} });',
    'const readable = Readable.fromWeb(stream);',
    'const stream = Readable.toWeb(readable, { strategy });',
    'for await (const chunk of blob.stream()) {}',
    'const reader = (await handle).readableWebStream().getReader();',
    "const res = await fetch(`http://localhost:${port}/`);",
    "await new Response('x').text();",
    "Blob.prototype.stream.call(x).pipeThrough(new DecompressionStream('gzip'));",
  ]) assert.ok(usesWebStreams(source), source);
});

test('names in comments, and longer names, do not select a test', () => {
  for (const source of [
    "// Test 'uncork' for WritableStream.\nconst w = fs.createWriteStream(file);",
    '/* a ReadableStream would do too */ socket.on(\'end\', done);',
    "// Sockets have onReadableStreamEnd.\nassert(socket.onReadableStreamEnd);",
    'async function asTransformStream() { return Readable.from([1]); }',
    "assert.strictEqual(typeof EventSource, 'undefined');",
    "const url = 'http://example.com/'; http.get(url);",
  ]) assert.equal(usesWebStreams(source), false, source);
});
