import { kEmptyQueue, kState, thenAlgorithmResult, type PromiseRecord } from 'internal/webstreams/util';
import {
  isWritableStreamLocked,
  writableStreamDefaultControllerAdvanceQueueIfNeeded,
  writableStreamDefaultControllerClearAlgorithms,
  writableStreamDefaultControllerGetChunkSize,
  writableStreamDefaultControllerWrite,
  writableStreamFinishInFlightWrite,
  writableStreamFinishInFlightWriteWithError,
  writableStreamMarkFirstWriteRequestInFlight,
  writableStreamUpdateBackpressure,
  type AbortAlgorithm,
  type CloseAlgorithm,
  type WritableStream,
  type WritableStreamDefaultController,
  type WritableStreamDefaultWriter,
  type WritableStreamState,
  type WriteAlgorithm,
} from 'internal/webstreams/writablestream';
import { isWritableStream, writableStreamDefaultControllerScheduleStart } from 'internal/webstreams/writablestream';
import { Queue, kDeferredStart } from 'internal/webstreams/util';
import type { PipeWriteTracker, SizeAlgorithm, StartAlgorithm } from 'internal/webstreams/readablestream';
import { ERR_INVALID_STATE } from 'internal/errors';
import assert from 'internal/assert';

const {
  MathMax,
  PromiseReject,
  PromiseWithResolvers,
} = primordials;

function setupWritableStreamDefaultController(
  stream: WritableStream,
  controller: WritableStreamDefaultController,
  startAlgorithm: StartAlgorithm,
  writeAlgorithm: WriteAlgorithm,
  closeAlgorithm: CloseAlgorithm,
  abortAlgorithm: AbortAlgorithm,
  highWaterMark: number,
  sizeAlgorithm: SizeAlgorithm): void {
  assert(isWritableStream(stream));
  assert(stream[kState].controller === undefined);
  controller[kState] = {
    abortAlgorithm,
    closeAlgorithm,
    highWaterMark,
    queue: kEmptyQueue,
    queueTotalSize: 0,
    abortController: undefined,
    sizeAlgorithm,
    started: false,
    stream,
    writeAlgorithm,
    writeFulfilled: undefined,
    writeRejected: undefined,
    owner: undefined,
    inFlightChunkSize: 0,
  };
  stream[kState].controller = controller;

  writableStreamUpdateBackpressure(controller, stream[kState]);

  const startResult = startAlgorithm();
  if (startResult === kDeferredStart) {
    // A TransformStream's side: it runs the post-start step itself.
    return;
  }
  writableStreamDefaultControllerScheduleStart(stream, controller, startResult);
}

function writableStreamAddWriteRequest(
  stream: WritableStream,
  writeRequest: PromiseRecord<void> = PromiseWithResolvers<void>()): Promise<void> {
  assert(isWritableStreamLocked(stream));
  assert(stream[kState].state === 'writable');
  const streamState = stream[kState];
  let writeRequests = streamState.writeRequests;
  if (writeRequests === kEmptyQueue)
    writeRequests = streamState.writeRequests = new Queue();
  writeRequests.push(writeRequest);
  return writeRequest.promise;
}

function writableStreamDefaultWriterWrite(writer: WritableStreamDefaultWriter, chunk: unknown): Promise<void> {
  const writerState = writer[kState];
  const stream = writerState.stream;
  assert(stream !== undefined);
  const streamState = stream[kState];
  const {
    controller,
  } = streamState as { controller: WritableStreamDefaultController };
  const chunkSize = writableStreamDefaultControllerGetChunkSize(
    controller,
    chunk);
  if (stream !== writerState.stream) {
    return PromiseReject(
      new ERR_INVALID_STATE.TypeError('Mismatched WritableStreams'));
  }
  const {
    state,
  } = streamState;

  if (state === 'errored')
    return PromiseReject(streamState.storedError);

  if (streamState.closeQueuedOrInFlight || state === 'closed') {
    return PromiseReject(
      new ERR_INVALID_STATE.TypeError('WritableStream is closed'));
  }

  if (state === 'erroring')
    return PromiseReject(streamState.storedError);

  assert(state === 'writable');

  const writeRequest = PromiseWithResolvers<void>();
  writableStreamWriteChunk(stream, controller, chunk, chunkSize, writeRequest);
  return writeRequest.promise;
}

// Variant of writableStreamDefaultWriterWrite for pipeTo: the caller
// provides a shared request object instead of a per-write promise record.
// `pending` is incremented before the controller write, which can settle
// requests synchronously when the stream starts erroring; precondition
// failures are latched on `failed`/`failure`.
function writableStreamDefaultWriterWriteWithRequest(writer: WritableStreamDefaultWriter, chunk: unknown, request: PipeWriteTracker): void {
  const writerState = writer[kState];
  const stream = writerState.stream;
  assert(stream !== undefined);
  const streamState = stream[kState];
  const {
    controller,
  } = streamState as { controller: WritableStreamDefaultController };
  const chunkSize = writableStreamDefaultControllerGetChunkSize(
    controller,
    chunk);
  if (stream !== writerState.stream) {
    request.failed = true;
    request.failure =
      new ERR_INVALID_STATE.TypeError('Mismatched WritableStreams');
    return;
  }
  const {
    state,
  } = streamState;

  if (state === 'errored') {
    request.failed = true;
    request.failure = streamState.storedError;
    return;
  }

  if (streamState.closeQueuedOrInFlight || state === 'closed') {
    request.failed = true;
    request.failure =
      new ERR_INVALID_STATE.TypeError('WritableStream is closed');
    return;
  }

  if (state === 'erroring') {
    request.failed = true;
    request.failure = streamState.storedError;
    return;
  }

  assert(state === 'writable');

  request.pending++;
  // The pipe's tracker stands in for the write request (`promise` null).
  writableStreamWriteChunk(stream, controller, chunk, chunkSize, request as unknown as PromiseRecord<void>);
}

