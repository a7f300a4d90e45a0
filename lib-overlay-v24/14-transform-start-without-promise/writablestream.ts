import { kState } from 'internal/webstreams/util';
import {
  queueStartSteps,
  writableStreamDealWithRejection,
  writableStreamDefaultControllerStartSteps,
  type WritableStream,
  type WritableStreamDefaultController,
} from 'internal/webstreams/writablestream';
import assert from 'internal/assert';

const {
  PromisePrototypeThen,
} = primordials;

// Runs the post-start step once `promise` fulfills, or fails the start
// once it rejects: SetUpWritableStreamDefaultController's reactions to
// its start promise.
// @overlay-after writableStreamDefaultControllerScheduleStart
export function writableStreamDefaultControllerStartWhenSettled(stream: WritableStream, controller: WritableStreamDefaultController, promise: Promise<unknown>): void {
  PromisePrototypeThen(
    promise,
    () => writableStreamDefaultControllerStartSteps(controller),
    (error) => {
      assert(stream[kState].state === 'writable' ||
             stream[kState].state === 'erroring');
      controller[kState].started = true;
      writableStreamDealWithRejection(stream, error);
    });
}

function writableStreamDefaultControllerScheduleStart(
  stream: WritableStream,
  controller: WritableStreamDefaultController,
  startResult: unknown): void {
  if (startResult === null ||
      (typeof startResult !== 'object' && typeof startResult !== 'function')) {
    // Non-thenable start result: fulfillment is guaranteed and no .then
    // lookup on the result is observable, so the post-start step runs at
    // the exact microtask position the promise reaction would have had.
    queueStartSteps(controller);
    return;
  }

  // The wrapper promise matches the reference implementation's
  // promiseResolvedWith(), whose extra microtask hops WPT relies on.
  writableStreamDefaultControllerStartWhenSettled(
    stream,
    controller,
    new Promise((r) => r(startResult)));
}
