'use strict';

// ReadableStream.from() enqueues the value of each result of an async
// iterator as it is: a promise or a thenable is the chunk itself. Only a
// sync iterator's values are awaited, by the async-from-sync iterator that
// GetIterator(iterable, async) wraps it in.

const common = require('../common');
const assert = require('assert');
const { ReadableStream } = require('stream/web');

async function readAll(stream) {
  const reader = stream.getReader();
  const chunks = [];
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return chunks;
    chunks.push(value);
  }
}

// An async iterator whose next() returns `wrap(result)`.
function asyncIterableOf(values, wrap = (result) => Promise.resolve(result)) {
  return {
    [Symbol.asyncIterator]() {
      let i = 0;
      return {
        next() {
          return wrap(i < values.length ?
            { value: values[i++], done: false } :
            { value: undefined, done: true });
        },
      };
    },
  };
}

(async () => {
  const promise = Promise.resolve('awaited');
  const thenable = { then: common.mustNotCall('then() of a chunk') };

  // A promise and a thenable from an async iterator are chunks.
  const chunks = await readAll(ReadableStream.from(asyncIterableOf([promise, thenable, 'plain'])));
  assert.strictEqual(chunks.length, 3);
  assert.strictEqual(chunks[0], promise);
  assert.strictEqual(chunks[1], thenable);
  assert.strictEqual(chunks[2], 'plain');

  // The same when next() returns its result without a promise.
  const direct = await readAll(ReadableStream.from(asyncIterableOf([promise], (result) => result)));
  assert.strictEqual(direct.length, 1);
  assert.strictEqual(direct[0], promise);

  // A sync iterable's promises are awaited, as before.
  assert.deepStrictEqual(await readAll(ReadableStream.from([Promise.resolve('a'), 'b'])), ['a', 'b']);

  // An async generator awaits what it yields itself.
  async function* generate() {
    yield Promise.resolve('c');
  }
  assert.deepStrictEqual(await readAll(ReadableStream.from(generate())), ['c']);
})().then(common.mustCall());
