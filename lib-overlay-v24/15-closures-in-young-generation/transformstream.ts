import { kResolvedPromise, kState } from 'internal/webstreams/util';
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
  PromiseWithResolvers,
} = primordials;

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

function transformStreamDefaultSinkWriteAlgorithm(stream: TransformStream, chunk: unknown): Promise<unknown> {
  const state = stream[kState];
  const {
    writable,
    controller,
  } = state;
  assert(writable![kState].state === 'writable');
  if (state.backpressure) {
    // Park the chunk and one promise record; the backpressure -> false
    // flip delivers the cached continuation (see
    // transformStreamSetBackpressure) at the same microtask position as
    // the old [[backpressureChangePromise]] reaction. The continuation
    // resolves the sink promise with the perform-transform promise, so
    // adoption reproduces the old derived-chain settle depth exactly.
    // The writable dispatches a single write at a time, so one pending
    // slot suffices.
    assert(state.pendingWrite === undefined);
    const pendingWrite = PromiseWithResolvers<unknown>();
    state.pendingWrite = pendingWrite;
    state.pendingWriteChunk = chunk;
    state.writeContinuation ??= transformStreamParkedWriteContinuation(stream);
    return pendingWrite.promise;
  }
  return transformStreamDefaultControllerPerformTransform(controller!, chunk);
}

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
    const pending = state.pendingWrite!;
    const pendingChunk = state.pendingWriteChunk;
    state.pendingWrite = undefined;
    state.pendingWriteChunk = undefined;
    const writableState = state.writable![kState];
    if (writableState.state === 'erroring') {
      pending.reject(writableState.storedError);
      return;
    }
    assert(writableState.state === 'writable');
    pending.resolve(
      transformStreamDefaultControllerPerformTransform(
        controller!,
        pendingChunk));
  };
}
