import assert from 'internal/assert';
import {
  kState,
  nonOpCallback,
  thenAlgorithmResult,
} from 'internal/webstreams/util';
import {
  readableByteStreamControllerError,
  readableByteStreamControllerShouldCallPull,
  readableStreamDefaultControllerCallPullIfNeeded,
  readableStreamDefaultControllerError,
  type ReadableByteStreamController,
  type ReadableStreamDefaultController,
} from 'internal/webstreams/readablestream';

const {
  PromiseReject,
} = primordials;

function readableStreamDefaultControllerPull(controller: ReadableStreamDefaultController): void {
  // A source without pull() has nothing to run: skip the pulling and
  // pullAgain bookkeeping, the reaction closures and the microtask that
  // would only clear the flag again. Push sources hit this on every read.
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
