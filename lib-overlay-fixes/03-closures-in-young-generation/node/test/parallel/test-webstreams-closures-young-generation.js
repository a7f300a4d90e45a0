// Flags: --expose-internals --allow-natives-syntax
'use strict';

// The closures a web stream creates once and keeps in its state (the pull
// and write reactions, a TransformStream's parked write and rejection
// steps, an async iterator's next steps) must be allocated in the young
// generation like the stream itself. V8 allocates a function literal
// assigned straight to a property in the old generation; once the stream
// is done, such a closure keeps it alive through every young-generation
// collection until the next full one.

const common = require('../common');
const assert = require('assert');
const { kState } = require('internal/webstreams/util');
const {
  ReadableStream,
  TransformStream,
  WritableStream,
} = require('stream/web');

const inYoungGeneration = new Function('value', 'return %InYoungGeneration(value)');

function assertYoung(fn, what) {
  assert.strictEqual(typeof fn, 'function', `${what} was not created`);
  assert.ok(inYoungGeneration(fn), `${what} is in the old generation`);
}

async function readAll(stream) {
  const reader = stream.getReader();
  while (!(await reader.read()).done);
}

(async () => {
  for (const type of [undefined, 'bytes']) {
    let pulls = 0;
    const stream = new ReadableStream({
      type,
      pull(controller) {
        if (pulls++ === 0) controller.enqueue(new Uint8Array(1));
        else controller.close();
      },
    });
    await readAll(stream);
    const controllerState = stream[kState].controller[kState];
    assertYoung(controllerState.pullFulfilled, `${type ?? 'default'} pullFulfilled`);
    assertYoung(controllerState.pullRejected, `${type ?? 'default'} pullRejected`);
  }

  {
    let nextSteps;
    const stream = new ReadableStream({
      pull(controller) {
        // The pending read request is the iterator's state.
        nextSteps = stream[kState].reader[kState].readRequests.peek().chainedNextSteps;
        controller.close();
      },
    }, { highWaterMark: 0 });
    for await (const chunk of stream) assert.fail(`unexpected chunk ${chunk}`);
    assertYoung(nextSteps, 'the async iterator\'s next steps');
  }

  {
    const stream = new WritableStream({ write: common.mustCall() });
    const writer = stream.getWriter();
    await writer.write('a');
    const controllerState = stream[kState].controller[kState];
    assertYoung(controllerState.writeFulfilled, 'writeFulfilled');
    assertYoung(controllerState.writeRejected, 'writeRejected');
    await writer.close();
  }

  {
    // The readable side's high water mark is 0, so the write is parked
    // until the read below.
    const stream = new TransformStream();
    const writer = stream.writable.getWriter();
    const reader = stream.readable.getReader();
    const written = writer.write('a');
    await new Promise(setImmediate);
    const state = stream[kState];
    assertYoung(state.writeContinuation, 'the parked write\'s continuation');
    assert.deepStrictEqual(await reader.read(), { done: false, value: 'a' });
    await written;
    assertYoung(state.controller[kState].performTransformRejected,
                'performTransformRejected');
  }
  {
    // A pipe into a transform() that was synchronous and then returns a
    // promise.
    let transforms = 0;
    const stream = new TransformStream({
      transform(chunk, controller) {
        controller.enqueue(chunk);
        if (transforms++ > 0) return Promise.resolve();
      },
    });
    const source = new ReadableStream({
      start(controller) {
        for (const chunk of [1, 2, 3]) controller.enqueue(chunk);
        controller.close();
      },
    });
    const chunks = [];
    await source.pipeThrough(stream).pipeTo(new WritableStream({
      write(chunk) { chunks.push(chunk); },
    }));
    assert.deepStrictEqual(chunks, [1, 2, 3]);
    assertYoung(stream[kState].controller[kState].performTransformRejected,
                'performTransformRejected after a pipe\'s write');
  }
})().then(common.mustCall());