// The last two steps of both writer writes: WritableStreamAddWriteRequest
// and WritableStreamDefaultControllerWrite, or the direct write that
// stands for both when the stream is idle. The caller has checked that
// the stream is writable with no close queued or in flight.
// @overlay-after writableStreamDefaultWriterWriteWithRequest
function writableStreamWriteChunk(
  stream: WritableStream,
  controller: WritableStreamDefaultController,
  chunk: unknown,
  chunkSize: unknown,
  writeRequest: PromiseRecord<void>): void {
  if (writableStreamDefaultControllerWriteDirectly(
    controller, stream[kState], chunk, chunkSize, writeRequest))
    return;
  writableStreamAddWriteRequest(stream, writeRequest);
  writableStreamDefaultControllerWrite(controller, chunk, chunkSize);
}

// The write at the head of [[queue]] leaves the queue when it starts
// rather than when it settles. Nothing can observe the difference: no
// other write or the close can start while one is in flight, and while it
// is, the queue is only appended to (close() and further writes) or, once
// the stream has errored, reset. What the queue's head is observable
// through is [[queueTotalSize]] (desiredSize and backpressure), so the
// chunk's size stays counted there until DequeueValue's step in the write
// reaction, kept in [[inFlightChunkSize]].
function writableStreamDefaultControllerProcessWrite(controller: WritableStreamDefaultController, chunk: unknown): void {
  const controllerState = controller[kState];
  writableStreamMarkFirstWriteRequestInFlight(controllerState.stream);
  const queue = controllerState.queue;
  queue.shiftPair();
  controllerState.inFlightChunkSize = queue.dequeuedSize;
  writableStreamDefaultControllerCallWriteAlgorithm(controller, chunk);
}

// A write that finds the queue empty and nothing in flight on a started
// stream would be enqueued, then at once taken out again by ProcessWrite,
// its request pushed and then shifted into [[inFlightWriteRequest]]. It
// goes in flight directly instead, with the same steps in the same order
// (EnqueueValueWithSize's size check and total, UpdateBackpressure, the
// write algorithm) minus the queue traffic. Returns false, having done
// nothing, when the write has to queue (see writableStreamWriteChunk).
// @overlay-after writableStreamDefaultControllerProcessWrite
function writableStreamDefaultControllerWriteDirectly(
  controller: WritableStreamDefaultController,
  streamState: WritableStreamState,
  chunk: unknown,
  chunkSize: unknown,
  writeRequest: PromiseRecord<void>): boolean {
  const controllerState = controller[kState];
  if (!controllerState.started ||
      controllerState.queue.length !== 0 ||
      streamState.inFlightWriteRequest.promise !== undefined ||
      typeof chunkSize !== 'number' ||
      !(chunkSize >= 0) ||
      chunkSize === Infinity)
    return false;
  controllerState.queueTotalSize += chunkSize;
  controllerState.inFlightChunkSize = chunkSize;
  writableStreamUpdateBackpressure(controller, streamState);
  streamState.inFlightWriteRequest = writeRequest;
  writableStreamDefaultControllerCallWriteAlgorithm(controller, chunk);
  return true;
}

// ProcessWrite's steps from the write algorithm on.
// @overlay-after writableStreamDefaultControllerProcessWrite
function writableStreamDefaultControllerCallWriteAlgorithm(controller: WritableStreamDefaultController, chunk: unknown): void {
  const {
    stream,
    writeAlgorithm,
  } = controller[kState];

  if (controller[kState].writeFulfilled === undefined) {
    // The write reaction closures only capture the stream and controller,
    // so they are created once on the first write and reused for every
    // subsequent write instead of allocating two fresh closures per chunk.
    controller[kState].writeFulfilled = () => {
      writableStreamFinishInFlightWrite(stream);
      const streamState = stream[kState];
      const {
        state,
      } = streamState;
      assert(state === 'writable' || state === 'erroring');
      // DequeueValue: the chunk itself left the queue when it went in
      // flight (see writableStreamDefaultControllerProcessWrite).
      const controllerState = controller[kState];
      controllerState.queueTotalSize = MathMax(
        0, controllerState.queueTotalSize - controllerState.inFlightChunkSize!);
      controllerState.inFlightChunkSize = 0;
      if (!streamState.closeQueuedOrInFlight &&
          state === 'writable') {
        writableStreamUpdateBackpressure(controller, streamState);
      }
      writableStreamDefaultControllerAdvanceQueueIfNeeded(controller);
    };
    controller[kState].writeRejected = (error) => {
      controller[kState].inFlightChunkSize = 0;
      if (stream[kState].state === 'writable')
        writableStreamDefaultControllerClearAlgorithms(controller);
      writableStreamFinishInFlightWriteWithError(stream, error);
    };
  }

  // The write algorithm may be a raw callback (a wrapped user sink.write
  // returns its result uncoerced; a synchronous throw surfaces here) or an
  // internal algorithm that always returns a promise; thenAlgorithmResult
  // handles both.
  let result;
  try {
    result = writeAlgorithm!(chunk, controller);
  } catch (error) {
    result = PromiseReject(error);
  }
  thenAlgorithmResult(
    result,
    controller[kState].writeFulfilled,
    controller[kState].writeRejected);
}
