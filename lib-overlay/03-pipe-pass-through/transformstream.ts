import { defaultSizeAlgorithm, extractHighWaterMark, extractSizeAlgorithm, kState } from 'internal/webstreams/util';
import {
  defaultTransformAlgorithm,
  initializeTransformStream,
  setupTransformStreamDefaultControllerFromTransformer,
  transformStreamDefaultControllerEnqueue,
  transformStreamSetBackpressure,
  type TransformStream as DeclaredTransformStream,
} from 'internal/webstreams/transformstream';
import {
  readableStreamDefaultControllerHasBackpressure,
  type ReadableStreamDefaultController,
} from 'internal/webstreams/readablestream';
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

    // Without a start() the start promise is already resolved by the time
    // the readable and writable sides adopt it, so the shared resolved
    // promise stands in for the record.
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

class TransformStreamState {
  // @overlay-add
  // See the TransformStream constructor.
  passThrough = false;
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
