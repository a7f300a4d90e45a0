import { dequeueValue, kState, thenAlgorithmResult } from 'internal/webstreams/util';
import {
  writableStreamDefaultControllerAdvanceQueueIfNeeded,
  writableStreamDefaultControllerClearAlgorithms,
  writableStreamFinishInFlightWrite,
  writableStreamFinishInFlightWriteWithError,
  writableStreamMarkFirstWriteRequestInFlight,
  writableStreamUpdateBackpressure,
  type WritableStreamDefaultController,
} from 'internal/webstreams/writablestream';
import assert from 'internal/assert';

const {
  PromiseReject,
} = primordials;

function writableStreamDefaultControllerProcessWrite(controller: WritableStreamDefaultController, chunk: unknown): void {
  const {
    stream,
    writeAlgorithm,
  } = controller[kState];
  writableStreamMarkFirstWriteRequestInFlight(stream);

  if (controller[kState].writeFulfilled === undefined)
    writableStreamDefaultControllerCreateWriteReactions(controller);

  // The write algorithm may be a raw callback (a wrapped user sink.write
  // returns its result uncoerced; a synchronous throw surfaces here) or an
  // internal algorithm that always returns a promise; thenAlgorithmResult
  // handles both.
  let result;
  try {
    result = writeAlgorithm!(chunk, controller);
  } catch (error) {
    result = PromiseReject(error);
  }
  thenAlgorithmResult(
    result,
    controller[kState].writeFulfilled!,
    controller[kState].writeRejected);
}

// The write reaction closures only capture the stream and controller, so
// they are created once, on the first write, and reused for every
// subsequent write. They are created here rather than in the write step so
// that the write step captures nothing (no context per write), and bound to
// constants before they are stored: V8 allocates a function literal
// assigned straight to a property in the old generation, where, once dead,
// it would keep the stream alive until the next full garbage collection.
// @overlay-after writableStreamDefaultControllerProcessWrite
function writableStreamDefaultControllerCreateWriteReactions(controller: WritableStreamDefaultController): void {
  const {
    stream,
  } = controller[kState];
  const writeFulfilled = () => {
    writableStreamFinishInFlightWrite(stream);
    const streamState = stream[kState];
    const {
      state,
    } = streamState;
    assert(state === 'writable' || state === 'erroring');
    dequeueValue(controller);
    if (!streamState.closeQueuedOrInFlight &&
        state === 'writable') {
      writableStreamUpdateBackpressure(controller, streamState);
    }
    writableStreamDefaultControllerAdvanceQueueIfNeeded(controller);
  };
  const writeRejected = (error: unknown) => {
    if (stream[kState].state === 'writable')
      writableStreamDefaultControllerClearAlgorithms(controller);
    writableStreamFinishInFlightWriteWithError(stream, error);
  };
  controller[kState].writeFulfilled = writeFulfilled;
  controller[kState].writeRejected = writeRejected;
}
