import { kState, kType } from 'internal/webstreams/util';
import {
  createReadableStream,
  type ReadableStream,
  type ReadableStreamDefaultController,
  type SizeAlgorithm,
} from 'internal/webstreams/readablestream';
import { createWritableStream, type WritableStream } from 'internal/webstreams/writablestream';
import {
  deferredStartAlgorithm,
  queueStartTurn1,
  sinkAbortAlgorithm,
  sinkCloseAlgorithm,
  sinkWriteAlgorithm,
  sourceCancelAlgorithm,
  sourcePullAlgorithm,
  transformStreamSetBackpressure,
  TransformStream,
  type TransformStreamDefaultController,
} from 'internal/webstreams/transformstream';
import { markTransferMode } from 'internal/worker/js_transferable';

const {
  ObjectSetPrototypeOf,
} = primordials;

// The stream's internal slots, as a class: a literal with `__proto__:
// null` is created in dictionary mode, so every read of a slot was a hash
// lookup.
// @overlay-after TransformStream
class TransformStreamState {
  readable: ReadableStream | undefined;
  writable: WritableStream | undefined;
  controller: TransformStreamDefaultController | undefined = undefined;
  backpressure: boolean | undefined = undefined;
  // Continuation slots replacing the spec's
  // [[backpressureChangePromise]]; see transformStreamSetBackpressure.
  pullPending = false;
  pendingWrite: PromiseWithResolvers<unknown> | undefined = undefined;
  pendingWriteChunk: unknown = undefined;
  writeContinuation: (() => void) | undefined = undefined;
  // See the TransformStream constructor.
  passThrough = false;
  // See the TransformStream constructor and transformStreamStartTurn1().
  pendingStart: Promise<unknown> | symbol | undefined = undefined;

  constructor(readable: ReadableStream | undefined, writable: WritableStream | undefined) {
    this.readable = readable;
    this.writable = writable;
  }
}

function InternalTransferredTransformStream(this: TransformStream): void {
  ObjectSetPrototypeOf(this, TransformStream.prototype);
  markTransferMode(this, false, true);
  this[kType] = 'TransformStream';
  this[kState] = new TransformStreamState(undefined, undefined);
}

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

  stream[kState] = new TransformStreamState(readable, writable);

  transformStreamSetBackpressure(stream, true);

  queueStartTurn1(stream);
}
