import { createMicrotaskSteps, kDeferredStart, kState } from 'internal/webstreams/util';
import {
  createReadableStream,
  readableStreamDefaultControllerStartSteps,
  type ReadableStreamDefaultController,
  type SizeAlgorithm,
} from 'internal/webstreams/readablestream';
import {
  createWritableStream,
  writableStreamDefaultControllerStartSteps,
  type WritableStreamDefaultController,
} from 'internal/webstreams/writablestream';
import {
  transformStreamDefaultSinkAbortAlgorithm,
  transformStreamDefaultSinkCloseAlgorithm,
  transformStreamDefaultSinkWriteAlgorithm,
  transformStreamDefaultSourceCancelAlgorithm,
  transformStreamDefaultSourcePullAlgorithm,
  transformStreamSetBackpressure,
  type TransformStream,
} from 'internal/webstreams/transformstream';

// @overlay-remove resolvedStartAlgorithm

// The five algorithms of a TransformStream's two sides are shared
// functions that find the TransformStream through their controller's
// owner slot, instead of five closures (and their context) per
// TransformStream.
function sinkWriteAlgorithm(chunk: unknown, controller: WritableStreamDefaultController): unknown {
  return transformStreamDefaultSinkWriteAlgorithm(controller[kState].owner!, chunk);
}

function sinkCloseAlgorithm(controller: WritableStreamDefaultController): unknown {
  return transformStreamDefaultSinkCloseAlgorithm(controller[kState].owner!);
}

function sinkAbortAlgorithm(reason: unknown, controller: WritableStreamDefaultController): unknown {
  return transformStreamDefaultSinkAbortAlgorithm(controller[kState].owner!, reason);
}

function sourcePullAlgorithm(controller: ReadableStreamDefaultController): unknown {
  return transformStreamDefaultSourcePullAlgorithm(controller[kState].owner!);
}

function sourceCancelAlgorithm(reason: unknown, controller: ReadableStreamDefaultController): unknown {
  return transformStreamDefaultSourceCancelAlgorithm(controller[kState].owner!, reason);
}

function deferredStartAlgorithm(): symbol {
  return kDeferredStart;
}

function initializeTransformStream(
  stream: TransformStream,
  startPromise: PromiseWithResolvers<unknown> | undefined,
  writableHighWaterMark: number,
  writableSizeAlgorithm: SizeAlgorithm,
  readableHighWaterMark: number,
  readableSizeAlgorithm: SizeAlgorithm): void {

  const startAlgorithm = startPromise === undefined ?
    deferredStartAlgorithm :
    () => startPromise.promise;

  const writable = createWritableStream(
    startAlgorithm,
    sinkWriteAlgorithm,
    sinkCloseAlgorithm,
    sinkAbortAlgorithm,
    writableHighWaterMark,
    writableSizeAlgorithm,
  );

  const readable = createReadableStream(
    startAlgorithm,
    sourcePullAlgorithm,
    sourceCancelAlgorithm,
    readableHighWaterMark,
    readableSizeAlgorithm,
  );
  const readableController = readable[kState].controller as ReadableStreamDefaultController;
  writable[kState].controller![kState].owner = stream;
  readableController[kState].owner = stream;

  stream[kState] = {
    __proto__: null,
    readable,
    writable,
    controller: undefined,
    backpressure: undefined,
    // Continuation slots replacing the spec's
    // [[backpressureChangePromise]]; see transformStreamSetBackpressure.
    pullPending: false,
    pendingWrite: undefined,
    pendingWriteChunk: undefined,
    writeContinuation: undefined,
  };

  transformStreamSetBackpressure(stream, true);

  if (startPromise === undefined) {
    // Without a start(), both sides adopt an already resolved start
    // promise through the reference implementation's promiseResolvedWith()
    // wrapper: each side's post-start step runs three microtask turns
    // later, the writable's right before the readable's (WPT relies on
    // these turns). One chain of three turns running both steps in that
    // order lands at the same positions without two wrapper promises,
    // thenable jobs and reactions.
    queueStartTurn1(stream);
  }
}

// The three turns of a TransformStream's post-start steps (see
// initializeTransformStream), each a queue of its own.
function transformStreamStartSteps(stream: TransformStream): void {
  const { readable, writable } = stream[kState];
  const readableController = readable![kState].controller as ReadableStreamDefaultController;
  writableStreamDefaultControllerStartSteps(writable![kState].controller!);
  readableStreamDefaultControllerStartSteps(readableController);
}

const queueStartTurn3 = createMicrotaskSteps(transformStreamStartSteps);
const queueStartTurn2 = createMicrotaskSteps(queueStartTurn3);
const queueStartTurn1 = createMicrotaskSteps(queueStartTurn2);
