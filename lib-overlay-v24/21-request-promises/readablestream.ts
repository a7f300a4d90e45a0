import {
  kChunk,
  kClose,
  kError,
} from 'internal/webstreams/readablestream';

const {
  Promise,
} = primordials;

type ReadResult = { value: unknown; done: boolean };

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
    this.resolve({ value, done: false });
  }

  [kClose](): void {
    this.resolve({ value: undefined, done: true });
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
    this.resolve({ value, done: false });
  }

  [kClose](value: unknown): void {
    this.resolve({ value, done: true });
  }

  [kError](error: unknown): void {
    this.reject(error);
  }

  // @overlay-remove get promise
}
