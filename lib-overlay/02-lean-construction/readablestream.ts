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
  // A non-thenable start result guarantees fulfillment, and no .then
  // lookup on it is observable.
  const startFulfilled = startResult === null ||
    (typeof startResult !== 'object' && typeof startResult !== 'function');

  // The started flag only gates calls into the pull algorithm, so for a
  // source without pull() the post-start step has nothing observable
  // left to do: the flag is set right away instead of from a microtask.
  if (startFulfilled && pullAlgorithm === nonOpCallback) {
    controller[kState].started = true;
    return;
  }

  if (startFulfilled) {
    // The post-start step runs at the exact microtask position the
    // promise reaction would have had.
    queueDefaultStartSteps(controller);
    return;
  }

  // The wrapper promise matches the reference implementation's
  // promiseResolvedWith(), whose extra microtask hops WPT relies on.
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
