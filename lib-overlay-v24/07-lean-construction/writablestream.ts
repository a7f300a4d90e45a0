import { createMicrotaskSteps, kDeferredStart, kEmptyQueue, kState } from 'internal/webstreams/util';
import {
  writableStreamDealWithRejection,
  writableStreamDefaultControllerAdvanceQueueIfNeeded,
  writableStreamDefaultControllerClearAlgorithms,
  writableStreamFinishInFlightClose,
  writableStreamFinishInFlightCloseWithError,
  writableStreamMarkCloseRequestInFlight,
  writableStreamStartErroring,
  writableStreamUpdateBackpressure,
  type AbortAlgorithm,
  type CloseAlgorithm,
  type WritableStream,
  type WritableStreamDefaultController as DeclaredWritableStreamDefaultController,
  type WriteAlgorithm,
} from 'internal/webstreams/writablestream';
import { dequeueValue } from 'internal/webstreams/util';
import { isWritableStream, isWritableStreamDefaultController, kAbort } from 'internal/webstreams/writablestream';
import { AbortController } from 'internal/abort_controller';
import type { SizeAlgorithm, StartAlgorithm } from 'internal/webstreams/readablestream';
import { ERR_INVALID_THIS } from 'internal/errors';
import assert from 'internal/assert';

const {
  PromisePrototypeThen,
} = primordials;

interface WritableStreamDefaultController extends DeclaredWritableStreamDefaultController {}

class WritableStreamDefaultController {
  [kAbort](reason: unknown): unknown {
    // The controller lets shared algorithms (a TransformStream's) find
    // their owner; a sink's abort() still gets the reason alone.
    const result = this[kState].abortAlgorithm!(reason, this);
    writableStreamDefaultControllerClearAlgorithms(this);
    return result;
  }

  /**
   * @type {AbortSignal}
   */
  get signal(): object {
    if (!isWritableStreamDefaultController(this))
      throw new ERR_INVALID_THIS('WritableStreamDefaultController');
    // Created on first use: most sinks never look at their signal.
    return (this[kState].abortController ??= new AbortController()).signal;
  }
}

function writableStreamAbort(stream: WritableStream, reason: unknown): Promise<void> {
  const { controller } = stream[kState];

  let state = stream[kState].state;
  if (state === 'closed' || state === 'errored')
    return Promise.resolve();

  // Nothing can listen to a signal nobody has asked for, but one asked for
  // later must still report this abort.
  (controller![kState].abortController ??= new AbortController()).abort(reason);

  state = stream[kState].state;
  if (state === 'closed' || state === 'errored')
    return Promise.resolve();

  if (stream[kState].pendingAbortRequest.abort.promise !== undefined)
    return stream[kState].pendingAbortRequest.abort.promise;

  assert(state === 'writable' || state === 'erroring');

  let wasAlreadyErroring = false;
  if (state === 'erroring') {
    wasAlreadyErroring = true;
    reason = undefined;
  }

  const abort = Promise.withResolvers<void>();

  stream[kState].pendingAbortRequest = {
    abort,
    reason,
    wasAlreadyErroring,
  };

  if (!wasAlreadyErroring)
    writableStreamStartErroring(stream, reason);

  return abort.promise;
}

function writableStreamDefaultControllerProcessClose(controller: WritableStreamDefaultController): void {
  const {
    closeAlgorithm,
    queue,
    stream,
  } = controller[kState];
  writableStreamMarkCloseRequestInFlight(stream);
  dequeueValue(controller);
  assert(!queue.length);
  // The controller lets shared algorithms (a TransformStream's) find their
  // owner; a sink's close() is still called without arguments.
  const sinkClosePromise = closeAlgorithm!(controller) as Promise<void>;
  writableStreamDefaultControllerClearAlgorithms(controller);
  PromisePrototypeThen(
    sinkClosePromise,
    () => writableStreamFinishInFlightClose(stream),
    (error) => writableStreamFinishInFlightCloseWithError(stream, error));
}

function setupWritableStreamDefaultController(
  stream: WritableStream,
  controller: WritableStreamDefaultController,
  startAlgorithm: StartAlgorithm,
  writeAlgorithm: WriteAlgorithm,
  closeAlgorithm: CloseAlgorithm,
  abortAlgorithm: AbortAlgorithm,
  highWaterMark: number,
  sizeAlgorithm: SizeAlgorithm): void {
  assert(isWritableStream(stream));
  assert(stream[kState].controller === undefined);
  controller[kState] = {
    abortAlgorithm,
    closeAlgorithm,
    highWaterMark,
    queue: kEmptyQueue,
    queueTotalSize: 0,
    abortController: undefined,
    sizeAlgorithm,
    started: false,
    stream,
    writeAlgorithm,
    writeFulfilled: undefined,
    writeRejected: undefined,
    owner: undefined,
  };
  stream[kState].controller = controller;

  writableStreamUpdateBackpressure(controller, stream[kState]);

  const startResult = startAlgorithm();
  if (startResult === kDeferredStart) {
    // A TransformStream's side: it runs the post-start step itself.
    return;
  }
  writableStreamDefaultControllerScheduleStart(stream, controller, startResult);
}

export function writableStreamDefaultControllerStartSteps(controller: WritableStreamDefaultController): void {
  assert(controller[kState].stream[kState].state === 'writable' ||
         controller[kState].stream[kState].state === 'erroring');
  controller[kState].started = true;
  writableStreamDefaultControllerAdvanceQueueIfNeeded(controller);
}

// The post-start step of a controller whose start() result was not
// thenable, one microtask later (see createMicrotaskSteps).
const queueStartSteps = createMicrotaskSteps(writableStreamDefaultControllerStartSteps);

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
  PromisePrototypeThen(
    new Promise((r) => r(startResult)),
    () => writableStreamDefaultControllerStartSteps(controller),
    (error) => {
      assert(stream[kState].state === 'writable' ||
             stream[kState].state === 'erroring');
      controller[kState].started = true;
      writableStreamDealWithRejection(stream, error);
    });
}
