import {
  cloneAsUint8Array,
  kResolvedPromise,
  kState,
  nonOpCallback,
} from 'internal/webstreams/util';
import {
  ReadableStreamBYOBReader,
  ReadableStreamDefaultReader,
  StepsReadRequest,
  createReadableByteStream,
  createReadableStream,
  isReadableStream,
  isReadableByteStreamController,
  isReadableStreamBYOBReader,
  isReadableStreamDefaultReader,
  readableByteStreamControllerClose,
  readableByteStreamControllerEnqueue,
  readableByteStreamControllerError,
  readableByteStreamControllerRespond,
  readableByteStreamControllerRespondWithNewView,
  readableStreamBYOBReaderRead,
  readableStreamBYOBReaderRelease,
  readableStreamCancel,
  readableStreamDefaultControllerClose,
  readableStreamDefaultControllerEnqueue,
  readableStreamDefaultControllerError,
  readableStreamDefaultReaderRead,
  readableStreamDefaultReaderRelease,
  readerClosedPromise,
  type ReadableByteStreamController,
  type ReadableStream,
  type ReadableStreamDefaultController,
  type ReadableStreamReader,
  type ReadableStreamState,
} from 'internal/webstreams/readablestream';
import assert from 'internal/assert';
import { structuredClone } from 'internal/worker/js_transferable';
import { queueMicrotask } from 'internal/process/task_queues';

const {
  PromisePrototypeThen,
  PromiseWithResolvers,
} = primordials;

// The tees' branches, with the controller each is created with.
type DefaultBranch = ReadableStream & { [kState]: ReadableStreamState & { controller: ReadableStreamDefaultController } };
type ByteBranch = ReadableStream & { [kState]: ReadableStreamState & { controller: ReadableByteStreamController } };

function readableStreamDefaultTee(stream: ReadableStream, cloneForBranch2: boolean): [ReadableStream, ReadableStream] {
  const reader = new ReadableStreamDefaultReader(stream);
  let reading = false;
  let canceled1 = false;
  let canceled2 = false;
  let reason1: unknown;
  let reason2: unknown;
  let branch1: DefaultBranch;
  let branch2: DefaultBranch;
  const cancelPromise = PromiseWithResolvers<void>();

  // At most one read is ever in flight (`reading` guards pullAlgorithm),
  // so one read request object and one forwarding microtask function are
  // reused for every chunk; the chunk travels through `pendingChunk`.
  // The request is materialized lazily on the first pull so that tee()
  // itself stays allocation-light.
  let pendingChunk: unknown;
  let readRequest: StepsReadRequest | undefined;
  function forwardChunk(): void {
    reading = false;
    const value1 = pendingChunk;
    let value2 = pendingChunk;
    pendingChunk = undefined;
    if (!canceled2 && cloneForBranch2) {
      value2 = structuredClone(value2);
    }
    if (!canceled1) {
      readableStreamDefaultControllerEnqueue(
        branch1[kState].controller,
        value1);
    }
    if (!canceled2) {
      readableStreamDefaultControllerEnqueue(
        branch2[kState].controller,
        value2);
    }
  }

  // A non-thenable pull result reaches the controller's pull-fulfilled
  // step at the same microtask position as an async function's promise,
  // without the promise per pull.
  function pullAlgorithm(): void {
    if (reading) return;
    reading = true;
    readRequest ??= new StepsReadRequest(
      (value) => {
        // The microtask is required by the spec (ReadableStreamTee's
        // "chunk steps" queue one).
        pendingChunk = value;
        PromisePrototypeThen(kResolvedPromise, forwardChunk);
      },
      () => {
        // The `process.nextTick()` is not part of the spec.
        // This approach was needed to avoid a race condition working with esm
        // Further information, see: https://github.com/nodejs/node/issues/39758
        process.nextTick(() => {
          reading = false;
          if (!canceled1)
            readableStreamDefaultControllerClose(branch1[kState].controller);
          if (!canceled2)
            readableStreamDefaultControllerClose(branch2[kState].controller);
          if (!canceled1 || !canceled2)
            cancelPromise.resolve();
        });
      },
      () => {
        reading = false;
      });
    readableStreamDefaultReaderRead(reader, readRequest);
  }

  function cancel1Algorithm(reason: unknown): Promise<void> {
    canceled1 = true;
    reason1 = reason;
    if (canceled2) {
      const compositeReason = [reason1, reason2];
      cancelPromise.resolve(readableStreamCancel(stream, compositeReason));
    }
    return cancelPromise.promise;
  }

  function cancel2Algorithm(reason: unknown): Promise<void> {
    canceled2 = true;
    reason2 = reason;
    if (canceled1) {
      const compositeReason = [reason1, reason2];
      cancelPromise.resolve(readableStreamCancel(stream, compositeReason));
    }
    return cancelPromise.promise;
  }

  branch1 =
    createReadableStream(nonOpCallback, pullAlgorithm, cancel1Algorithm) as DefaultBranch;
  branch2 =
    createReadableStream(nonOpCallback, pullAlgorithm, cancel2Algorithm) as DefaultBranch;

  PromisePrototypeThen(
    readerClosedPromise(reader).promise,
    undefined,
    (error) => {
      readableStreamDefaultControllerError(branch1[kState].controller, error);
      readableStreamDefaultControllerError(branch2[kState].controller, error);
      if (!canceled1 || !canceled2)
        cancelPromise.resolve();
    });

  return [branch1, branch2];
}

