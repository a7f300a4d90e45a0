import { kState } from 'internal/webstreams/util';
import {
  kChunk,
  kClose,
  kError,
  readableStreamDefaultReaderRead,
  readableStreamReaderGenericRelease,
  type ReadableStreamDefaultReader,
} from 'internal/webstreams/readablestream';
import { ERR_INVALID_STATE } from 'internal/errors';

const {
  Promise,
  PromiseReject,
  PromiseResolve,
} = primordials;

type ReadResult = { value: unknown; done: boolean };
type IteratorState = ReadableStreamAsyncIteratorReadRequest;

class DefaultReadRequest {
  declare resolve: (result: ReadResult) => void;
  declare reject: (error: unknown) => void;
  declare promise: Promise<ReadResult>;

  constructor() {
    // The promise and its resolving functions are own fields, set by an
    // executor: the optimizing compiler inlines the Promise constructor
    // and the executor, where PromiseWithResolvers() is a call that also
    // allocates a { promise, resolve, reject } record, once per read()
    // that finds nothing buffered.
    this.promise = new Promise((resolve, reject) => {
      this.resolve = resolve;
      this.reject = reject;
    });
  }

  [kChunk](value: unknown): void {
    this.resolve({ done: false, value });
  }

  [kClose](): void {
    this.resolve({ done: true, value: undefined });
  }

  [kError](error: unknown): void {
    this.reject(error);
  }

  // @overlay-remove get promise
}

class ReadIntoRequest {
  declare resolve: (result: ReadResult) => void;
  declare reject: (error: unknown) => void;
  declare promise: Promise<ReadResult>;

  constructor() {
    // Built like DefaultReadRequest's (see there).
    this.promise = new Promise((resolve, reject) => {
      this.resolve = resolve;
      this.reject = reject;
    });
  }

  [kChunk](value: unknown): void {
    this.resolve({ done: false, value });
  }

  [kClose](value: unknown): void {
    this.resolve({ done: true, value });
  }

  [kError](error: unknown): void {
    this.reject(error);
  }

  // @overlay-remove get promise
}

class ReadableStreamAsyncIteratorReadRequest {
  declare reader: ReadableStreamDefaultReader;
  declare preventCancel: boolean;
  declare done: boolean;
  declare started: boolean;
  declare current: Promise<ReadResult> | undefined;
  declare resolve: ((result: ReadResult) => void) | undefined;
  declare reject: ((error: unknown) => void) | undefined;
  declare chainedNextSteps: (() => Promise<ReadResult>) | undefined;

  constructor(reader: ReadableStreamDefaultReader, preventCancel: boolean) {
    this.reader = reader;
    this.preventCancel = preventCancel;
    this.done = false;
    this.started = false;
    this.current = undefined;
    // The resolving functions of the pending next() promise (see
    // readableStreamAsyncIteratorNextSteps).
    this.resolve = undefined;
    this.reject = undefined;
    this.chainedNextSteps = undefined;
  }

  [kChunk](chunk: unknown): void {
    this.current = undefined;
    this.resolve!({ done: false, value: chunk });
  }

  [kClose](): void {
    this.current = undefined;
    this.done = true;
    readableStreamReaderGenericRelease(this.reader);
    this.resolve!({ done: true, value: undefined });
  }

  [kError](error: unknown): void {
    this.current = undefined;
    this.done = true;
    readableStreamReaderGenericRelease(this.reader);
    this.reject!(error);
  }
}

// next() is not an async function: it explicitly creates and returns a
// promise in the common case, so an async function would only add two
// promise allocations. The promise is built like a DefaultReadRequest's.
function readableStreamAsyncIteratorNextSteps(state: IteratorState): Promise<ReadResult> {
  if (state.done)
    return PromiseResolve({ done: true, value: undefined });

  const reader = state.reader;
  if (reader[kState].stream === undefined) {
    return PromiseReject(
      new ERR_INVALID_STATE.TypeError(
        'The reader is not bound to a ReadableStream'));
  }
  const promise = new Promise<ReadResult>((resolve, reject) => {
    state.resolve = resolve;
    state.reject = reject;
  });
  readableStreamDefaultReaderRead(reader, state);
  return promise;
}
