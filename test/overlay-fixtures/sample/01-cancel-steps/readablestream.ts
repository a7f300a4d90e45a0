// Sample layer: idiomatic TypeScript the compiler turns into Node lib style.
import { kState, nonOpCallback } from 'internal/webstreams/util';
import {
  isReadableStream,
  isReadableStreamLocked,
  kCancel,
  kClose,
  readableStreamClose,
  readableStreamHasBYOBReader,
  type ReadableStream as DeclaredReadableStream,
  type ReadableStreamBYOBReader,
} from 'internal/webstreams/readablestream';
import { ERR_INVALID_STATE, ERR_INVALID_THIS } from 'internal/errors';

// The merged class has every member the declarations give it.
interface ReadableStream extends DeclaredReadableStream {}

class ReadableStream {
  /**
   * @param {any} [reason]
   * @returns { Promise<void> }
   */
  cancel(reason: unknown = undefined): Promise<void> {
    if (!isReadableStream(this))
      return Promise.reject(new ERR_INVALID_THIS('ReadableStream'));
    if (isReadableStreamLocked(this)) {
      return Promise.reject(
        new ERR_INVALID_STATE.TypeError('ReadableStream is locked'));
    }
    return readableStreamCancel(this, reason);
  }
}

export function readableStreamCancel(stream: ReadableStream, reason: unknown): Promise<void> {
  const state = stream[kState];
  state.disturbed = true;
  switch (state.state) {
    case 'closed':
      return Promise.resolve();
    case 'errored':
      return Promise.reject(state.storedError);
  }
  readableStreamClose(stream);
  const reader = state.reader;
  if (reader !== undefined && readableStreamHasBYOBReader(stream))
    readableStreamBYOBReaderCloseRequests(reader as ReadableStreamBYOBReader);

  // The reaction's result is discarded: the shared no-op saves a closure.
  return state.controller![kCancel](reason).then(nonOpCallback);
}

/** Runs the close steps of every pending read-into request, oldest first. */
function readableStreamBYOBReaderCloseRequests(reader: ReadableStreamBYOBReader): void {
  const readIntoRequests = reader[kState].readIntoRequests;
  // A Queue, not an Array: `shift` stays a method call.
  while (readIntoRequests.length)
    readIntoRequests.shift()[kClose]();
}
