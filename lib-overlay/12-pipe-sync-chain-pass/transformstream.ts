import {
  defaultSizeAlgorithm,
  kResolvedPromise,
  kState,
  queuePipeStep,
  type PromiseRecord,
} from 'internal/webstreams/util';
import {
  transformStreamError,
  type TransformStream,
} from 'internal/webstreams/transformstream';
import {
  writableStreamFinishInFlightWrite,
  writableStreamUpdateBackpressure,
} from 'internal/webstreams/writablestream';
import type { PipeWriteTracker } from 'internal/webstreams/readablestream';
import assert from 'internal/assert';

const {
  PromisePrototypeThen,
  PromiseReject,
  PromiseResolve,
} = primordials;

class TransformStreamState {
  // @overlay-add
  // The pipe writing into this stream, waiting until it wants a chunk
  // (see readableStreamPipeTo).
  demandHook: (() => void) | undefined = undefined;
}

function transformStreamSetBackpressure(stream: TransformStream, backpressure: boolean): void {
  const state = stream[kState];
  assert(state.backpressure !== backpressure);
  state.backpressure = backpressure;
  if (backpressure) {
    if (state.pullPending) {
      state.pullPending = false;
      // The pull-fulfilled step exists: a pull parked it (see
      // transformStreamDefaultSourcePullAlgorithm), and the readable
      // controller creates it before invoking the pull algorithm. Inside
      // a pipe step it runs after that step instead of a microtask later:
      // it only ends the pull, which nothing but the readable side sees.
      queuePipeStep(state.readable![kState].controller![kState].pullFulfilled!);
    }
  } else {
    if (state.pendingWriteParked)
      PromisePrototypeThen(kResolvedPromise, state.writeContinuation!);
    if (state.demandHook !== undefined) {
      const demandHook = state.demandHook;
      state.demandHook = undefined;
      queuePipeStep(demandHook);
    }
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
  if (state.backpressure)
    return false;
  const writable = state.writable!;
  const writableState = writable[kState];
  if (writableState.state !== 'writable' ||
      writableState.inFlightWriteRequest.promise !== undefined ||
      writableState.closeQueuedOrInFlight)
    return false;
  const writableController = writableState.controller!;
  const writableControllerState = writableController[kState];
  if (!writableControllerState.started ||
      writableControllerState.queue.length ||
      writableControllerState.sizeAlgorithm !== defaultSizeAlgorithm ||
      writableControllerState.writeFulfilled === undefined)
    return false;
  const controller = state.controller!;
  const transformAlgorithm = controller[kState].transformAlgorithm;
  if (transformAlgorithm === undefined)
    return false;

  request.pending++;
  // The pipe's tracker stands in for the write request (`promise` null).
  writableState.inFlightWriteRequest = request as unknown as PromiseRecord<void>;
  writableControllerState.queueTotalSize += 1;
  writableControllerState.inFlightChunkSize = 1;
  let result;
  try {
    result = transformAlgorithm(chunk, controller);
  } catch (error) {
    result = PromiseReject(error);
  }
  const synchronous = result === null ||
    (typeof result !== 'object' && typeof result !== 'function');
  if (synchronous && writableState.state === 'writable') {
    writableControllerState.queueTotalSize -= 1;
    writableControllerState.inFlightChunkSize = 0;
    writableStreamFinishInFlightWrite(writable);
    return true;
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
    PromisePrototypeThen(kResolvedPromise, writableControllerState.writeFulfilled);
    return true;
  }
  state.syncTransform = false;
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
  return true;
}
