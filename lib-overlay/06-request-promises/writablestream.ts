import { Queue, kEmptyQueue, kState, rejectedHandledRecord, resolvedRecord, type PromiseRecord } from 'internal/webstreams/util';
import {
  isWritableStreamLocked,
  lazyWritableReleasedError,
  writableStreamCloseQueuedOrInFlight,
  type WritableStream,
  type WritableStreamDefaultWriter,
} from 'internal/webstreams/writablestream';
import assert from 'internal/assert';

const {
  Promise,
} = primordials;

// A pending { promise, resolve, reject } record built with an executor,
// for the reason given in DefaultReadRequest (readablestream.js): each
// write() request the stream's request slots hold, and the writer's
// [[readyPromise]] whenever backpressure holds when it is observed (once
// per backpressure flip in a loop that awaits writer.ready).
// @overlay-after writerClosedPromise
class PendingPromiseRecord {
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
  const writeRequest = new PendingPromiseRecord();
  const streamState = stream[kState];
  let writeRequests = streamState.writeRequests;
  if (writeRequests === kEmptyQueue)
    writeRequests = streamState.writeRequests = new Queue();
  writeRequests.push(writeRequest);
  return writeRequest.promise;
}

function writerReadyPromise(writer: WritableStreamDefaultWriter): PromiseRecord<void> {
  let ready = writer[kState].ready;
  if (ready === undefined) {
    const stream = writer[kState].stream;
    if (stream === undefined) {
      ready = rejectedHandledRecord(lazyWritableReleasedError());
    } else {
      switch (stream[kState].state) {
        case 'writable':
          ready = !writableStreamCloseQueuedOrInFlight(stream) &&
                  stream[kState].backpressure ?
            new PendingPromiseRecord() :
            resolvedRecord();
          break;
        case 'closed':
          ready = resolvedRecord();
          break;
        default:
          ready = rejectedHandledRecord(stream[kState].storedError);
      }
    }
    writer[kState].ready = ready;
  }
  return ready;
}
