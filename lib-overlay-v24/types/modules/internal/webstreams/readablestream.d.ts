// internal/webstreams/readablestream as a layer sees it: the classes with
// their [kState] records, and the module's top-level functions (exported
// or not: a layer of this module may import any of them from here).
// Argument types follow the spec's abstract operations; `unknown` marks
// results not worth typing yet. Extend as layers need.
import type { kState, kType, PromiseRecord, Queue } from 'internal/webstreams/util';
import type { WritableStream, WritableStreamDefaultWriter } from 'internal/webstreams/writablestream';
import type { MessagePort } from 'internal/worker/io';

export type StartAlgorithm = () => unknown;
export type PullAlgorithm = (controller?: any) => unknown;
// The controller argument lets shared algorithms find their owner (added by the series).
export type CancelAlgorithm = (reason?: unknown, controller?: any) => unknown;
export type SizeAlgorithm = (chunk: unknown) => number;

export type ReadableStreamController = ReadableStreamDefaultController | ReadableByteStreamController;
export type ReadableStreamReader = ReadableStreamDefaultReader | ReadableStreamBYOBReader;

// v24.x: an object literal until stream-records-as-classes makes it a class.
/** @removed-by stream-records-as-classes */
export interface ReadableStreamTransferState {
  writable: WritableStream | undefined;
  port1: MessagePort | undefined;
  port2: MessagePort | undefined;
  promise: Promise<unknown> | undefined;
}

/** @layer stream-records-as-classes */
export class ReadableStreamTransferState {
  writable: WritableStream | undefined;
  port1: MessagePort | undefined;
  port2: MessagePort | undefined;
  promise: Promise<unknown> | undefined;
}

export interface ReadableStreamState {
  closedPromise: PromiseRecord<void> | undefined;
  disturbed: boolean;
  reader: ReadableStreamReader | undefined;
  // 'readable' | 'closed' | 'errored', typed `any` on purpose: user code
  // run between two reads of it can change it, and TypeScript's narrowing
  // (of a literal union or a string) would flag the second read as dead.
  state: any;
  storedError: unknown;
  controller: ReadableStreamController | undefined;
  transfer: ReadableStreamTransferState;
  /** @layer lazy-transfer-state: created on first transfer. */
  transfer: ReadableStreamTransferState | undefined;
}

interface ControllerStateBase {
  cancelAlgorithm: CancelAlgorithm | undefined;
  closeRequested: boolean;
  highWaterMark: number;
  pullAgain: boolean;
  pullAlgorithm: PullAlgorithm | undefined;
  pulling: boolean;
  pullFulfilled: (() => void) | undefined;
  pullRejected: ((error: unknown) => void) | undefined;
  queue: Queue;
  queueTotalSize: number;
  started: boolean;
  stream: ReadableStream;
}

export interface ReadableStreamDefaultControllerState extends ControllerStateBase {
  sizeAlgorithm: SizeAlgorithm | undefined;
  /** @layer lean-construction: the TransformStream whose readable side this is. */
  owner?: import('internal/webstreams/transformstream').TransformStream | undefined;
}

export interface PullIntoDescriptor {
  buffer: ArrayBuffer;
  bufferByteLength: number;
  byteOffset: number;
  byteLength: number;
  bytesFilled: number;
  minimumFill: number;
  elementSize: number;
  ctor: new (buffer: ArrayBuffer, byteOffset: number, length: number) => ArrayBufferView;
  type: 'default' | 'byob' | 'none';
}

export interface ReadableByteStreamControllerState extends ControllerStateBase {
  byobRequest: ReadableStreamBYOBRequest | null;
  autoAllocateChunkSize: number | undefined;
  pendingPullIntos: Queue<PullIntoDescriptor>;
}

/** What read requests implement: the spec's chunk, close and error steps. */
export interface ReadRequest {
  [kChunk](chunk: unknown): void;
  [kClose](): void;
  [kError](error: unknown): void;
}
export type ReadIntoRequest = ReadRequest;

export interface ReadableStreamDefaultReaderState {
  readRequests: Queue<ReadRequest>;
  stream: ReadableStream | undefined;
  close: PromiseRecord<void> | undefined;
  /** @layer pipe-pass-through: the pipe reading through this reader takes a handed-over chunk here. */
  pipe?: ((chunk: unknown) => boolean) | undefined;
}

