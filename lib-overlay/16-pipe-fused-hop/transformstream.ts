import {
  defaultSizeAlgorithm,
  kNoChunk,
  kResolvedPromise,
  kState,
  type PromiseRecord,
} from 'internal/webstreams/util';
import {
  transformStreamDefaultControllerClearAlgorithms,
  transformStreamSetBackpressure,
  transformStreamUnblockWrite,
  type TransformStream,
  type TransformStreamDefaultController,
  type TransformStreamFeeder,
  type TransformStreamFuseHooks,
} from 'internal/webstreams/transformstream';
import {
  readableStreamDefaultControllerCanCloseOrEnqueue,
  readableStreamDefaultControllerClose,
  readableStreamDefaultControllerEnqueue,
  readableStreamDefaultControllerError,
  readableStreamDefaultControllerHasBackpressure,
  type PipeWriteTracker,
  type ReadableStreamDefaultController,
} from 'internal/webstreams/readablestream';
import {
  writableStreamDefaultControllerErrorIfNeeded,
  writableStreamFinishInFlightWrite,
  writableStreamUpdateBackpressure,
} from 'internal/webstreams/writablestream';
import { ERR_INVALID_STATE } from 'internal/errors';
import assert from 'internal/assert';

const {
  PromisePrototypeThen,
  PromiseReject,
  PromiseResolve,
} = primordials;

class TransformStreamState {
  // @overlay-add
  feeder: TransformStreamFeeder | undefined = undefined;
  // @overlay-add
  fuse: TransformStreamFuseHooks | undefined = undefined;
  // @overlay-add
  fuseHooks: TransformStreamFuseHooks | undefined = undefined;
  // @overlay-add
  fuseCaptured: unknown = kNoChunk;
}

function transformStreamDefaultControllerEnqueue(controller: TransformStreamDefaultController, chunk: unknown): void {
  const {
    stream,
  } = controller[kState];
  const {
    readable,
  } = stream![kState];
  const {
    controller: readableController,
  } = readable![kState];
  if (stream![kState].fuse !== undefined && transformStreamFuseCapture(stream!, chunk))
    return;
  if (!readableStreamDefaultControllerCanCloseOrEnqueue(readableController as ReadableStreamDefaultController))
    throw new ERR_INVALID_STATE.TypeError('Unable to enqueue');
  try {
    readableStreamDefaultControllerEnqueue(readableController as ReadableStreamDefaultController, chunk);
  } catch (error) {
    transformStreamErrorWritableAndUnblockWrite(stream!, error);
    throw readable![kState].storedError;
  }
  const backpressure =
    readableStreamDefaultControllerHasBackpressure(readableController as ReadableStreamDefaultController);
  if (backpressure !== stream![kState].backpressure) {
    assert(backpressure);
    transformStreamSetBackpressure(stream!, true);
  }
}

function transformStreamError(stream: TransformStream, error: unknown): void {
  transformStreamFuseSettle(stream);
  const {
    readable,
  } = stream[kState];
  const {
    controller,
  } = readable![kState];
  readableStreamDefaultControllerError(controller as ReadableStreamDefaultController, error);
  transformStreamErrorWritableAndUnblockWrite(stream, error);
}

function transformStreamErrorWritableAndUnblockWrite(stream: TransformStream, error: unknown): void {
  transformStreamFuseSettle(stream);
  const {
    controller,
    writable,
  } = stream[kState];
  transformStreamDefaultControllerClearAlgorithms(controller!);
  writableStreamDefaultControllerErrorIfNeeded(
    writable![kState].controller!,
    error);
  transformStreamUnblockWrite(stream);
}

function transformStreamDefaultControllerTerminate(controller: TransformStreamDefaultController): void {
  const {
    stream,
  } = controller[kState];
  transformStreamFuseSettle(stream!);
  const {
    readable,
  } = stream![kState];
  assert(readable !== undefined);
  const {
    controller: readableController,
  } = readable![kState];
  readableStreamDefaultControllerClose(readableController as ReadableStreamDefaultController);
  transformStreamErrorWritableAndUnblockWrite(
    stream!,
    new ERR_INVALID_STATE.TypeError('TransformStream has been terminated'));
}

// The first enqueue() of a fused hop's transform(), into an empty readable
// side that can take it: the chunk the parked read would have received.
// Afterwards the stream is as that read's fulfilment leaves it (nothing
// queued, no read waiting, backpressure on), so what transform() does
// next takes the usual path. A chunk the pipe does not hold for the next
// TransformStream goes on at once, as from the read.
function transformStreamFuseCapture(stream: TransformStream, chunk: unknown): boolean {
  const state = stream[kState];
  const readableState = state.readable![kState];
  const readableControllerState = (readableState.controller as ReadableStreamDefaultController)[kState];
  if (readableState.state !== 'readable' || readableControllerState.closeRequested ||
      readableControllerState.queue.length !== 0) {
    transformStreamFuseSettle(stream);
    return false;
  }
  const hooks = state.fuse!;
  state.fuse = undefined;
  hooks.received();
  if (hooks.holds())
    state.fuseCaptured = chunk;
  else
    hooks.forward(chunk);
  return true;
}

// Brings a fused hop to where the unfused one would be now: before the
// first enqueue(), the pipe's read parked and the backpressure off; after
// it, the chunk handed to the pipe.
function transformStreamFuseSettle(stream: TransformStream): void {
  const state = stream[kState];
  const hooks = state.fuse;
  if (hooks !== undefined) {
    state.fuse = undefined;
    hooks.materialize();
    return;
  }
  const captured = state.fuseCaptured;
  if (captured !== kNoChunk) {
    state.fuseCaptured = kNoChunk;
    state.fuseHooks!.forward(captured);
  }
}

