// internal/webstreams/transformstream as a layer sees it (see readablestream.d.ts).
import type { kState, kType } from 'internal/webstreams/util';
import type { CancelAlgorithm, ReadableStream, ReadableStreamDefaultController } from 'internal/webstreams/readablestream';
import type { WritableStream, WritableStreamDefaultController } from 'internal/webstreams/writablestream';

export type TransformAlgorithm = (chunk: unknown, controller: TransformStreamDefaultController) => unknown;
export type FlushAlgorithm = () => unknown;

/** The base's state record class (TransformStreamState instances, null prototype). */
export class TransformStreamState {
  constructor();
}
export interface TransformStreamState {
  readable: ReadableStream | undefined;
  writable: WritableStream | undefined;
  controller: TransformStreamDefaultController | undefined;
  backpressure: boolean | undefined;
  pullPending: boolean;
  pendingWriteParked: boolean;
  pendingWriteChunk: unknown;
  writeContinuation: (() => void) | undefined;
  /** @layer pipe-pass-through: no transformer algorithm sees the controller, default size algorithms. */
  passThrough: boolean;
  /** @layer pipe-sync-transforms: the transform() has returned non-thenables to pipe writes so far. */
  syncTransform: boolean;
  /** @layer transform-start-without-promise: what the sides' start waits on. */
  pendingStart: Promise<unknown> | symbol | undefined;
  /** @layer pipe-sync-chain-pass: the pipe writing into this stream, waiting until it wants a chunk. */
  demandHook: (() => void) | undefined;
  /** @layer pipe-fused-hop: the pipe holding a chunk for this stream, as the pipe reading its readable side runs a hop. */
  feeder: TransformStreamFeeder | undefined;
  /** @layer pipe-fused-hop: set while a fused hop's transform() has not enqueued yet. */
  fuse: TransformStreamFuseHooks | undefined;
  /** @layer pipe-fused-hop: the reading pipe's hooks during and after a fused hop. */
  fuseHooks: TransformStreamFuseHooks | undefined;
  /** @layer pipe-fused-hop: the chunk a fused hop's transform() enqueued first, or kNoChunk. */
  fuseCaptured: unknown;
}

/** @layer pipe-fused-hop */
export interface TransformStreamFeeder {
  take(): unknown;
  resume(): void;
  tracker: import('internal/webstreams/readablestream').PipeWriteTracker;
}

/** @layer pipe-fused-hop: what the pipe reading the readable side does to bring a fused hop up to date. */
export interface TransformStreamFuseHooks {
  /** Whether the pipe would hold the chunk transform() enqueues for the next TransformStream. */
  holds(): boolean;
  /** Parks its read and clears the backpressure, as before transform(). */
  materialize(): void;
  /** Counts the chunk transform() enqueued as read (a shutdown waits for its write). */
  received(): void;
  /** Takes a chunk received() counted, as its read would have. */
  forward(chunk: unknown): void;
}

/** @layer pipe-chain-hop-loop: the feeding pipe, as a chain's hops run in one loop (merged with pipe-fused-hop's). */
export interface TransformStreamFeeder {
  /** The TransformStream whose hop this pipe would run at once on resuming, if any. */
  upstream(): TransformStream | undefined;
  /** Runs that hop (see transformStreamPassTransform); true when transform() did nothing else. */
  hop(transformStream: TransformStream, feeder: TransformStreamFeeder): boolean;
  /** Until a hop into this pipe's TransformStream leaves the loop; after that its hops are fused writes. */
  clean: boolean;
  /** The TransformStream whose readable side the pipe reads, if any. */
  sourceOwner: TransformStream | undefined;
}

/** @layer pipe-chain-hop-loop: what a loop's hop adds to the reading pipe's hooks (merged with pipe-fused-hop's). */
export interface TransformStreamFuseHooks {
  /** Set when the hop was brought up to date during transform(): the loop ends there. */
  passEnded: boolean;
}

export interface TransformStreamControllerState {
  stream: TransformStream | undefined;
  transformAlgorithm: TransformAlgorithm | undefined;
  flushAlgorithm: FlushAlgorithm | undefined;
  cancelAlgorithm: CancelAlgorithm | undefined;
  performTransformRejected: ((error: unknown) => void) | undefined;
  finishPromise: unknown;
}

