import { kEmptyQueue } from 'internal/webstreams/util';
import { kNilPendingAbortRequest, kNilRequest } from 'internal/webstreams/writablestream';

// A stream's transfer record, a class for the reason given below.
// @overlay-after isWritableStreamDefaultController
class WritableStreamTransferState {
  readable = undefined;
  port1 = undefined;
  port2 = undefined;
  promise = undefined;
}

// The stream's internal slots, as a class: a literal with `__proto__:
// null` is created in dictionary mode, so every read of a slot was a hash
// lookup.
// @overlay-after isWritableStreamDefaultController
class WritableStreamState {
  closedPromise = undefined;
  closeRequest = kNilRequest;
  // Mirrors "closeRequest or inFlightCloseRequest is pending"; kept as a
  // flag because the predicate runs several times per chunk on the write
  // hot path.
  closeQueuedOrInFlight = false;
  inFlightWriteRequest = kNilRequest;
  inFlightCloseRequest = kNilRequest;
  pendingAbortRequest = kNilPendingAbortRequest;
  backpressure = false;
  controller = undefined;
  state = 'writable';
  storedError = undefined;
  // Ring-buffer request queue, materialized lazily on the first pending
  // write (see writableStreamAddWriteRequest) so construction allocates
  // no request storage.
  writeRequests = kEmptyQueue;
  writer = undefined;
  transfer = new WritableStreamTransferState();
}

function createWritableStreamState() {
  return new WritableStreamState();
}
