import { kState } from 'internal/webstreams/util';
import {
  isReadableStreamDefaultReader,
  readableByteStreamControllerFillReadRequestFromQueue,
  type ReadableByteStreamController,
} from 'internal/webstreams/readablestream';
import assert from 'internal/assert';

function readableByteStreamControllerProcessReadRequestsUsingQueue(controller: ReadableByteStreamController): void {
  const {
    stream,
  } = controller[kState];
  const { reader } = stream[kState];
  assert(isReadableStreamDefaultReader(reader));

  while (reader[kState].readRequests.length > 0) {
    // Each fill dequeues a chunk, so the queue's size is read every time.
    if (controller[kState].queueTotalSize === 0) {
      return;
    }
    readableByteStreamControllerFillReadRequestFromQueue(
      controller,
      reader[kState].readRequests.shift(),
    );
  }
}