export class TransformStream {
  [kType]: 'TransformStream';
  [kState]: TransformStreamState;
  constructor(transformer?: object, writableStrategy?: object, readableStrategy?: object);
  readonly readable: ReadableStream;
  readonly writable: WritableStream;
}

export class TransformStreamDefaultController {
  [kType]: 'TransformStreamDefaultController';
  [kState]: TransformStreamControllerState;
  readonly desiredSize: number | null;
  enqueue(chunk?: unknown): void;
  error(reason?: unknown): void;
  terminate(): void;
}

export function isTransformStream(value: unknown): value is TransformStream;
export function isTransformStreamDefaultController(value: unknown): value is TransformStreamDefaultController;
/** The readable side's controller of a transform stream. */
export type TransformReadableController = ReadableStreamDefaultController;

export function InternalTransferredTransformStream(): void;
export function TransferredTransformStream(): unknown;
export function defaultTransformAlgorithm(chunk: unknown, controller: TransformStreamDefaultController): void;
/** @removed-by lean-construction */
export function resolvedStartAlgorithm(): unknown;
/** @layer lean-construction: the sides' shared algorithms and start (not exported). */
export function sinkWriteAlgorithm(chunk: unknown, controller: WritableStreamDefaultController): unknown;
/** @layer lean-construction */
export function sinkCloseAlgorithm(controller: WritableStreamDefaultController): unknown;
/** @layer lean-construction */
export function sinkAbortAlgorithm(reason: unknown, controller: WritableStreamDefaultController): unknown;
/** @layer lean-construction */
export function sourcePullAlgorithm(controller: ReadableStreamDefaultController): unknown;
/** @layer lean-construction */
export function sourceCancelAlgorithm(reason: unknown, controller: ReadableStreamDefaultController): unknown;
/** @layer lean-construction */
export function deferredStartAlgorithm(): symbol;
/** @layer lean-construction: the second and third of the three start turns (not exported). */
export function queueStartTurn2(stream: TransformStream): void;
export function initializeTransformStream(stream: TransformStream, startPromise: unknown, writableHighWaterMark: unknown, writableSizeAlgorithm: unknown, readableHighWaterMark: unknown, readableSizeAlgorithm: unknown): void;
/** @layer transform-start-without-promise: the start chain replaces the start promise. */
export function initializeTransformStream(stream: TransformStream, writableHighWaterMark: unknown, writableSizeAlgorithm: unknown, readableHighWaterMark: unknown, readableSizeAlgorithm: unknown): void;
export function transformStreamError(stream: TransformStream, error: unknown): void;
export function transformStreamErrorWritableAndUnblockWrite(stream: TransformStream, error: unknown): void;
export function transformStreamUnblockWrite(stream: TransformStream): void;
export function transformStreamSetBackpressure(stream: TransformStream, backpressure: boolean): void;
export function setupTransformStreamDefaultController(stream: TransformStream, controller: TransformStreamDefaultController, transformAlgorithm: unknown, flushAlgorithm: unknown, cancelAlgorithm: CancelAlgorithm): void;
export function setupTransformStreamDefaultControllerFromTransformer(stream: TransformStream, transformer: unknown): void;
export function transformStreamDefaultControllerClearAlgorithms(controller: TransformStreamDefaultController): void;
export function transformStreamDefaultControllerEnqueue(controller: TransformStreamDefaultController, chunk: unknown): void;
export function transformStreamDefaultControllerError(controller: TransformStreamDefaultController, error: unknown): void;
export function transformStreamDefaultControllerPerformTransform(controller: TransformStreamDefaultController, chunk: unknown): unknown;
export function transformStreamDefaultControllerTerminate(controller: TransformStreamDefaultController): void;
export function transformStreamDefaultSinkWriteAlgorithm(stream: TransformStream, chunk: unknown): unknown;
export function transformStreamDefaultSinkAbortAlgorithm(stream: TransformStream, reason: unknown): unknown;
export function transformStreamDefaultSinkCloseAlgorithm(stream: TransformStream): unknown;
export function transformStreamDefaultSourcePullAlgorithm(stream: TransformStream): unknown;
export function transformStreamDefaultSourceCancelAlgorithm(stream: TransformStream, reason: unknown): unknown;

/** @layer pipe-pass-through */
export function transformStreamPassThroughEnqueue(stream: TransformStream, chunk: unknown): void;
/** @layer pipe-pass-through */
export function transformStreamPassThroughHandedOver(stream: TransformStream): void;
