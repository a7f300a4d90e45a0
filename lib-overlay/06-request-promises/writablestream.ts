import { Queue, kEmptyQueue, kState } from 'internal/webstreams/util';
import { isWritableStreamLocked, type WritableStream } from 'internal/webstreams/writablestream';
import assert from 'internal/assert';

const {
  Promise,
} = primordials;

// A write request: the { promise, resolve, reject } record the stream's
// request slots hold, built with an executor for the reason given in
// DefaultReadRequest (readablestream.js); one per write() call.
// @overlay-after writableStreamCloseQueuedOrInFlight
class WriteRequest {
  declare promise: Promise<void>;
  declare resolve: () => void;
  declare reject: (error: unknown) => void;

  constructor() {
    this.promise = new Promise((resolve, reject) => {
      this.resolve = resolve;
      this.reject = reject;
    });
  }
}

function writableStreamAddWriteRequest(stream: WritableStream): Promise<void> {
  assert(isWritableStreamLocked(stream));
  assert(stream[kState].state === 'writable');
  const writeRequest = new WriteRequest();
  const streamState = stream[kState];
  let writeRequests = streamState.writeRequests;
  if (writeRequests === kEmptyQueue)
    writeRequests = streamState.writeRequests = new Queue();
  writeRequests.push(writeRequest);
  return writeRequest.promise;
}
