'use strict';

// A pipe out of an identity TransformStream (new TransformStream()) reads
// as far ahead as one out of a TransformStream whose transform() enqueues
// each chunk: the spec gives both the same steps. A chunk handed over past
// the identity stream that fills the destination must not leave the pipe
// reading one chunk more.

const common = require('../common');
const assert = require('assert');
const {
  ReadableStream,
  TransformStream,
} = require('stream/web');

async function pulledThrough(first) {
  let pulls = 0;
  const source = new ReadableStream({
    pull(controller) {
      pulls++;
      controller.enqueue(pulls);
    },
  }, { highWaterMark: 0 });
  // Nobody reads the end, so the pipeline stalls once every queue is full.
  const last = new TransformStream({
    transform(chunk, controller) {
      controller.enqueue(chunk);
    },
  }, { highWaterMark: 4 });
  source.pipeThrough(first).pipeThrough(last);
  await new Promise((resolve) => setTimeout(resolve, 20));
  return pulls;
}

(async () => {
  for (const [writableHWM, readableHWM] of [[1, 0], [1, 4], [2, 1], [4, 4]]) {
    const identity = await pulledThrough(
      new TransformStream(undefined, { highWaterMark: writableHWM }, { highWaterMark: readableHWM }));
    const enqueuing = await pulledThrough(new TransformStream({
      transform(chunk, controller) {
        controller.enqueue(chunk);
      },
    }, { highWaterMark: writableHWM }, { highWaterMark: readableHWM }));
    assert.strictEqual(identity, enqueuing,
                       `writable ${writableHWM}, readable ${readableHWM}: ` +
                       `${identity} pulls through the identity stream, ${enqueuing} through transform()`);
  }
})().then(common.mustCall());
