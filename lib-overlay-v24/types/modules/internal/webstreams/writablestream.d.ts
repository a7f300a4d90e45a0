// internal/webstreams/writablestream as a layer sees it (see readablestream.d.ts).
import type { kState, kType, PromiseRecord, Queue } from 'internal/webstreams/util';
import type { CancelAlgorithm, ReadableStream, SizeAlgorithm, StartAlgorithm } from 'internal/webstreams/readablestream';
import type { TransformStream } from 'internal/webstreams/transformstream';
import type { AbortController } from 'internal/abort_controller';
import type { MessagePort } from 'internal/worker/io';

export type WriteAlgorithm = (chunk: unknown, controller?: any) => unknown;
export type CloseAlgorithm = (controller?: any) => unknown;
export type AbortAlgorithm = CancelAlgorithm;

export interface PendingAbortRequest {
  abort: PromiseRecord<void>;
  reason: unknown;
  wasAlreadyErroring: boolean;
}

export interface WritableStreamState {
  closedPromise: PromiseRecord<void> | undefined;
  closeRequest: PromiseRecord<void>;
  closeQueuedOrInFlight: boolean;
  inFlightWriteRequest: PromiseRecord<void>;
  inFlightCloseRequest: PromiseRecord<void>;
  pendingAbortRequest: PendingAbortRequest;
  backpressure: boolean;
  controller: WritableStreamDefaultController | undefined;
  state: 'writable' | 'closed' | 'erroring' | 'errored';
  storedError: unknown;
  writeRequests: Queue<PromiseRecord<void>>;
  writer: WritableStreamDefaultWriter | undefined;
  transfer: WritableStreamTransferState;
  /** @layer lazy-transfer-state: created on first transfer. */
  transfer: WritableStreamTransferState | undefined;
}

// v24.x: an object literal until stream-records-as-classes makes it a class.
/** @removed-by stream-records-as-classes */
export interface WritableStreamTransferState {
  readable: ReadableStream | undefined;
  port1: MessagePort | undefined;
  port2: MessagePort | undefined;
  promise: Promise<unknown> | undefined;
}

/** @layer stream-records-as-classes */
export class WritableStreamTransferState {
  readable: ReadableStream | undefined;
  port1: MessagePort | undefined;
  port2: MessagePort | undefined;
  promise: Promise<unknown> | undefined;
}

export interface WritableStreamDefaultControllerState {
  abortAlgorithm: AbortAlgorithm | undefined;
  closeAlgorithm: CloseAlgorithm | undefined;
  highWaterMark: number;
  queue: Queue;
  queueTotalSize: number;
  abortController: AbortController;
  /** @layer lean-construction: created on first use. */
  abortController: AbortController | undefined;
  sizeAlgorithm: SizeAlgorithm | undefined;
  started: boolean;
  stream: WritableStream;
  writeAlgorithm: WriteAlgorithm | undefined;
  writeFulfilled: (() => void) | undefined;
  writeRejected: ((error: unknown) => void) | undefined;
  /** @layer lean-construction: the TransformStream whose writable side this is. */
  owner?: TransformStream | undefined;
  /** @layer writable-direct-write: size of the chunk whose write is in flight, out of [[queue]]. */
  inFlightChunkSize?: number;
  /** @layer shared-sink-algorithms: the underlying sink's close() and abort(). */
  sink?: UnderlyingSinkMethods | undefined;
}

/** @layer shared-sink-algorithms: an underlying sink and the close()/abort() methods read from it at construction. */
export class UnderlyingSinkMethods {
  constructor(sink: object, close: ((...args: unknown[]) => unknown) | undefined, abort: ((...args: unknown[]) => unknown) | undefined);
  sink: object;
  close: ((...args: unknown[]) => unknown) | undefined;
  abort: ((...args: unknown[]) => unknown) | undefined;
}

export interface WritableStreamDefaultWriterState {
  stream: WritableStream | undefined;
  close: PromiseRecord<void> | undefined;
  ready: PromiseRecord<void> | undefined;
}