function readableByteStreamTee(stream: ReadableStream): [ReadableStream, ReadableStream] {
  assert(isReadableStream(stream));
  assert(isReadableByteStreamController(stream[kState].controller));

  let reader: ReadableStreamReader = new ReadableStreamDefaultReader(stream);
  let reading = false;
  let readAgainForBranch1 = false;
  let readAgainForBranch2 = false;
  let canceled1 = false;
  let canceled2 = false;
  let reason1: unknown;
  let reason2: unknown;
  let branch1: ByteBranch;
  let branch2: ByteBranch;
  const cancelDeferred = PromiseWithResolvers<void>();

  function forwardReaderError(thisReader: ReadableStreamReader): void {
    PromisePrototypeThen(
      readerClosedPromise(thisReader).promise,
      undefined,
      (error) => {
        if (thisReader !== reader) {
          return;
        }
        readableStreamDefaultControllerError(branch1[kState].controller as never, error);
        readableStreamDefaultControllerError(branch2[kState].controller as never, error);
        if (!canceled1 || !canceled2) {
          cancelDeferred.resolve();
        }
      },
    );
  }

  // As in readableStreamDefaultTee, only one read is ever in flight, so
  // the default-reader read request and its forwarding microtask are
  // shared across all chunks.
  let pendingChunk: ArrayBufferView | undefined;
  function forwardChunk(): void {
    readAgainForBranch1 = false;
    readAgainForBranch2 = false;
    const chunk1 = pendingChunk!;
    let chunk2 = pendingChunk!;
    pendingChunk = undefined;

    if (!canceled1 && !canceled2) {
      try {
        chunk2 = cloneAsUint8Array(chunk1);
      } catch (error) {
        readableByteStreamControllerError(
          branch1[kState].controller,
          error,
        );
        readableByteStreamControllerError(
          branch2[kState].controller,
          error,
        );
        cancelDeferred.resolve(readableStreamCancel(stream, error));
        return;
      }
    }
    if (!canceled1) {
      readableByteStreamControllerEnqueue(
        branch1[kState].controller,
        chunk1,
      );
    }
    if (!canceled2) {
      readableByteStreamControllerEnqueue(
        branch2[kState].controller,
        chunk2,
      );
    }
    reading = false;

    if (readAgainForBranch1) {
      pull1Algorithm();
    } else if (readAgainForBranch2) {
      pull2Algorithm();
    }
  }

  let defaultReadRequest: StepsReadRequest<ArrayBufferView> | undefined;
  function pullWithDefaultReader(): void {
    if (isReadableStreamBYOBReader(reader)) {
      readableStreamBYOBReaderRelease(reader);
      reader = new ReadableStreamDefaultReader(stream);
      forwardReaderError(reader);
    }

    defaultReadRequest ??= new StepsReadRequest<ArrayBufferView>(
      (chunk) => {
        pendingChunk = chunk;
        PromisePrototypeThen(kResolvedPromise, forwardChunk);
      },
      () => {
        reading = false;

        if (!canceled1) {
          readableByteStreamControllerClose(branch1[kState].controller);
        }
        if (!canceled2) {
          readableByteStreamControllerClose(branch2[kState].controller);
        }
        if (branch1[kState].controller[kState].pendingPullIntos.length > 0) {
          readableByteStreamControllerRespond(branch1[kState].controller, 0);
        }
        if (branch2[kState].controller[kState].pendingPullIntos.length > 0) {
          readableByteStreamControllerRespond(branch2[kState].controller, 0);
        }
        if (!canceled1 || !canceled2) {
          cancelDeferred.resolve();
        }
      },
      () => {
        reading = false;
      });
    readableStreamDefaultReaderRead(reader as ReadableStreamDefaultReader, defaultReadRequest);
  }

  function pullWithBYOBReader(view: ArrayBufferView, forBranch2: boolean): void {
    if (isReadableStreamDefaultReader(reader)) {
      readableStreamDefaultReaderRelease(reader);
      reader = new ReadableStreamBYOBReader(stream);
      forwardReaderError(reader);
    }

    const byobBranch = forBranch2 === true ? branch2 : branch1;
    const otherBranch = forBranch2 === false ? branch2 : branch1;
    const readIntoRequest = new StepsReadRequest<ArrayBufferView>(
      (chunk) => {
        queueMicrotask(() => {
          readAgainForBranch1 = false;
          readAgainForBranch2 = false;
          const byobCanceled = forBranch2 === true ? canceled2 : canceled1;
          const otherCanceled = forBranch2 === false ? canceled2 : canceled1;

          if (!otherCanceled) {
            let clonedChunk;

            try {
              clonedChunk = cloneAsUint8Array(chunk);
            } catch (error) {
              readableByteStreamControllerError(
                byobBranch[kState].controller,
                error,
              );
              readableByteStreamControllerError(
                otherBranch[kState].controller,
                error,
              );
              cancelDeferred.resolve(readableStreamCancel(stream, error));
              return;
            }
            if (!byobCanceled) {
              readableByteStreamControllerRespondWithNewView(
                byobBranch[kState].controller,
                chunk,
              );
            }

            readableByteStreamControllerEnqueue(
              otherBranch[kState].controller,
              clonedChunk,
            );
          } else if (!byobCanceled) {
            readableByteStreamControllerRespondWithNewView(
              byobBranch[kState].controller,
              chunk,
            );
          }
          reading = false;

          if (readAgainForBranch1) {
            pull1Algorithm();
          } else if (readAgainForBranch2) {
            pull2Algorithm();
          }
        });
      },
      (chunk) => {
        reading = false;

        const byobCanceled = forBranch2 === true ? canceled2 : canceled1;
        const otherCanceled = forBranch2 === false ? canceled2 : canceled1;

        if (!byobCanceled) {
          readableByteStreamControllerClose(byobBranch[kState].controller);
        }
        if (!otherCanceled) {
          readableByteStreamControllerClose(otherBranch[kState].controller);
        }
        if (chunk !== undefined) {
          if (!byobCanceled) {
            readableByteStreamControllerRespondWithNewView(
              byobBranch[kState].controller,
              chunk,
            );
          }
          if (
            !otherCanceled &&
            otherBranch[kState].controller[kState].pendingPullIntos.length > 0
          ) {
            readableByteStreamControllerRespond(
              otherBranch[kState].controller,
              0,
            );
          }
        }
        if (!byobCanceled || !otherCanceled) {
          cancelDeferred.resolve();
        }
      },
      () => {
        reading = false;
      });
    readableStreamBYOBReaderRead(reader as ReadableStreamBYOBReader, view, 1, readIntoRequest);
  }

  function pull1Algorithm(): void {
    if (reading) {
      readAgainForBranch1 = true;
      return;
    }
    reading = true;

    const byobRequest = branch1[kState].controller.byobRequest;
    if (byobRequest === null) {
      pullWithDefaultReader();
    } else {
      pullWithBYOBReader(byobRequest[kState].view!, false);
    }
  }

  function pull2Algorithm(): void {
    if (reading) {
      readAgainForBranch2 = true;
      return;
    }
    reading = true;

    const byobRequest = branch2[kState].controller.byobRequest;
    if (byobRequest === null) {
      pullWithDefaultReader();
    } else {
      pullWithBYOBReader(byobRequest[kState].view!, true);
    }
  }

  function cancel1Algorithm(reason: unknown): Promise<void> {
    canceled1 = true;
    reason1 = reason;
    if (canceled2) {
      cancelDeferred.resolve(readableStreamCancel(stream, [reason1, reason2]));
    }
    return cancelDeferred.promise;
  }

  function cancel2Algorithm(reason: unknown): Promise<void> {
    canceled2 = true;
    reason2 = reason;
    if (canceled1) {
      cancelDeferred.resolve(readableStreamCancel(stream, [reason1, reason2]));
    }
    return cancelDeferred.promise;
  }

  branch1 =
    createReadableByteStream(nonOpCallback, pull1Algorithm, cancel1Algorithm) as ByteBranch;
  branch2 =
    createReadableByteStream(nonOpCallback, pull2Algorithm, cancel2Algorithm) as ByteBranch;

  forwardReaderError(reader);

  return [branch1, branch2];
}
