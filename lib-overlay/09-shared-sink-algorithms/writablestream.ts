import {
  createRawCallback2Params,
  kDeferredStart,
  kEmptyQueue,
  kState,
  nonOpCallback,
  nonOpCancel,
} from 'internal/webstreams/util';
import {
  isWritableStream,
  kSkipThrow,
  writableStreamDefaultControllerScheduleStart,
  writableStreamUpdateBackpressure,
  WritableStreamDefaultController,
  type AbortAlgorithm,
  type CloseAlgorithm,
  type WritableStream,
  type WriteAlgorithm,
} from 'internal/webstreams/writablestream';
import type { SizeAlgorithm, StartAlgorithm } from 'internal/webstreams/readablestream';
import { validateFunction } from 'internal/validators';
import assert from 'internal/assert';

const {
  FunctionPrototypeBind,
  FunctionPrototypeCall,
} = primordials;

type SinkMethod = (...args: unknown[]) => unknown;

interface UnderlyingSink {
  start?: unknown;
  write?: unknown;
  close?: unknown;
  abort?: unknown;
}

// The underlying sink and its close() and abort(), read once at
// construction. A stream keeps this one record instead of an async
// wrapper closure (and its context) per method: close() and abort() run
// at most once per stream, through the shared algorithms below, which
// find the record on the controller. write() keeps its wrapper closure:
// it runs once per chunk, and the closure is the cheaper call.
// @overlay-after writableStreamDefaultControllerAdvanceQueueIfNeeded
class UnderlyingSinkMethods {
  declare sink: object;
  declare close: SinkMethod | undefined;
  declare abort: SinkMethod | undefined;

  constructor(sink: object, close: SinkMethod | undefined, abort: SinkMethod | undefined) {
    this.sink = sink;
    this.close = close;
    this.abort = abort;
  }
}

// The sink's close(), called without arguments; a synchronous throw
// rejects the returned promise, as the async wrapper did.
// @overlay-after setupWritableStreamDefaultControllerFromSink
async function sinkCloseAlgorithm(controller: WritableStreamDefaultController): Promise<unknown> {
  const methods = controller[kState].sink!;
  return FunctionPrototypeCall(methods.close!, methods.sink);
}

// The sink's abort(reason).
// @overlay-after setupWritableStreamDefaultControllerFromSink
async function sinkAbortAlgorithm(reason: unknown, controller: WritableStreamDefaultController): Promise<unknown> {
  const methods = controller[kState].sink!;
  return FunctionPrototypeCall(methods.abort!, methods.sink, reason);
}

function setupWritableStreamDefaultControllerFromSink(
  stream: WritableStream,
  sink: UnderlyingSink,
  highWaterMark: number,
  sizeAlgorithm: SizeAlgorithm): void {
  const controller = new WritableStreamDefaultController(kSkipThrow);
  const start = sink?.start;
  const write = sink?.write;
  const close = sink?.close;
  const abort = sink?.abort;
  const startAlgorithm = start ?
    FunctionPrototypeBind(start as SinkMethod, sink, controller) :
    nonOpCallback;
  const writeAlgorithm = write ?
    createRawCallback2Params('sink.write', write, sink) :
    nonOpCallback;
  let closeAlgorithm: CloseAlgorithm = nonOpCancel;
  let abortAlgorithm: AbortAlgorithm = nonOpCancel;
  if (close) {
    validateFunction(close, 'sink.close');
    closeAlgorithm = sinkCloseAlgorithm;
  }
  if (abort) {
    validateFunction(abort, 'sink.abort');
    abortAlgorithm = sinkAbortAlgorithm;
  }
  const methods = close || abort ?
    new UnderlyingSinkMethods(sink, close as SinkMethod | undefined, abort as SinkMethod | undefined) :
    undefined;
  setupWritableStreamDefaultController(
    stream,
    controller,
    startAlgorithm as StartAlgorithm,
    writeAlgorithm as WriteAlgorithm,
    closeAlgorithm,
    abortAlgorithm,
    highWaterMark,
    sizeAlgorithm,
    methods);
}

function writableStreamDefaultControllerClearAlgorithms(controller: WritableStreamDefaultController): void {
  controller[kState].writeAlgorithm = undefined;
  controller[kState].closeAlgorithm = undefined;
  controller[kState].abortAlgorithm = undefined;
  controller[kState].sizeAlgorithm = undefined;
  controller[kState].sink = undefined;
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
    sink,
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