export const kAbort: unique symbol;
export const kNilRequest: PromiseRecord<void>;
export const kNilPendingAbortRequest: PendingAbortRequest;

export class WritableStream {
  [kType]: 'WritableStream';
  [kState]: WritableStreamState;
  constructor(sink?: object, strategy?: object);
  readonly locked: boolean;
  abort(reason?: unknown): Promise<void>;
  close(): Promise<void>;
  getWriter(): WritableStreamDefaultWriter;
}

export class WritableStreamDefaultWriter {
  [kType]: 'WritableStreamDefaultWriter';
  [kState]: WritableStreamDefaultWriterState;
  constructor(stream: WritableStream);
  readonly closed: Promise<void>;
  readonly desiredSize: number | null;
  readonly ready: Promise<void>;
  abort(reason?: unknown): Promise<void>;
  close(): Promise<void>;
  releaseLock(): void;
  write(chunk?: unknown): Promise<void>;
}

export const kSkipThrow: unique symbol;

export class WritableStreamDefaultController {
  constructor(skipThrowSymbol?: typeof kSkipThrow);
  [kType]: 'WritableStreamDefaultController';
  [kState]: WritableStreamDefaultControllerState;
  readonly signal: object;
  error(error?: unknown): void;
  [kAbort](reason: unknown): unknown;
}

export function isWritableStream(value: unknown): value is WritableStream;
export function isWritableStreamDefaultWriter(value: unknown): value is WritableStreamDefaultWriter;
export function isWritableStreamDefaultController(value: unknown): value is WritableStreamDefaultController;
export function isWritableStreamLocked(stream: WritableStream): boolean;

