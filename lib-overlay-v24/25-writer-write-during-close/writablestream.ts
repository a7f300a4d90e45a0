import { defaultSizeAlgorithm, kState } from 'internal/webstreams/util';
import {
  writableStreamDefaultControllerErrorIfNeeded,
  type WritableStreamDefaultController,
} from 'internal/webstreams/writablestream';
import assert from 'internal/assert';

const {
  FunctionPrototypeCall,
} = primordials;

function writableStreamDefaultControllerGetChunkSize(controller: WritableStreamDefaultController, chunk: unknown): number {
  const {
    stream,
    sizeAlgorithm,
  } = controller[kState];
  if (sizeAlgorithm === undefined) {
    // The algorithms are cleared when the stream errors, and when its
    // close goes in flight while it is still writable
    // (WritableStreamDefaultControllerProcessClose); the caller then
    // rejects the write (whatwg/streams#1218).
    assert(stream[kState].state !== 'writable' ||
           stream[kState].closeQueuedOrInFlight);
    return 1;
  }

  // The internal default size algorithm is never observable by user
  // code, always returns 1, and cannot throw: skip the call.
  if (sizeAlgorithm === defaultSizeAlgorithm)
    return 1;

  try {
    return FunctionPrototypeCall(
      sizeAlgorithm,
      undefined,
      chunk);
  } catch (error) {
    writableStreamDefaultControllerErrorIfNeeded(controller, error);
    return 1;
  }
}
