import {
  dequeueValue,
  kResolvedPromise,
  kState,
  nonOpCallback,
  thenAlgorithmResult,
} from 'internal/webstreams/util';
import {
  isReadableStreamDefaultController,
  readableByteStreamControllerDequeueChunk,
  readableByteStreamControllerError,
  readableByteStreamControllerShouldCallPull,
  readableStreamAsyncIteratorNextSteps,
  readableStreamClose,
  readableStreamDefaultControllerCallPullIfNeeded,
  readableStreamDefaultControllerClearAlgorithms,
  readableStreamDefaultControllerError,
  type ReadableByteStreamController,
  type ReadableStreamAsyncIteratorReadRequest,
  type ReadableStreamDefaultController,
} from 'internal/webstreams/readablestream';
import { ERR_INVALID_THIS } from 'internal/errors';
import assert from 'internal/assert';

const {
  PromisePrototypeThen,
  PromiseReject,
  PromiseResolve,
} = primordials;

type ReadResult = { value: unknown; done: boolean };

class ReadableStreamAsyncIterator {
  #state!: ReadableStreamAsyncIteratorReadRequest;

  next(): Promise<ReadResult> {
    if (typeof this !== 'object' || this === null || !(#state in this)) {
      return PromiseReject(
        new ERR_INVALID_THIS('ReadableStreamAsyncIterator'));
    }
    const state = this.#state;
    // If this is the first read, delay by one microtask
    // to ensure that the controller has had an opportunity
    // to properly start and perform the initial pull.
    // TODO(@jasnell): The spec doesn't call this out so
    // need to investigate if it's a bug in our impl or
    // the spec.
    if (!state.started) {
      state.current = kResolvedPromise;
      state.started = true;
    }
    if (state.current !== undefined) {
      let steps = state.chainedNextSteps;
      if (steps === undefined) {
        steps = state.chainedNextSteps =
          readableStreamAsyncIteratorChainedNextSteps(state);
      }
      state.current = PromisePrototypeThen(state.current, steps, steps);
      return state.current;
    }
    // No read is in flight. Mirror the buffered fast path of
    // ReadableStreamDefaultReader.read(): when data is already queued
    // in the controller, resolve immediately without allocating a
    // read request. The result settles synchronously, so leaving
    // state.current undefined matches the state the slow path reaches
    // once its read request callbacks have settled.
    const stream = state.reader[kState].stream;
    if (!state.done && stream !== undefined &&
        stream[kState].state === 'readable') {
      const controller = stream[kState].controller;
      if (isReadableStreamDefaultController(controller)) {
        if (controller[kState].queue.length > 0) {
          stream[kState].disturbed = true;
          const chunk = dequeueValue(controller);

          if (controller[kState].closeRequested &&
              !controller[kState].queue.length) {
            readableStreamDefaultControllerClearAlgorithms(controller);
            readableStreamClose(stream);
          } else if (!controller[kState].closeRequested &&
                     controller[kState].started &&
                     controller[kState].highWaterMark -
                       controller[kState].queueTotalSize > 0) {
            // Reduced ShouldCallPull, as in the read() fast path.
            readableStreamDefaultControllerPull(controller);
          }

          return PromiseResolve({ done: false, value: chunk });
        }
      } else if (controller[kState].queueTotalSize > 0) {
        // Byte controller with buffered data: same shape as above via
        // the queue-filled arm of the byte controller's pull steps.
        stream[kState].disturbed = true;
        return PromiseResolve({
          done: false,

          value: readableByteStreamControllerDequeueChunk(controller),
        });
      }
    }
    state.current = readableStreamAsyncIteratorNextSteps(state);
    return state.current;
  }
}

function readableStreamDefaultControllerPull(controller: ReadableStreamDefaultController): void {
  // A source without pull() has nothing to run: skip the pulling/pullAgain
  // bookkeeping, the reaction closures and the microtask that would only
  // clear the flag again. Push-style sources hit this on every read.
  if (controller[kState].pullAlgorithm === nonOpCallback)
    return;
  if (controller[kState].pulling) {
    controller[kState].pullAgain = true;
    return;
  }
  assert(!controller[kState].pullAgain);
  controller[kState].pulling = true;
  if (controller[kState].pullFulfilled === undefined)
    readableStreamDefaultControllerCreatePullReactions(controller);
  // The pull algorithm may be a raw callback (a wrapped user source.pull
  // returns its result uncoerced; a synchronous throw surfaces here) or an
  // internal algorithm that always returns a promise; thenAlgorithmResult
  // handles both.
  let result;
  try {
    result = controller[kState].pullAlgorithm!(controller);
  } catch (error) {
    result = PromiseReject(error);
  }
  thenAlgorithmResult(
    result,
    controller[kState].pullFulfilled!,
    controller[kState].pullRejected);
}

function readableByteStreamControllerCallPullIfNeeded(controller: ReadableByteStreamController): void {
  if (!readableByteStreamControllerShouldCallPull(controller))
    return;
  // See readableStreamDefaultControllerPull.
  if (controller[kState].pullAlgorithm === nonOpCallback)
    return;
  if (controller[kState].pulling) {
    controller[kState].pullAgain = true;
    return;
  }
  assert(!controller[kState].pullAgain);
  controller[kState].pulling = true;
  if (controller[kState].pullFulfilled === undefined)
    readableByteStreamControllerCreatePullReactions(controller);
  // See readableStreamDefaultControllerPull for the raw-callback contract.
  let result;
  try {
    result = controller[kState].pullAlgorithm!(controller);
  } catch (error) {
    result = PromiseReject(error);
  }
  thenAlgorithmResult(
    result,
    controller[kState].pullFulfilled!,
    controller[kState].pullRejected);
}

// The pull reaction closures only capture the controller, so they are
// created once, on the first pull, and reused for every subsequent pull.
// They are created here rather than in the pull step so that the pull step
// captures nothing (no context per pull), and bound to constants before
// they are stored: V8 allocates a function literal assigned straight to a
// property in the old generation, where, once dead, it would keep the
// stream alive until the next full garbage collection.
// @overlay-after readableStreamDefaultControllerPull
function readableStreamDefaultControllerCreatePullReactions(controller: ReadableStreamDefaultController): void {
  const pullFulfilled = () => {
    controller[kState].pulling = false;
    if (controller[kState].pullAgain) {
      controller[kState].pullAgain = false;
      readableStreamDefaultControllerCallPullIfNeeded(controller);
    }
  };
  const pullRejected =
    (error: unknown) => readableStreamDefaultControllerError(controller, error);
  controller[kState].pullFulfilled = pullFulfilled;
  controller[kState].pullRejected = pullRejected;
}

// See readableStreamDefaultControllerCreatePullReactions.
// @overlay-after readableByteStreamControllerCallPullIfNeeded
function readableByteStreamControllerCreatePullReactions(controller: ReadableByteStreamController): void {
  const pullFulfilled = () => {
    controller[kState].pulling = false;
    if (controller[kState].pullAgain) {
      controller[kState].pullAgain = false;
      readableByteStreamControllerCallPullIfNeeded(controller);
    }
  };
  const pullRejected =
    (error: unknown) => readableByteStreamControllerError(controller, error);
  controller[kState].pullFulfilled = pullFulfilled;
  controller[kState].pullRejected = pullRejected;
}

// The next steps chained after a pending next(), created once per
// iterator. Returned rather than created in next(), so that next()
// captures nothing (no context per call), and so that it is not a function
// literal assigned straight to a property, which V8 allocates in the old
// generation (see readableStreamDefaultControllerCreatePullReactions).
// @overlay-after ReadableStreamAsyncIterator
function readableStreamAsyncIteratorChainedNextSteps(state: ReadableStreamAsyncIteratorReadRequest): () => Promise<ReadResult> {
  return () => readableStreamAsyncIteratorNextSteps(state) as Promise<ReadResult>;
}
