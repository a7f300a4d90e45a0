// internal/webstreams/util: the shared state key, the ring-buffer queue and
// the queue/promise helpers of the webstreams modules.
import type { ReadableByteStreamController, ReadableStream, ReadableStreamDefaultController } from 'internal/webstreams/readablestream';
import type { WritableStream, WritableStreamDefaultController } from 'internal/webstreams/writablestream';
import type { MessagePort } from 'internal/worker/io';

/** Key of every webstreams object's internal state record. */
export const kState: unique symbol;
/** Key of the brand string isBrandCheck() tests. */
export const kType: unique symbol;
/** Returned by an algorithm that parked its operation and settles it later. */
export const kParkedAlgorithmResult: unique symbol;
/** @layer lean-construction: start result of a TransformStream side whose post-start step its TransformStream runs. */
export const kDeferredStart: unique symbol;
/** @layer lean-construction: runs steps(item) one microtask after each call, in call order. */
export function createMicrotaskSteps<T>(steps: (item: T) => void): (item: T) => void;

/** A promise and its resolvers, as PromiseWithResolvers() returns them. */
export interface PromiseRecord<T = unknown> {
  promise: Promise<T>;
  resolve: ((value: T) => void) | undefined;
  reject: ((reason?: unknown) => void) | undefined;
}

/**
 * Power-of-two ring buffer. Default controller queues use the *Pair methods
 * (value, size); byte controller queues and request queues use push/shift.
 */
export class Queue<T = unknown> {
  constructor(listLength?: number);
  head: number;
  tail: number;
  length: number;
  capacityMask: number;
  list: (T | undefined)[];
  dequeuedSize: number;
  push(entry: T): void;
  shift(): T;
  peek(): T;
  pushPair(value: T, size: number): void;
  shiftPair(): T;
  peekPairValue(): T;
  grow(): void;
  rewind(): void;
}

/** A controller state that owns a value queue. */
export interface QueueState {
  queue: Queue;
  queueTotalSize: number;
}
export type QueueController = ReadableStreamDefaultController | ReadableByteStreamController | WritableStreamDefaultController;

export const kEmptyQueue: Queue<never>;
export function materializeQueue(state: QueueState): Queue;
export function dequeueValue(controller: QueueController): unknown;
export function resetQueue(controller: QueueController): void;
export function peekQueueValue(controller: QueueController): unknown;
export function enqueueValueWithSize(controller: QueueController, value: unknown, size: unknown): void;

export function ArrayBufferViewGetBuffer(view: ArrayBufferView): ArrayBuffer;
export function ArrayBufferViewGetByteLength(view: ArrayBufferView): number;
export function ArrayBufferViewGetByteOffset(view: ArrayBufferView): number;
export function canCopyArrayBuffer(toBuffer: ArrayBuffer, toIndex: number, fromBuffer: ArrayBuffer, fromIndex: number, count: number): boolean;
export function cloneAsUint8Array(view: ArrayBufferView): Uint8Array;
export function copyArrayBuffer(toBuffer: ArrayBuffer, toIndex: number, fromBuffer: ArrayBuffer, fromIndex: number, count: number): void;

export function createPromiseCallbackNoParams(name: string, fn: unknown, thisArg: unknown): () => Promise<unknown>;
export function createPromiseCallback1Param(name: string, fn: unknown, thisArg: unknown): (arg: unknown) => Promise<unknown>;
export function createPromiseCallback2Params(name: string, fn: unknown, thisArg: unknown): (arg1: unknown, arg2: unknown) => Promise<unknown>;
export function createRawCallback1Param(name: string, fn: unknown, thisArg: unknown): (arg: unknown) => unknown;
export function createRawCallback2Params(name: string, fn: unknown, thisArg: unknown): (arg1: unknown, arg2: unknown) => unknown;

export function customInspect(depth: number, options: object, name: string, data: object): string;
export function defaultSizeAlgorithm(): 1;
export function extractHighWaterMark(value: unknown, defaultHWM: number): number;
export function extractSizeAlgorithm(size: unknown): (chunk: unknown) => number;
export function getNonWritablePropertyDescriptor(value: unknown): PropertyDescriptor;
/** @removed-by brand-check-functions */
export function isBrandCheck(brand: string): (value: unknown) => boolean;
export function isPromisePending(promise: Promise<unknown> | undefined): boolean;
/** internal/webstreams/transfer, loaded on first use. */
export function lazyTransfer(): {
  newCrossRealmReadableStream(writable: object, port: MessagePort | undefined): { readable: ReadableStream; promise: Promise<unknown> };
  newCrossRealmWritableSink(readable: object, port: MessagePort | undefined): { writable: WritableStream; promise: Promise<unknown> };
  CrossRealmTransformReadableSource: new (port: MessagePort, unref: boolean) => object;
  CrossRealmTransformWritableSink: new (port: MessagePort, unref: boolean) => object;
};

/** @layer pipe-tee-promise-records */
export const kPendingPromise: Promise<never>;
export const kResolvedPromise: Promise<void>;
export function resolvedRecord(): PromiseRecord<void>;
export function rejectedHandledRecord<T = never>(error: unknown): PromiseRecord<T>;
export function setPromiseHandled(promise: Promise<unknown>): void;
/** Runs onFulfilled/onRejected for an algorithm's (maybe non-thenable) result, skipping a promise when it can. */
export function thenAlgorithmResult(result: unknown, onFulfilled: (value?: unknown) => unknown, onRejected?: (reason: unknown) => unknown): void;

export function nonOpCallback(): void;
export function nonOpCancel(): Promise<void>;
export function nonOpFlush(): Promise<void>;
