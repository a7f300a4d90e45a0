import { createMicrotaskSteps, defaultSizeAlgorithm, extractHighWaterMark, extractSizeAlgorithm, kState } from 'internal/webstreams/util';
import {
  createReadableStream,
  readableStreamDefaultControllerError,
  readableStreamDefaultControllerStartSteps,
  type ReadableStreamDefaultController,
  type SizeAlgorithm,
} from 'internal/webstreams/readablestream';
import { createWritableStream, writableStreamDefaultControllerStartWhenSettled } from 'internal/webstreams/writablestream';
import {
  type TransformStreamState as DeclaredTransformStreamState,
  defaultTransformAlgorithm,
  deferredStartAlgorithm,
  queueStartTurn2,
  setupTransformStreamDefaultControllerFromTransformer,
  sinkAbortAlgorithm,
  sinkCloseAlgorithm,
  sinkWriteAlgorithm,
  sourceCancelAlgorithm,
  sourcePullAlgorithm,
  transformStreamSetBackpressure,
  type TransformStream as DeclaredTransformStream,
} from 'internal/webstreams/transformstream';
import { kEmptyObject } from 'internal/util';
import {
  kValidateObjectAllowObjects,
  kValidateObjectAllowObjectsAndNull,
  validateObject,
} from 'internal/validators';
import { markTransferMode } from 'internal/worker/js_transferable';
import { ERR_INVALID_ARG_VALUE } from 'internal/errors';

const {
  FunctionPrototypeCall,
  PromisePrototypeThen,
} = primordials;

// [[pendingStart]] while the transformer's start() runs, and after it
// threw (the constructor then throws, and the sides never start).
const kStartRunning = Symbol('kStartRunning');

interface TransformStream extends DeclaredTransformStream {}

class TransformStream {
  /**
   * @param {Transformer} [transformer]
   * @param {QueuingStrategy} [writableStrategy]
   * @param {QueuingStrategy} [readableStrategy]
   */
  constructor(
    transformer: any = kEmptyObject,
    writableStrategy: any = kEmptyObject,
    readableStrategy: any = kEmptyObject) {
    markTransferMode(this, false, true);
    validateObject(transformer, 'transformer', kValidateObjectAllowObjects);
    validateObject(writableStrategy, 'writableStrategy', kValidateObjectAllowObjectsAndNull);
    validateObject(readableStrategy, 'readableStrategy', kValidateObjectAllowObjectsAndNull);
    const readableType = transformer?.readableType;
    const writableType = transformer?.writableType;
    const start = transformer?.start;

    if (readableType !== undefined) {
      throw new ERR_INVALID_ARG_VALUE.RangeError(
        'transformer.readableType',
        readableType);
    }
    if (writableType !== undefined) {
      throw new ERR_INVALID_ARG_VALUE.RangeError(
        'transformer.writableType',
        writableType);
    }

    const readableHighWaterMark = readableStrategy?.highWaterMark;
    const readableSize = readableStrategy?.size;

    const writableHighWaterMark = writableStrategy?.highWaterMark;
    const writableSize = writableStrategy?.size;

    const actualReadableHighWaterMark =
      extractHighWaterMark(readableHighWaterMark, 0);
    const actualReadableSize = extractSizeAlgorithm(readableSize);

    const actualWritableHighWaterMark =
      extractHighWaterMark(writableHighWaterMark, 1);
    const actualWritableSize = extractSizeAlgorithm(writableSize);

    initializeTransformStream(
      this,
      actualWritableHighWaterMark,
      actualWritableSize,
      actualReadableHighWaterMark,
      actualReadableSize);

    setupTransformStreamDefaultControllerFromTransformer(this, transformer);

    // Neither start() nor transform() ever sees the controller, and no
    // size() runs per chunk: pipes may pass chunks through this stream
    // without its algorithms (see pipeWrite in readablestream.js).
    this[kState].passThrough = start === undefined &&
      this[kState].controller![kState].transformAlgorithm === defaultTransformAlgorithm &&
      actualWritableSize === defaultSizeAlgorithm &&
      actualReadableSize === defaultSizeAlgorithm;

    if (start !== undefined) {
      // The spec resolves the start promise with start()'s result. A
      // non-thenable result fulfills it at once, which is what the start
      // turns already assume; any object or function is adopted as the
      // start promise would adopt it (its then is read here, as before).
      this[kState].pendingStart = kStartRunning;
      const result = FunctionPrototypeCall(
        start,
        transformer,
        this[kState].controller);
      this[kState].pendingStart =
        result === null || (typeof result !== 'object' && typeof result !== 'function') ?
          undefined :
          new Promise((r) => r(result));
    }
  }
}

interface TransformStreamState extends DeclaredTransformStreamState {}


// Both sides adopt the start promise through the reference
// implementation's promiseResolvedWith() wrapper: each side's post-start
// step runs three microtask turns after the stream is set up if the
// promise is fulfilled by the first of them, the writable's right before
// the readable's (WPT relies on these turns). One chain of three turns
// running both steps in that order lands at the same positions without a
// start promise, two wrapper promises, thenable jobs and reactions. The
// chain is queued where the two wrappers' thenable jobs were, before
// start() runs; its first turn finds out what start() returned (see
// transformStreamStartTurn1).
function initializeTransformStream(
  stream: TransformStream,
  writableHighWaterMark: number,
  writableSizeAlgorithm: SizeAlgorithm,
  readableHighWaterMark: number,
  readableSizeAlgorithm: SizeAlgorithm): void {
  const writable = createWritableStream(
    deferredStartAlgorithm,
    sinkWriteAlgorithm,
    sinkCloseAlgorithm,
    sinkAbortAlgorithm,
    writableHighWaterMark,
    writableSizeAlgorithm,
  );

  const readable = createReadableStream(
    deferredStartAlgorithm,
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
    // See the TransformStream constructor.
    passThrough: false,
    // See the TransformStream constructor and transformStreamStartTurn1().
    pendingStart: undefined,
  };

  transformStreamSetBackpressure(stream, true);

  queueStartTurn1(stream);
}

// The first start turn: where each side's thenable job called then() on
// the start promise. Fulfilled by now (no start(), or a non-thenable
// result): the chain goes on. start() returned an object or function:
// each side reacts to the start promise as its wrapper would have, one
// turn for the wrapper's resolution and one for its reaction. start()
// threw: the start promise would never settle, so nothing happens.
// @overlay-after transformStreamStartSteps
function transformStreamStartTurn1(stream: TransformStream): void {
  const state = stream[kState];
  const pending = state.pendingStart;
  if (pending === undefined) {
    queueStartTurn2(stream);
    return;
  }
  if (pending === kStartRunning)
    return;
  state.pendingStart = undefined;
  const readableController = state.readable![kState].controller as ReadableStreamDefaultController;
  writableStreamDefaultControllerStartWhenSettled(
    state.writable!,
    state.writable![kState].controller!,
    PromisePrototypeThen(pending as Promise<unknown>));
  PromisePrototypeThen(
    PromisePrototypeThen(pending as Promise<unknown>),
    () => readableStreamDefaultControllerStartSteps(readableController),
    (error: unknown) => readableStreamDefaultControllerError(readableController, error));
}

const queueStartTurn1 = createMicrotaskSteps(transformStreamStartTurn1);
