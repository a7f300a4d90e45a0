import { defaultSizeAlgorithm, extractHighWaterMark, extractSizeAlgorithm, kState } from 'internal/webstreams/util';
import {
  defaultTransformAlgorithm,
  deferredStartAlgorithm,
  queueStartTurn1,
  setupTransformStreamDefaultControllerFromTransformer,
  sinkAbortAlgorithm,
  sinkCloseAlgorithm,
  sinkWriteAlgorithm,
  sourceCancelAlgorithm,
  sourcePullAlgorithm,
  transformStreamDefaultControllerEnqueue,
  transformStreamSetBackpressure,
  type TransformStream as DeclaredTransformStream,
} from 'internal/webstreams/transformstream';
import {
  createReadableStream,
  readableStreamDefaultControllerHasBackpressure,
  type ReadableStreamDefaultController,
  type SizeAlgorithm,
} from 'internal/webstreams/readablestream';
import { createWritableStream } from 'internal/webstreams/writablestream';
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
} = primordials;

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

    // Without a start() the start promise would be resolved before the
    // sides adopt it, so a shared resolved promise stands in for it.
    const startPromise = start !== undefined ? Promise.withResolvers<unknown>() : undefined;

    initializeTransformStream(
      this,
      startPromise,
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
      startPromise!.resolve(
        FunctionPrototypeCall(
          start,
          transformer,
          this[kState].controller));
    }
  }
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
    // See the TransformStream constructor.
    passThrough: false,
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

// The identity transform of a chunk a pipe writes while the writable side
// is idle (see pipeWrite in readablestream.js).
export function transformStreamPassThroughEnqueue(stream: TransformStream, chunk: unknown): void {
  transformStreamDefaultControllerEnqueue(stream[kState].controller!, chunk);
}

// A pipe took a chunk past this stream as the value of its pending read
// (see passThroughWrite in readablestream.js). The readable side is left
// as the enqueue() that fulfilled that read would leave it: with the read
// gone (the pipe reads no more for now) and nothing queued, a high water
// mark of 0 turns backpressure on, so the writable side waits again.
export function transformStreamPassThroughHandedOver(stream: TransformStream): void {
  const state = stream[kState];
  if (!state.backpressure &&
      readableStreamDefaultControllerHasBackpressure(state.readable![kState].controller as ReadableStreamDefaultController))
    transformStreamSetBackpressure(stream, true);
}
