import { kState, rejectedHandledRecord } from 'internal/webstreams/util';
import {
  kNilPendingAbortRequest,
  kNilRequest,
  type WritableStream,
} from 'internal/webstreams/writablestream';
import assert from 'internal/assert';

function writableStreamFinishInFlightClose(stream: WritableStream): void {
  assert(stream[kState].inFlightCloseRequest.promise !== undefined);
  stream[kState].inFlightCloseRequest.resolve!();
  stream[kState].inFlightCloseRequest = kNilRequest;
  stream[kState].closeQueuedOrInFlight = false;
  if (stream[kState].state === 'erroring') {
    // WritableStreamStartErroring rejected the writer's [[readyPromise]],
    // and closing leaves it so; a closed stream's unobserved ready would
    // be derived as fulfilled, and the stored error is cleared below.
    const writer = stream[kState].writer;
    if (writer !== undefined && writer[kState].ready === undefined)
      writer[kState].ready = rejectedHandledRecord(stream[kState].storedError);
    stream[kState].storedError = undefined;
    if (stream[kState].pendingAbortRequest.abort.promise !== undefined) {
      stream[kState].pendingAbortRequest.abort.resolve!();
      stream[kState].pendingAbortRequest = kNilPendingAbortRequest;
    }
  }
  stream[kState].state = 'closed';
  if (stream[kState].writer !== undefined)
    stream[kState].writer[kState].close?.resolve!();
  stream[kState].closedPromise?.resolve!();
  assert(stream[kState].pendingAbortRequest.abort.promise === undefined);
  assert(stream[kState].storedError === undefined);
}