export interface ReadableStreamBYOBReaderState {
  readIntoRequests: Queue<ReadIntoRequest>;
  stream: ReadableStream | undefined;
  close: PromiseRecord<void> | undefined;
}

export const kCancel: unique symbol;
export const kClose: unique symbol;
export const kChunk: unique symbol;
export const kError: unique symbol;
export const kPull: unique symbol;
export const kRelease: unique symbol;
export const kSkipThrow: unique symbol;

export class ReadableStream {
  [kType]: 'ReadableStream';
  [kState]: ReadableStreamState;
  constructor(source?: object, strategy?: object);
  readonly locked: boolean;
  cancel(reason?: unknown): Promise<void>;
  getReader(options?: { mode?: 'byob' }): ReadableStreamReader;
  pipeThrough(transform: { readable: ReadableStream; writable: WritableStream }, options?: object): ReadableStream;
  pipeTo(destination: WritableStream, options?: object): Promise<void>;
  tee(): [ReadableStream, ReadableStream];
  values(options?: { preventCancel?: boolean }): AsyncIterableIterator<unknown>;
  [Symbol.asyncIterator](): AsyncIterableIterator<unknown>;
  static from(iterable: unknown): ReadableStream;
}

export class ReadableStreamDefaultReader {
  [kType]: 'ReadableStreamDefaultReader';
  [kState]: ReadableStreamDefaultReaderState;
  constructor(stream: ReadableStream);
  read(): Promise<{ value: unknown; done: boolean }>;
  releaseLock(): void;
  readonly closed: Promise<void>;
  cancel(reason?: unknown): Promise<void>;
}

export class ReadableStreamBYOBReader {
  [kType]: 'ReadableStreamBYOBReader';
  [kState]: ReadableStreamBYOBReaderState;
  constructor(stream: ReadableStream);
  read(view: ArrayBufferView, options?: { min?: number }): Promise<{ value: ArrayBufferView | undefined; done: boolean }>;
  releaseLock(): void;
  readonly closed: Promise<void>;
  cancel(reason?: unknown): Promise<void>;
}

export class ReadableStreamBYOBRequest {
  [kType]: 'ReadableStreamBYOBRequest';
  [kState]: { controller: ReadableByteStreamController | undefined; view: ArrayBufferView | null };
  readonly view: ArrayBufferView | null;
  respond(bytesWritten: number): void;
  respondWithNewView(view: ArrayBufferView): void;
}

export class ReadableStreamDefaultController {
  [kType]: 'ReadableStreamDefaultController';
  [kState]: ReadableStreamDefaultControllerState;
  constructor(skipThrowSymbol?: typeof kSkipThrow);
  [kCancel](reason: unknown): Promise<void>;
  [kPull](readRequest: ReadRequest): void;
  [kRelease](): void;
  readonly desiredSize: number | null;
  close(): void;
  enqueue(chunk?: unknown): void;
  error(error?: unknown): void;
}

export class ReadableByteStreamController {
  [kType]: 'ReadableByteStreamController';
  [kState]: ReadableByteStreamControllerState;
  constructor(skipThrowSymbol?: typeof kSkipThrow);
  [kCancel](reason: unknown): Promise<void>;
  [kPull](readRequest: ReadRequest): void;
  [kRelease](): void;
  readonly byobRequest: ReadableStreamBYOBRequest | null;
  readonly desiredSize: number | null;
  close(): void;
  enqueue(chunk: ArrayBufferView): void;
  error(error?: unknown): void;
}

export class DefaultReadRequest implements ReadRequest {
  /** @removed-by request-promises */
  [kState]: PromiseRecord<{ value: unknown; done: boolean }>;
  readonly promise: Promise<{ value: unknown; done: boolean }>;
  /** @layer request-promises: own fields instead of the [kState] record. */
  promise: Promise<{ value: unknown; done: boolean }>;
  /** @layer request-promises */
  resolve: (result: { value: unknown; done: boolean }) => void;
  /** @layer request-promises */
  reject: (error: unknown) => void;
  [kChunk](value: unknown): void;
  [kClose](): void;
  [kError](error: unknown): void;
}

