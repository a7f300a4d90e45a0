import { kDeferredStart, kEmptyQueue, kState } from 'internal/webstreams/util';
import {
  isWritableStream,
  writableStreamDefaultControllerScheduleStart,
  writableStreamUpdateBackpressure,
  type AbortAlgorithm,
  type CloseAlgorithm,
  type UnderlyingSinkMethods,
  type WritableStream,
  type WritableStreamDefaultController,
  type WritableStreamDefaultControllerState,
  type WritableStreamState as StreamState,
  type WriteAlgorithm,
} from 'internal/webstreams/writablestream';
import type { SizeAlgorithm, StartAlgorithm } from 'internal/webstreams/readablestream';
import assert from 'internal/assert';

class WritableStreamState {
  // @overlay-add
  // The controller's slots. One record holds the stream's internal slots
  // and, from SetUpWritableStreamDefaultController on, its controller's:
  // a stream has one controller for its whole life and the two sets of
  // slots share no name, so controller[kState] is stream[kState].
  abortAlgorithm = undefined;
  // @overlay-add
  closeAlgorithm = undefined;
  // @overlay-add
  highWaterMark = 1;
  // @overlay-add
  queue = kEmptyQueue;
  // @overlay-add
  queueTotalSize = 0;
  // @overlay-add
  abortController = undefined;
  // @overlay-add
  sizeAlgorithm = undefined;
  // @overlay-add
  started = false;
  // @overlay-add
  stream = undefined;
  // @overlay-add
  writeAlgorithm = undefined;
  // @overlay-add
  writeFulfilled = undefined;
  // @overlay-add
  writeRejected = undefined;
  // @overlay-add
  owner = undefined;
  // @overlay-add
  inFlightChunkSize = 0;
  // @overlay-add
  sink = undefined;
}

function setupWritableStreamDefaultController(
  stream: WritableStream,
  controller: WritableStreamDefaultController,
  startAlgorithm: StartAlgorithm,
  writeAlgorithm: WriteAlgorithm,
  closeAlgorithm: CloseAlgorithm,
  abortAlgorithm: AbortAlgorithm,
  highWaterMark: number,
  sizeAlgorithm: SizeAlgorithm,
  sink?: UnderlyingSinkMethods): void {
  assert(isWritableStream(stream));
  assert(stream[kState].controller === undefined);
  const state = stream[kState] as StreamState & WritableStreamDefaultControllerState;
  state.abortAlgorithm = abortAlgorithm;
  state.closeAlgorithm = closeAlgorithm;
  state.highWaterMark = highWaterMark;
  state.sizeAlgorithm = sizeAlgorithm;
  state.stream = stream;
  state.writeAlgorithm = writeAlgorithm;
  state.sink = sink;
  state.controller = controller;
  controller[kState] = state;

  writableStreamUpdateBackpressure(controller, state);

  const startResult = startAlgorithm();
  if (startResult === kDeferredStart) {
    // A TransformStream's side: it runs the post-start step itself.
    return;
  }
  writableStreamDefaultControllerScheduleStart(stream, controller, startResult);
}
