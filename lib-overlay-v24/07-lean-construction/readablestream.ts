import { createMicrotaskSteps, kDeferredStart, kEmptyQueue, kState, nonOpCallback, resetQueue } from 'internal/webstreams/util';
import {
  readableStreamDefaultControllerCallPullIfNeeded,
  readableStreamDefaultControllerClearAlgorithms,
  readableStreamDefaultControllerError,
  type CancelAlgorithm,
  type PullAlgorithm,
  type ReadableStream,
  type ReadableStreamDefaultController,
  type SizeAlgorithm,
  type StartAlgorithm,
} from 'internal/webstreams/readablestream';
import assert from 'internal/assert';

const {
  PromisePrototypeThen,
} = primordials;

function readableStreamDefaultControllerCancelSteps(controller: ReadableStreamDefaultController, reason: unknown): unknown {
  resetQueue(controller);
  // The controller lets shared algorithms (a TransformStream's) find their
  // owner; a source's cancel() still gets the reason alone.
  const result = controller[kState].cancelAlgorithm!(reason, controller);
  readableStreamDefaultControllerClearAlgorithms(controller);
  return result;
}

function setupReadableStreamDefaultController(
  stream: ReadableStream,
  controller: ReadableStreamDefaultController,
  startAlgorithm: StartAlgorithm,
  pullAlgorithm: PullAlgorithm,
  cancelAlgorithm: CancelAlgorithm,
  highWaterMark: number,
  sizeAlgorithm: SizeAlgorithm) {
  assert(stream[kState].controller === undefined);
  controller[kState] = {
    cancelAlgorithm,
    closeRequested: false,
    highWaterMark,
    pullAgain: false,
    pullAlgorithm,
    pulling: false,
    pullFulfilled: undefined,
    pullRejected: undefined,
    queue: kEmptyQueue,
    queueTotalSize: 0,
    started: false,
    sizeAlgorithm,
    stream,
    owner: undefined,
  };
  stream[kState].controller = controller;

  const startResult = startAlgorithm();
  if (startResult === kDeferredStart) {
    // A TransformStream's side: it runs the post-start step itself.
    return;
  }

  if (startResult === null ||
      (typeof startResult !== 'object' && typeof startResult !== 'function')) {
    if (pullAlgorithm === nonOpCallback) {
      // Without pull() the post-start step has nothing observable left
      // to do (`started` only gates calls into the pull algorithm), so
      // the flag is set right away instead of from a microtask.
      controller[kState].started = true;
      return;
    }
    // Non-thenable start result: fulfillment is guaranteed and no .then
    // lookup on the result is observable, so the post-start step runs at
    // the exact microtask position the promise reaction would have had.
    queueDefaultStartSteps(controller);
    return;
  }

  PromisePrototypeThen(
    new Promise((r) => r(startResult)),
    () => readableStreamDefaultControllerStartSteps(controller),
    (error) => readableStreamDefaultControllerError(controller, error));
}

export function readableStreamDefaultControllerStartSteps(controller: ReadableStreamDefaultController): void {
  controller[kState].started = true;
  assert(!controller[kState].pulling);
  assert(!controller[kState].pullAgain);
  readableStreamDefaultControllerCallPullIfNeeded(controller);
}

// The post-start step of a default controller whose start() result was
// not thenable, one microtask later (see createMicrotaskSteps).
const queueDefaultStartSteps = createMicrotaskSteps(readableStreamDefaultControllerStartSteps);