/** @layer steps-read-request */
export class StepsReadRequest<T = unknown> implements ReadRequest {
  constructor(chunkSteps: (chunk: T) => void, closeSteps: (chunk?: T) => void, errorSteps: (error: unknown) => void);
  [kChunk](value: T): void;
  [kClose](value?: T): void;
  [kError](error: unknown): void;
}

export function isReadableStream(value: unknown): value is ReadableStream;
export function isReadableByteStreamController(value: unknown): value is ReadableByteStreamController;
export function isReadableStreamBYOBRequest(value: unknown): value is ReadableStreamBYOBRequest;
export function isReadableStreamDefaultReader(value: unknown): value is ReadableStreamDefaultReader;
export function isReadableStreamBYOBReader(value: unknown): value is ReadableStreamBYOBReader;
export function isReadableStreamDefaultController(value: unknown): value is ReadableStreamDefaultController;
export function isWritableStreamDefaultWriter(value: unknown): value is WritableStreamDefaultWriter;
export function isWritableStreamDefaultController(value: unknown): boolean;

export function lazyReadableReleasedError(): Error;
export function lazyReadableReleasingError(): Error;
export function TransferredReadableStream(): unknown;
export function createReadableStreamBYOBRequest(controller: unknown, view: ArrayBufferView): unknown;
export function createReadableStream(start: unknown, pull: unknown, cancel: unknown, highWaterMark?: number, size?: unknown): ReadableStream;
export function createReadableByteStream(start: unknown, pull: unknown, cancel: unknown): ReadableStream;
export function createReadableStreamState(): unknown;
export function readableStreamFromIterable(iterable: unknown): unknown;
/** @layer pipe-tee-promise-records */
export function watchReaderErrored(reader: ReadableStreamReader, onRejected: unknown): void;
export function readableStreamPipeTo(source: ReadableStream, dest: WritableStream, preventClose: boolean, preventAbort: boolean, preventCancel: boolean, signal: AbortSignalLike | undefined): Promise<void>;
export function readableStreamTee(stream: ReadableStream, cloneForBranch2: boolean): [ReadableStream, ReadableStream];
export function readableStreamDefaultTee(stream: ReadableStream, cloneForBranch2: boolean): [ReadableStream, ReadableStream];
export function readableByteStreamTee(stream: ReadableStream): [ReadableStream, ReadableStream];
export function readableByteStreamControllerConvertPullIntoDescriptor(desc: PullIntoDescriptor): ArrayBufferView;
export function readableStreamCancel(stream: ReadableStream, reason: unknown): Promise<void>;
export function readableStreamClose(stream: ReadableStream): void;
export function readableStreamError(stream: ReadableStream, error: unknown): void;
export function readableStreamHasDefaultReader(stream: ReadableStream): boolean;
export function readableStreamGetNumReadRequests(stream: ReadableStream): number;
export function readableStreamHasBYOBReader(stream: ReadableStream): boolean;
export function readableStreamGetNumReadIntoRequests(stream: ReadableStream): number;
export function readableStreamFulfillReadRequest(stream: ReadableStream, chunk: unknown, done: boolean): void;
export function readableStreamFulfillReadIntoRequest(stream: ReadableStream, chunk: unknown, done: boolean): void;
export function readableStreamAddReadRequest(stream: ReadableStream, readRequest: ReadRequest): void;
export function readableStreamAddReadIntoRequest(stream: ReadableStream, readIntoRequest: ReadIntoRequest): void;
export function readableStreamReaderGenericCancel(reader: ReadableStreamReader, reason: unknown): unknown;
export function readableStreamReaderGenericInitialize(reader: ReadableStreamReader, stream: ReadableStream): void;
export function readerClosedPromise(reader: ReadableStreamReader): PromiseRecord<void>;
export function readableStreamDefaultReaderRelease(reader: ReadableStreamDefaultReader): void;
export function readableStreamDefaultReaderErrorReadRequests(reader: ReadableStreamDefaultReader, e: unknown): void;
export function readableStreamBYOBReaderRelease(reader: ReadableStreamBYOBReader): void;
export function readableStreamBYOBReaderErrorReadIntoRequests(reader: ReadableStreamBYOBReader, e: unknown): void;
export function readableStreamReaderGenericRelease(reader: ReadableStreamReader): void;
/** @layer tee-byob-without-async */
export function readableStreamBYOBReaderReadView(reader: ReadableStreamBYOBReader, view: ArrayBufferView, options: object): unknown;
export function readableStreamBYOBReaderRead(reader: ReadableStreamBYOBReader, view: ArrayBufferView, min: number, readIntoRequest: ReadIntoRequest): void;
export function readableStreamDefaultReaderRead(reader: ReadableStreamDefaultReader, readRequest: ReadRequest): void;
export function setupReadableStreamBYOBReader(reader: ReadableStreamBYOBReader, stream: ReadableStream): void;
export function setupReadableStreamDefaultReader(reader: ReadableStreamDefaultReader, stream: ReadableStream): void;
export function readableStreamDefaultControllerClose(controller: ReadableStreamDefaultController): void;
export function readableStreamDefaultControllerEnqueue(controller: ReadableStreamDefaultController, chunk: unknown): void;
export function readableStreamDefaultControllerHasBackpressure(controller: ReadableStreamDefaultController): boolean;
export function readableStreamDefaultControllerCanCloseOrEnqueue(controller: ReadableStreamDefaultController): boolean;
export function readableStreamDefaultControllerGetDesiredSize(controller: ReadableStreamDefaultController): number | null;
export function readableStreamDefaultControllerShouldCallPull(controller: ReadableStreamDefaultController): boolean;
export function readableStreamDefaultControllerCallPullIfNeeded(controller: ReadableStreamDefaultController): void;
export function readableStreamDefaultControllerPull(controller: ReadableStreamDefaultController): void;
export function readableStreamDefaultControllerClearAlgorithms(controller: ReadableStreamDefaultController): void;
export function readableStreamDefaultControllerError(controller: ReadableStreamDefaultController, error: unknown): void;
export function readableStreamDefaultControllerCancelSteps(controller: ReadableStreamDefaultController, reason: unknown): unknown;
export function readableStreamDefaultControllerPullSteps(controller: ReadableStreamDefaultController, readRequest: ReadRequest): void;
export function setupReadableStreamDefaultController(stream: ReadableStream, controller: ReadableStreamDefaultController, startAlgorithm: StartAlgorithm, pullAlgorithm: PullAlgorithm, cancelAlgorithm: CancelAlgorithm, highWaterMark: number, sizeAlgorithm: SizeAlgorithm): void;
export function setupReadableStreamDefaultControllerFromSource(stream: ReadableStream, source: object, highWaterMark: number, sizeAlgorithm: SizeAlgorithm): void;
export function readableByteStreamControllerClose(controller: ReadableByteStreamController): void;
export function readableByteStreamControllerCommitPullIntoDescriptor(stream: ReadableStream, desc: PullIntoDescriptor): void;
export function readableByteStreamControllerCommitPullIntoDescriptors(stream: ReadableStream, descriptors: unknown): void;
export function readableByteStreamControllerInvalidateBYOBRequest(controller: ReadableByteStreamController): void;
export function readableByteStreamControllerClearAlgorithms(controller: ReadableByteStreamController): void;
export function readableByteStreamControllerClearPendingPullIntos(controller: ReadableByteStreamController): void;
export function readableByteStreamControllerGetDesiredSize(controller: ReadableByteStreamController): number | null;
export function readableByteStreamControllerShouldCallPull(controller: ReadableByteStreamController): boolean;
export function readableByteStreamControllerHandleQueueDrain(controller: ReadableByteStreamController): void;
export function readableByteStreamControllerPullInto(controller: ReadableByteStreamController, view: ArrayBufferView, min: number, readIntoRequest: ReadIntoRequest): void;
export function materializePendingPullIntos(state: unknown): unknown;
export function readableByteStreamControllerRespondInternal(controller: ReadableByteStreamController, bytesWritten: number): void;
export function readableByteStreamControllerRespond(controller: ReadableByteStreamController, bytesWritten: number): void;
export function readableByteStreamControllerRespondInClosedState(controller: ReadableByteStreamController, desc: PullIntoDescriptor): void;
export function readableByteStreamControllerFillHeadPullIntoDescriptor(controller: ReadableByteStreamController, size: unknown, desc: PullIntoDescriptor): void;
export function readableByteStreamControllerEnqueue(controller: ReadableByteStreamController, chunk: unknown): void;
export function readableByteStreamControllerEnqueueClonedChunkToQueue(controller: ReadableByteStreamController, buffer: unknown, byteOffset: unknown, byteLength: unknown): void;
export function readableByteStreamControllerEnqueueChunkToQueue(controller: ReadableByteStreamController, buffer: unknown, byteOffset: unknown, byteLength: unknown): void;
export function readableByteStreamControllerEnqueueDetachedPullIntoToQueue(controller: ReadableByteStreamController, desc: PullIntoDescriptor): void;
export function readableByteStreamControllerFillPullIntoDescriptorFromQueue(controller: ReadableByteStreamController, desc: PullIntoDescriptor): unknown;
export function readableByteStreamControllerProcessPullIntoDescriptorsUsingQueue(controller: ReadableByteStreamController): unknown;
export function readableByteStreamControllerRespondInReadableState(controller: ReadableByteStreamController, bytesWritten: number, desc: PullIntoDescriptor): void;
export function readableByteStreamControllerRespondWithNewView(controller: ReadableByteStreamController, view: ArrayBufferView): void;
export function readableByteStreamControllerShiftPendingPullInto(controller: ReadableByteStreamController): unknown;
export function readableByteStreamControllerCallPullIfNeeded(controller: ReadableByteStreamController): void;
export function readableByteStreamControllerError(controller: ReadableByteStreamController, error: unknown): void;
export function readableByteStreamControllerCancelSteps(controller: ReadableByteStreamController, reason: unknown): unknown;
export function readableByteStreamControllerDequeueChunk(controller: ReadableByteStreamController): unknown;
export function readableByteStreamControllerFillReadRequestFromQueue(controller: ReadableByteStreamController, readRequest: ReadRequest): void;
export function readableByteStreamControllerProcessReadRequestsUsingQueue(controller: ReadableByteStreamController): void;
export function readableByteStreamControllerPullSteps(controller: ReadableByteStreamController, readRequest: ReadRequest): void;
export function setupReadableByteStreamController(stream: ReadableStream, controller: ReadableByteStreamController, startAlgorithm: StartAlgorithm, pullAlgorithm: PullAlgorithm, cancelAlgorithm: CancelAlgorithm, highWaterMark: number, autoAllocateChunkSize: number | undefined): void;
export function setupReadableByteStreamControllerFromSource(stream: ReadableStream, source: object, highWaterMark: number): void;
export function isReadableStreamLocked(stream: ReadableStream): boolean;