export function lazyWritableReleasedError(): Error;
export function TransferredWritableStream(): unknown;
export function createWritableStream(start: unknown, write: unknown, close: unknown, abort: unknown, highWaterMark?: number, size?: unknown): WritableStream;
export function createWritableStreamState(): unknown;
export function setupWritableStreamDefaultWriter(writer: WritableStreamDefaultWriter, stream: WritableStream): void;
export function writerClosedPromise(writer: WritableStreamDefaultWriter): PromiseRecord<void>;
export function writerReadyPromise(writer: WritableStreamDefaultWriter): unknown;
export function writableStreamAbort(stream: WritableStream, reason: unknown): Promise<void>;
export function writableStreamClose(stream: WritableStream): unknown;
export function writableStreamUpdateBackpressure(controller: WritableStreamDefaultController, streamState: WritableStreamState): void;
export function writableStreamStartErroring(stream: WritableStream, reason: unknown): void;
export function writableStreamRejectCloseAndClosedPromiseIfNeeded(stream: WritableStream): void;
export function writableStreamMarkFirstWriteRequestInFlight(stream: WritableStream): void;
export function writableStreamMarkCloseRequestInFlight(stream: WritableStream): void;
export function writableStreamHasOperationMarkedInFlight(stream: WritableStream): boolean;
export function writableStreamFinishInFlightWriteWithError(stream: WritableStream, error: unknown): void;
export function writableStreamFinishInFlightWrite(stream: WritableStream): void;
export function writableStreamFinishInFlightCloseWithError(stream: WritableStream, error: unknown): void;
export function writableStreamFinishInFlightClose(stream: WritableStream): void;
export function writableStreamFinishErroring(stream: WritableStream): void;
export function writableStreamDealWithRejection(stream: WritableStream, error: unknown): void;
export function writableStreamCloseQueuedOrInFlight(stream: WritableStream): boolean;
export function writableStreamAddWriteRequest(stream: WritableStream): Promise<void>;
/** @layer writable-direct-write */
export function writableStreamAddWriteRequest(stream: WritableStream, writeRequest?: PromiseRecord<void>): Promise<void>;
export function writableStreamDefaultWriterWrite(writer: WritableStreamDefaultWriter, chunk: unknown): unknown;
export function writableStreamDefaultWriterWriteWithRequest(writer: WritableStreamDefaultWriter, chunk: unknown, request: unknown): void;
export function writableStreamDefaultWriterRelease(writer: WritableStreamDefaultWriter): void;
export function writableStreamDefaultWriterGetDesiredSize(writer: WritableStreamDefaultWriter): number | null;
export function writableStreamDefaultWriterEnsureReadyPromiseRejected(writer: WritableStreamDefaultWriter, error: unknown): void;
export function writableStreamDefaultWriterEnsureClosedPromiseRejected(writer: WritableStreamDefaultWriter, error: unknown): void;
export function writableStreamDefaultWriterCloseWithErrorPropagation(writer: WritableStreamDefaultWriter): Promise<void>;
export function writableStreamDefaultWriterClose(writer: WritableStreamDefaultWriter): unknown;
export function writableStreamDefaultWriterAbort(writer: WritableStreamDefaultWriter, reason: unknown): unknown;
export function writableStreamDefaultControllerWrite(controller: WritableStreamDefaultController, chunk: unknown, chunkSize: unknown): void;
export function writableStreamDefaultControllerProcessWrite(controller: WritableStreamDefaultController, chunk: unknown): void;
export function writableStreamDefaultControllerProcessClose(controller: WritableStreamDefaultController): void;
export function writableStreamDefaultControllerGetDesiredSize(controller: WritableStreamDefaultController): number | null;
export function writableStreamDefaultControllerGetChunkSize(controller: WritableStreamDefaultController, chunk: unknown): unknown;
export function writableStreamDefaultControllerErrorIfNeeded(controller: WritableStreamDefaultController, error: unknown): void;
export function writableStreamDefaultControllerError(controller: WritableStreamDefaultController, error: unknown): void;
export function writableStreamDefaultControllerClose(controller: WritableStreamDefaultController): void;
export function writableStreamDefaultControllerClearAlgorithms(controller: WritableStreamDefaultController): void;
export function writableStreamDefaultControllerAdvanceQueueIfNeeded(controller: WritableStreamDefaultController): void;
export function setupWritableStreamDefaultControllerFromSink(stream: WritableStream, sink: object, highWaterMark: number, sizeAlgorithm: SizeAlgorithm): void;
export function setupWritableStreamDefaultController(stream: WritableStream, controller: WritableStreamDefaultController, startAlgorithm: StartAlgorithm, writeAlgorithm: WriteAlgorithm, closeAlgorithm: CloseAlgorithm, abortAlgorithm: AbortAlgorithm, highWaterMark: number, sizeAlgorithm: SizeAlgorithm): void;
/** @layer shared-sink-algorithms */
export function setupWritableStreamDefaultController(stream: WritableStream, controller: WritableStreamDefaultController, startAlgorithm: StartAlgorithm, writeAlgorithm: WriteAlgorithm, closeAlgorithm: CloseAlgorithm, abortAlgorithm: AbortAlgorithm, highWaterMark: number, sizeAlgorithm: SizeAlgorithm, sink?: UnderlyingSinkMethods): void;

/** @layer lean-construction */
export function writableStreamDefaultControllerStartSteps(controller: WritableStreamDefaultController): void;
/** @layer lean-construction */
export function writableStreamDefaultControllerScheduleStart(stream: WritableStream, controller: WritableStreamDefaultController, startResult: unknown): void;
/** @layer transform-start-without-promise: the post-start step or the start failure once a promise settles. */
export function writableStreamDefaultControllerStartWhenSettled(stream: WritableStream, controller: WritableStreamDefaultController, promise: Promise<unknown>): void;
/** @layer lean-construction: queues a post-start step one microtask later (not exported). */
export function queueStartSteps(controller: WritableStreamDefaultController): void;
/** @layer request-promises: a pending promise record built with an executor. */
export class PendingPromiseRecord implements PromiseRecord<void> {
  promise: Promise<void>;
  resolve: () => void;
  reject: (error: unknown) => void;
}