// A pipe's write into this stream while its transform() has been
// synchronous and the stream is idle: no backpressure (the readable side
// wants a chunk), nothing queued or in flight on the writable side, the
// default size algorithm. The write is in flight while transform() runs,
// as through the writable side, so an error() or terminate() it calls
// finds it there; when transform() returns a non-thenable the write
// completes at once instead of a turn later, without the writable side's
// queue, backpressure flips and completion reaction. The pipe is the only
// observer of all three. Anything else completes as the writable side
// would have. Returns false, having done nothing, when the stream is not
// idle.
export function transformStreamSyncWrite(
  stream: TransformStream,
  chunk: unknown,
  request: PipeWriteTracker): boolean {
  const state = stream[kState];
  if (state.backpressure || !transformStreamWritableIdle(stream))
    return false;
  transformStreamCompleteSyncWrite(stream, transformStreamRunSyncWrite(stream, chunk, request));
  return true;
}

// The writable side idle (nothing queued or in flight, started, the
// default size algorithm) and transform() still there.
function transformStreamWritableIdle(stream: TransformStream): boolean {
  const state = stream[kState];
  const writableState = state.writable![kState];
  if (writableState.state !== 'writable' ||
      writableState.inFlightWriteRequest.promise !== undefined ||
      writableState.closeQueuedOrInFlight)
    return false;
  const writableControllerState = writableState.controller![kState];
  if (!writableControllerState.started ||
      writableControllerState.queue.length ||
      writableControllerState.sizeAlgorithm !== defaultSizeAlgorithm ||
      writableControllerState.writeFulfilled === undefined)
    return false;
  return state.controller![kState].transformAlgorithm !== undefined;
}

// transform() with the pipe's write in flight; its result, or a rejected
// promise if it threw.
function transformStreamRunSyncWrite(stream: TransformStream, chunk: unknown, request: PipeWriteTracker): unknown {
  const state = stream[kState];
  const writableState = state.writable![kState];
  const writableControllerState = writableState.controller![kState];
  const controller = state.controller!;
  request.pending++;
  // The pipe's tracker stands in for the write request (`promise` null).
  writableState.inFlightWriteRequest = request as unknown as PromiseRecord<void>;
  writableControllerState.queueTotalSize += 1;
  writableControllerState.inFlightChunkSize = 1;
  try {
    return controller[kState].transformAlgorithm!(chunk, controller);
  } catch (error) {
    return PromiseReject(error);
  }
}

function transformStreamCompleteSyncWrite(stream: TransformStream, result: unknown): void {
  const state = stream[kState];
  const writable = state.writable!;
  const writableState = writable[kState];
  const writableController = writableState.controller!;
  const writableControllerState = writableController[kState];
  const synchronous = result === null ||
    (typeof result !== 'object' && typeof result !== 'function');
  if (synchronous && writableState.state === 'writable') {
    writableControllerState.queueTotalSize -= 1;
    writableControllerState.inFlightChunkSize = 0;
    writableStreamFinishInFlightWrite(writable);
    return;
  }

  // The writable side publishes its backpressure before its write
  // algorithm runs; when transform() has errored it meanwhile, only the
  // flag (its ready record is already rejected).
  if (writableState.state === 'writable') {
    writableStreamUpdateBackpressure(writableController, writableState);
  } else {
    writableState.backpressure =
      writableControllerState.highWaterMark - writableControllerState.queueTotalSize <= 0;
  }
  if (synchronous) {
    PromisePrototypeThen(kResolvedPromise, writableControllerState.writeFulfilled!);
    return;
  }
  state.syncTransform = false;
  const controller = state.controller!;
  const controllerState = controller[kState];
  controllerState.performTransformRejected ??= (error: unknown) => {
    transformStreamError(controller[kState].stream!, error);
    throw error;
  };
  PromisePrototypeThen(
    PromisePrototypeThen(
      PromiseResolve(result),
      undefined,
      controllerState.performTransformRejected),
    writableControllerState.writeFulfilled,
    writableControllerState.writeRejected);
}

// Whether a pipe that may resume the pipe holding a chunk for this stream
// (see demandable in readablestream.js) may run the hop itself instead:
// transform() has been synchronous and the writable side is idle.
export function transformStreamFuseReady(stream: TransformStream): boolean {
  return stream[kState].syncTransform && transformStreamWritableIdle(stream);
}

// transformStreamSyncWrite() for a fused hop (see fusedHop in
// readablestream.js): the same in-flight write around transform(), with
// the read and backpressure left as they were until transform() touches
// its controller. Returns the chunk transform() enqueued for the pipe to
// hold when transform() did nothing else and returned a non-thenable;
// otherwise kNoChunk, with the hop brought up to date and the write
// completed as transformStreamSyncWrite() would.
export function transformStreamFusedWrite(
  stream: TransformStream,
  chunk: unknown,
  request: PipeWriteTracker,
  hooks: TransformStreamFuseHooks): unknown {
  const state = stream[kState];
  state.fuse = hooks;
  state.fuseHooks = hooks;
  const result = transformStreamRunSyncWrite(stream, chunk, request);
  const captured = state.fuseCaptured;
  if (captured !== kNoChunk && state.writable![kState].state === 'writable' &&
      (result === null || (typeof result !== 'object' && typeof result !== 'function'))) {
    state.fuseCaptured = kNoChunk;
    transformStreamCompleteSyncWrite(stream, result);
    return captured;
  }
  transformStreamFuseSettle(stream);
  transformStreamCompleteSyncWrite(stream, result);
  return kNoChunk;
}