/** @layer lean-construction */
export function readableStreamDefaultControllerStartSteps(controller: ReadableStreamDefaultController): void;

/** @layer pipe-tee-promise-records: the [[closedPromise]] stand-in pipeTo and tee install on readers and writers only they hold. */
export class ClosedPromiseHook implements PromiseRecord<void> {
  constructor(onResolved: (() => void) | undefined, onRejected: (error: unknown) => void);
  promise: Promise<void>;
  resolve: () => void;
  reject: (error: unknown) => void;
}
/** Lazily loaded internal/events/abort_listener addAbortListener. */
export let addAbortListener: ((signal: object, listener: () => void) => { [Symbol.dispose](): void }) | undefined;
/** The AbortSignal shape pipeTo uses. */
export interface AbortSignalLike {
  readonly aborted: boolean;
  readonly reason: any;
}
/** The request pipeTo's writes share (see writableStreamDefaultWriterWriteWithRequest). */
export interface PipeWriteTracker {
  promise: null;
  pending: number;
  /** @removed-by pipe-shutdown-after-failed-write */
  failed: boolean;
  /** @removed-by pipe-shutdown-after-failed-write */
  failure: unknown;
  stall: PromiseWithResolvers<void> | null;
  resolve(): void;
  reject(error: unknown): void;
}
/** @layer pipe-pass-through */
export function pipeWrite(writer: import('internal/webstreams/writablestream').WritableStreamDefaultWriter,
  destination: import('internal/webstreams/transformstream').TransformStream | undefined, chunk: unknown, request: PipeWriteTracker): void;
/** @layer pipe-pass-through */
export function passThroughWrite(transformStream: import('internal/webstreams/transformstream').TransformStream, chunk: unknown): boolean;
/** @layer pipe-pass-through */
export function scheduleForward(forward: () => void): void;
