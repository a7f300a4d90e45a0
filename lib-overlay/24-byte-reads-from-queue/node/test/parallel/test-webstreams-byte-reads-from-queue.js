'use strict';

// A byte stream whose queue holds fewer chunks than a default reader has
// reads waiting serves the reads from the queue while it lasts, and the
// chunk enqueue() brings to the next one. Such a queue comes from the
// pending pull-into of a released BYOB reader: the bytes the source
// writes into it are queued, not handed to a read.

const common = require('../common');
const assert = require('assert');
const { ReadableStream } = require('stream/web');

(async () => {
  let pulls = 0;
  const stream = new ReadableStream({
    type: 'bytes',
    pull: common.mustCall((controller) => {
      pulls++;
      const request = controller.byobRequest;
      if (request !== null) {
        // The released BYOB reader's read: two bytes into its view.
        new Uint8Array(request.view.buffer, request.view.byteOffset, 2).fill(pulls);
        request.respond(2);
      } else {
        // Must not throw: with more reads than queued chunks, the bug asserted
        // on an empty queue here.
        controller.enqueue(new Uint8Array(pulls).fill(pulls));
        if (pulls === 3) controller.close();
      }
    }, 3),
  });
  const byob = stream.getReader({ mode: 'byob' });
  assert.rejects(byob.read(new Float32Array(4), { min: 2 }), { name: 'TypeError' }).then(common.mustCall());
  byob.releaseLock();

  const reader = stream.getReader();
  const reads = [reader.read(), reader.read(), reader.read(), reader.read()];
  const results = await Promise.all(reads);
  assert.deepStrictEqual(results.map(({ value, done }) => (done ? 'done' : [...value])),
                         [[1, 1], [2, 2], [3, 3, 3], 'done']);
})().then(common.mustCall());
