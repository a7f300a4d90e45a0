import { dequeueValue, kEmptyQueue, kState, Queue } from 'internal/webstreams/util';
import {
  DefaultReadRequest,
  isReadableStreamDefaultController,
  isReadableStreamDefaultReader,
  readableByteStreamControllerDequeueChunk,
  readableStreamClose,
  readableStreamDefaultControllerClearAlgorithms,
  readableStreamDefaultControllerPull,
  readableStreamDefaultReaderRead,
  type ReadableStream,
  type ReadableStreamDefaultController,
  type ReadableStreamDefaultReader as DeclaredReadableStreamDefaultReader,
} from 'internal/webstreams/readablestream';
import { ERR_INVALID_STATE, ERR_INVALID_THIS } from 'internal/errors';

const {
  PromiseReject,
  PromiseResolve,
} = primordials;

interface ReadableStreamDefaultReader extends DeclaredReadableStreamDefaultReader {}

class ReadableStreamDefaultReader {
  /**
   * @returns {Promise<{
   *   value : any,
   *   done : boolean
   * }>}
   */
  read() {
    if (!isReadableStreamDefaultReader(this))
      return PromiseReject(new ERR_INVALID_THIS('ReadableStreamDefaultReader'));
    if (this[kState].stream === undefined) {
      return PromiseReject(
        new ERR_INVALID_STATE.TypeError(
          'The reader is not attached to a stream'));
    }

    const stream = this[kState].stream;
    const controller = stream[kState].controller;

    // Fast path: if data is already buffered in the controller's queue,
    // return a resolved promise immediately without creating a read request.
    // This is spec-compliant because read() returns a Promise, and
    // Promise.resolve() callbacks still run in the microtask queue.
    if (stream[kState].state === 'readable') {
      if (isReadableStreamDefaultController(controller)) {
        if (controller[kState].queue.length > 0) {
          stream[kState].disturbed = true;
          const chunk = dequeueValue(controller);

          if (controller[kState].closeRequested && !controller[kState].queue.length) {
            readableStreamDefaultControllerClearAlgorithms(controller);
            readableStreamClose(stream);
          } else if (!controller[kState].closeRequested &&
                     controller[kState].started &&
                     controller[kState].highWaterMark -
                       controller[kState].queueTotalSize > 0) {
            // ShouldCallPull reduced to the conditions not already
            // established on this path: the state is readable and the
            // queue was non-empty, so no read requests can be parked.
            readableStreamDefaultControllerPull(controller);
          }

          return PromiseResolve({ done: false, value: chunk });
        }
        return readableStreamDefaultReaderParkRead(this, stream, controller);
      } else if (controller![kState].queueTotalSize > 0) {
        // Byte controller with buffered data: mirror the queue-filled arm
        // of its pull steps (which never consults pendingPullIntos) minus
        // the read request.
        stream[kState].disturbed = true;
        return PromiseResolve({
          done: false,

          value: readableByteStreamControllerDequeueChunk(controller!),
        });
      }
    }

    // Slow path: create request and go through normal flow
    const readRequest = new DefaultReadRequest();
    readableStreamDefaultReaderRead(this, readRequest);
    return readRequest.promise;
  }
}

// @overlay-after readableStreamDefaultReaderRead
// read() on a readable stream whose default controller's queue is empty:
// ReadableStreamDefaultReaderRead, the controller's pull steps and
// ReadableStreamAddReadRequest with what read() has already established
// (a default reader of a readable stream, an empty queue) left out. An
// empty queue in the readable state means close has not been requested,
// and the request parked here satisfies ShouldCallPull's read-request
// arm, so the pull steps' call reduces to the started check. A function
// of its own, so that read()'s buffered fast path stays small.
function readableStreamDefaultReaderParkRead(
  reader: ReadableStreamDefaultReader,
  stream: ReadableStream,
  controller: ReadableStreamDefaultController): Promise<{ value: unknown; done: boolean }> {
  stream[kState].disturbed = true;
  const readRequest = new DefaultReadRequest();
  const readerState = reader[kState];
  let readRequests = readerState.readRequests;
  if (readRequests === kEmptyQueue)
    readRequests = readerState.readRequests = new Queue();
  readRequests.push(readRequest);
  if (controller[kState].started)
    readableStreamDefaultControllerPull(controller);
  return readRequest.promise;
}
