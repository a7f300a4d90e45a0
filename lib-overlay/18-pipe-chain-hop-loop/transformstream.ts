import {
  kNoChunk,
  kState,
  type PromiseRecord,
} from 'internal/webstreams/util';
import {
  transformStreamCompleteSyncWrite,
  transformStreamErrorWritableAndUnblockWrite,
  transformStreamFuseCapture,
  transformStreamRunSyncWrite,
  transformStreamSetBackpressure,
  type TransformStream,
  type TransformStreamDefaultController,
  type TransformStreamFuseHooks,
} from 'internal/webstreams/transformstream';
import {
  readableStreamDefaultControllerCanCloseOrEnqueue,
  readableStreamDefaultControllerEnqueue,
  readableStreamDefaultControllerHasBackpressure,
  type PipeWriteTracker,
  type ReadableStreamDefaultController,
} from 'internal/webstreams/readablestream';
import { ERR_INVALID_STATE } from 'internal/errors';
import assert from 'internal/assert';

const {
  PromiseReject,
} = primordials;

// The hop of a pipe chain's loop whose transform() is running (see
// transformStreamPassTransform). One at a time: a loop that starts inside
// a transform() first brings the running hop up to date.
const pass: {
  stream: TransformStream | undefined;
  out: unknown;
  hooks: TransformStreamFuseHooks | undefined;
  request: PipeWriteTracker | undefined;
  forwards: boolean;
} = {
  stream: undefined,
  out: kNoChunk,
  hooks: undefined,
  request: undefined,
  forwards: false,
};

// enqueue() while a loop's hop runs: true where it is the hop's first, the
// chunk the pipe's parked read would have received, with the readable side
// as that read leaves it; otherwise the hop is brought up to date first.
// Kept out of transformStreamDefaultControllerEnqueue() so that it stays
// small enough to be inlined.
function transformStreamPassEnqueue(stream: TransformStream, chunk: unknown): boolean {
  if (pass.stream === stream && pass.out === kNoChunk) {
    pass.out = chunk;
    if (pass.forwards) {
      pass.hooks!.received();
      pass.hooks!.forward(chunk);
    }
    return true;
  }
  transformStreamPassMaterialize();
  return false;
}

function transformStreamDefaultControllerEnqueue(controller: TransformStreamDefaultController, chunk: unknown): void {
  const {
    stream,
  } = controller[kState];
  if (pass.stream !== undefined && transformStreamPassEnqueue(stream!, chunk))
    return;
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

// Brings a fused hop to where the unfused one would be now: before the
// first enqueue(), the pipe's read parked and the backpressure off; after
// it, the chunk handed to the pipe. A loop's running hop first becomes a
// fused hop.
function transformStreamFuseSettle(stream: TransformStream): void {
  if (pass.stream !== undefined)
    transformStreamPassMaterialize();
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

// transformStreamSyncWrite() for a fused hop (see fusedHop in
// readablestream.js): the same in-flight write around transform(), with
// the read and backpressure left as they were until transform() touches
// its controller. Returns the chunk transform() enqueued for the pipe to
// hold when transform() did nothing else and returned a non-thenable;
// otherwise kNoChunk, with the hop brought up to date and the write
// completed as transformStreamSyncWrite() would. Its steps are not shared
// with the loop's (transformStreamStartSyncWrite,
// transformStreamCallTransform, transformStreamFuseFinish): the extra
// calls measured slower on this path, which every hop outside a loop
// takes.
export function transformStreamFusedWrite(
  stream: TransformStream,
  chunk: unknown,
  request: PipeWriteTracker,
  hooks: TransformStreamFuseHooks): unknown {
  // A fused hop inside a loop's transform(): the loop's hop first.
  if (pass.stream !== undefined)
    transformStreamPassMaterialize();
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

// The pipe's write in flight on the writable side, its tracker standing in
// for the write request (`promise` null).
function transformStreamStartSyncWrite(stream: TransformStream, request: PipeWriteTracker): void {
  const writableState = stream[kState].writable![kState];
  const writableControllerState = writableState.controller![kState];
  request.pending++;
  writableState.inFlightWriteRequest = request as unknown as PromiseRecord<void>;
  writableControllerState.queueTotalSize += 1;
  writableControllerState.inFlightChunkSize = 1;
}

function transformStreamCallTransform(stream: TransformStream, chunk: unknown): unknown {
  const controller = stream[kState].controller!;
  try {
    return controller[kState].transformAlgorithm!(chunk, controller);
  } catch (error) {
    return PromiseReject(error);
  }
}

// A fused hop after transform() returned: the chunk it enqueued for the
// pipe to hold when it did nothing else and returned a non-thenable;
// otherwise kNoChunk, with the hop brought up to date and the write
// completed as transformStreamSyncWrite() would.
function transformStreamFuseFinish(stream: TransformStream, result: unknown): unknown {
  const state = stream[kState];
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

// A hop of a pipe chain's loop (see fusedHop in readablestream.js):
// transform() with nothing around it. Where it enqueues one chunk and
// returns a non-thenable, the write it stands for would have started and
// completed inside this call, the reading pipe's read been parked and
// fulfilled, and the backpressure cleared and set again, all with no
// effect left behind; the chunk is returned, or, where the pipe forwards
// it to its sink, was forwarded as the read would have. Anything else
// transform() does with any TransformStream's controller, a pipe shutting
// down, or another return brings the hop up to date first
// (transformStreamPassMaterialize), and the hop ends as a fused hop does:
// `hooks.passEnded` is then set.
export function transformStreamPassTransform(
  stream: TransformStream,
  chunk: unknown,
  request: PipeWriteTracker,
  hooks: TransformStreamFuseHooks,
  forwards: boolean): unknown {
  transformStreamPassMaterialize();
  hooks.passEnded = false;
  pass.stream = stream;
  pass.out = kNoChunk;
  pass.hooks = hooks;
  pass.request = request;
  pass.forwards = forwards;
  const result = transformStreamCallTransform(stream, chunk);
  if (pass.stream === stream) {
    const out = pass.out;
    if (out !== kNoChunk &&
        (result === null || (typeof result !== 'object' && typeof result !== 'function'))) {
      transformStreamPassClear();
      return out;
    }
    transformStreamPassMaterialize();
  }
  return transformStreamFuseFinish(stream, result);
}

function transformStreamPassClear(): void {
  pass.stream = undefined;
  pass.out = kNoChunk;
  pass.hooks = undefined;
  pass.request = undefined;
}

// Brings the running hop of a loop to where a fused hop would be now: the
// write in flight, and the reading pipe's read about to be parked or the
// chunk transform() enqueued received.
export function transformStreamPassMaterialize(): void {
  const stream = pass.stream;
  if (stream === undefined)
    return;
  const { out, hooks, request, forwards } = pass;
  transformStreamPassClear();
  hooks!.passEnded = true;
  const state = stream[kState];
  transformStreamStartSyncWrite(stream, request!);
  state.fuseHooks = hooks;
  if (out === kNoChunk) {
    state.fuse = hooks;
  } else if (!forwards) {
    hooks!.received();
    state.fuseCaptured = out;
  }
}

