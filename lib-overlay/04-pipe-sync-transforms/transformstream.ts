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

// Mirrors the reference implementation's
// `promiseCall(transformAlgorithm, ...).then(undefined, rejectionSteps)`:
// the returned promise settles one microtask after the (coerced) result
// does, and a rejection errors the transform stream before propagating.
// The raw transform callback plus the shared resolved promise for
// non-thenable results replace the previous async wrapper's two implicit
// promises per chunk.
//
// A write from a pipe is only ever observed by the pipe: when the
// transform returned a non-thenable, the write completes one turn after
// the transform returned (undefined here) instead of two, so microtasks
// the transform queued still run before the pipe writes its next chunk.
// Whether the transform was synchronous is remembered for the pipes that
// read from this TransformStream (see pipeWrite in readablestream.js).
function transformStreamDefaultControllerPerformTransform(
  controller: TransformStreamDefaultController,
  chunk: unknown): Promise<unknown> | undefined {
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
  const state = controllerState.stream![kState];
  if (result === null ||
      (typeof result !== 'object' && typeof result !== 'function')) {
    if (state.writable![kState].inFlightWriteRequest.promise === null && !state.passThrough) {
      state.syncTransform = true;
      return undefined;
    }
    result = kResolvedPromise;
  } else {
    state.syncTransform = false;
    result = PromiseResolve(result);
  }
  controllerState.performTransformRejected ??= (error: unknown) => {
    transformStreamError(controller[kState].stream!, error);
    throw error;
  };
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
    state.writeContinuation ??= () => {
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
      const transformed = transformStreamDefaultControllerPerformTransform(
        controller!,
        pendingChunk);
      if (transformed === undefined) {
        // A pipe's write whose transform returned a non-thenable.
        PromisePrototypeThen(kResolvedPromise, writableControllerState.writeFulfilled);
      } else {
        PromisePrototypeThen(
          transformed,
          writableControllerState.writeFulfilled,
          writableControllerState.writeRejected);
      }
    };
    return kParkedAlgorithmResult;
  }
  return transformStreamDefaultControllerPerformTransform(controller!, chunk);
}

class TransformStreamState {
  // @overlay-add
  // See transformStreamDefaultControllerPerformTransform.
  syncTransform = false;
}
