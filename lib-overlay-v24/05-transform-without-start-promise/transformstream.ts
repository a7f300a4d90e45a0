import { extractHighWaterMark, extractSizeAlgorithm, kResolvedPromise, kState } from 'internal/webstreams/util';
import { createReadableStream, type SizeAlgorithm } from 'internal/webstreams/readablestream';
import { createWritableStream } from 'internal/webstreams/writablestream';
import {
  setupTransformStreamDefaultControllerFromTransformer,
  transformStreamDefaultSinkAbortAlgorithm,
  transformStreamDefaultSinkCloseAlgorithm,
  transformStreamDefaultSinkWriteAlgorithm,
  transformStreamDefaultSourceCancelAlgorithm,
  transformStreamDefaultSourcePullAlgorithm,
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
  PromiseWithResolvers,
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
    const startPromise = start !== undefined ? PromiseWithResolvers() : undefined;

    initializeTransformStream(
      this,
      startPromise,
      actualWritableHighWaterMark,
      actualWritableSize,
      actualReadableHighWaterMark,
      actualReadableSize);

    setupTransformStreamDefaultControllerFromTransformer(this, transformer);

    if (start !== undefined) {
      startPromise!.resolve(
        FunctionPrototypeCall(
          start,
          transformer,
          this[kState].controller));
    }
  }
}

// @overlay-after defaultTransformAlgorithm
function resolvedStartAlgorithm(): Promise<void> {
  return kResolvedPromise;
}

function initializeTransformStream(
  stream: TransformStream,
  startPromise: PromiseWithResolvers<unknown> | undefined,
  writableHighWaterMark: number,
  writableSizeAlgorithm: SizeAlgorithm,
  readableHighWaterMark: number,
  readableSizeAlgorithm: SizeAlgorithm): void {

  const startAlgorithm = startPromise === undefined ?
    resolvedStartAlgorithm :
    () => startPromise.promise;

  const writable = createWritableStream(
    startAlgorithm,
    (chunk: unknown) => transformStreamDefaultSinkWriteAlgorithm(stream, chunk),
    () => transformStreamDefaultSinkCloseAlgorithm(stream),
    (reason: unknown) => transformStreamDefaultSinkAbortAlgorithm(stream, reason),
    writableHighWaterMark,
    writableSizeAlgorithm,
  );

  const readable = createReadableStream(
    startAlgorithm,
    () => transformStreamDefaultSourcePullAlgorithm(stream),
    (reason: unknown) => transformStreamDefaultSourceCancelAlgorithm(stream, reason),
    readableHighWaterMark,
    readableSizeAlgorithm,
  );

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
}

