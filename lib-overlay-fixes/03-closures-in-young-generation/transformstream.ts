import { kParkedAlgorithmResult, kResolvedPromise, kState } from 'internal/webstreams/util';
import {
  transformStreamError,
  type TransformStream,
  type TransformStreamDefaultController,
} from 'internal/webstreams/transformstream';
import assert from 'internal/assert';

const {
  PromisePrototypeThen,
  PromiseReject,
  PromiseResolve,
} = primordials;

// @overlay-after transformStreamDefaultControllerPerformTransform
// PerformTransform's rejection steps for `controller`, created once and
// kept in its state. Returned rather than created where they are stored,
// so that the transform step captures nothing (no context per chunk), and
// because V8 allocates a function literal assigned straight to a property
// in the old generation, where, once dead, it would keep the stream alive
// until the next full garbage collection.
function transformStreamDefaultControllerRejectionSteps(controller: TransformStreamDefaultController): (error: unknown) => never {
  return (error: unknown) => {
    transformStreamError(controller[kState].stream!, error);
    throw error;
  };
}

function transformStreamDefaultControllerPerformTransform(controller: TransformStreamDefaultController, chunk: unknown): Promise<unknown> {
  const controllerState = controller[kState];
  const transformAlgorithm = controllerState.transformAlgorithm;
  if (transformAlgorithm === undefined) {
    // Algorithms were cleared by a concurrent cancel/abort/close.
    return kResolvedPromise;
  }
  let result;
  try {
    result = transformAlgorithm(chunk, controller);
  } catch (error) {
    result = PromiseReject(error);
  }
  if (result === null ||
      (typeof result !== 'object' && typeof result !== 'function')) {
    result = kResolvedPromise;
  } else {
    result = PromiseResolve(result);
  }
  controllerState.performTransformRejected ??=
    transformStreamDefaultControllerRejectionSteps(controller);
  return PromisePrototypeThen(
    result,
    undefined,
    controllerState.performTransformRejected);
}

function transformStreamDefaultSinkWriteAlgorithm(stream: TransformStream, chunk: unknown): unknown {
  const state = stream[kState];
  const {
    writable,
    controller,
  } = state;
  assert(writable![kState].state === 'writable');
  if (state.backpressure) {
    // Park the chunk; the backpressure -> false flip delivers the cached
    // continuation (see transformStreamSetBackpressure) at the same
    // microtask position as the old [[backpressureChangePromise]]
    // reaction. The continuation completes the parked write by wiring
    // the perform-transform promise directly to the writable
    // controller's write reactions (they exist: the controller creates
    // them before invoking the write algorithm), replacing the promise
    // record the old code allocated and resolved per parked chunk. The
    // writable dispatches a single write at a time, so one pending slot
    // suffices.
    assert(!state.pendingWriteParked);
    state.pendingWriteParked = true;
    state.pendingWriteChunk = chunk;
    state.writeContinuation ??= transformStreamParkedWriteContinuation(stream);
    return kParkedAlgorithmResult;
  }
  return transformStreamDefaultControllerPerformTransform(controller!, chunk);
}

// @overlay-after transformStreamDefaultSinkWriteAlgorithm
// The continuation of a parked write (see
// transformStreamDefaultSinkWriteAlgorithm), created once per stream.
// Returned rather than created in the write algorithm, so that the write
// algorithm captures nothing (no context per write), and so that it is not
// a function literal assigned straight to a property (see
// transformStreamDefaultControllerRejectionSteps).
function transformStreamParkedWriteContinuation(stream: TransformStream): () => void {
  const state = stream[kState];
  const controller = state.controller;
  return () => {
    const pendingChunk = state.pendingWriteChunk;
    state.pendingWriteParked = false;
    state.pendingWriteChunk = undefined;
    const writableState = state.writable![kState];
    const writableControllerState = writableState.controller![kState];
    if (writableState.state === 'erroring') {
      const error = writableState.storedError;
      PromisePrototypeThen(
        kResolvedPromise,
        () => writableControllerState.writeRejected!(error));
      return;
    }
    assert(writableState.state === 'writable');
    PromisePrototypeThen(
      transformStreamDefaultControllerPerformTransform(
        controller!,
        pendingChunk),
      writableControllerState.writeFulfilled,
      writableControllerState.writeRejected);
  };
}
