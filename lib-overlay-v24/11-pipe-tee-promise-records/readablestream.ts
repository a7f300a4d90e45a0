import {
  cloneAsUint8Array,
  dequeueValue,
  kPendingPromise,
  kResolvedPromise,
  kState,
  nonOpCallback,
  type PromiseRecord,
} from 'internal/webstreams/util';
import {
  createReadableByteStream,
  createReadableStream,
  isReadableByteStreamController,
  isReadableStream,
  isReadableStreamBYOBReader,
  isReadableStreamDefaultController,
  isReadableStreamDefaultReader,
  readableByteStreamControllerClose,
  readableByteStreamControllerEnqueue,
  readableByteStreamControllerError,
  readableByteStreamControllerRespond,
  readableByteStreamControllerRespondWithNewView,
  ReadableStreamBYOBReader,
  readableStreamBYOBReaderRead,
  readableStreamBYOBReaderRelease,
  readableStreamCancel,
  readableStreamClose,
  readableStreamDefaultControllerCallPullIfNeeded,
  readableStreamDefaultControllerClearAlgorithms,
  readableStreamDefaultControllerClose,
  readableStreamDefaultControllerEnqueue,
  readableStreamDefaultControllerError,
  ReadableStreamDefaultReader,
  readableStreamDefaultReaderRead,
  readableStreamDefaultReaderRelease,
  readableStreamReaderGenericRelease,
  StepsReadRequest,
  type AbortSignalLike,
  type PipeWriteTracker,
  type ReadableByteStreamController,
  type ReadableStream,
  type ReadableStreamDefaultController,
  type ReadableStreamReader,
  type ReadableStreamState,
} from 'internal/webstreams/readablestream';
import {
  writableStreamAbort,
  writableStreamCloseQueuedOrInFlight,
  WritableStreamDefaultWriter,
  writableStreamDefaultWriterCloseWithErrorPropagation,
  writableStreamDefaultWriterRelease,
  writableStreamDefaultWriterWriteWithRequest,
  type WritableStream,
} from 'internal/webstreams/writablestream';
import {
  validateAbortSignal,
} from 'internal/validators';
import {
  structuredClone,
} from 'internal/worker/js_transferable';
import {
  queueMicrotask,
} from 'internal/process/task_queues';
import {
  AbortError,
  ERR_INVALID_STATE,
} from 'internal/errors';
import assert from 'internal/assert';

const {
  ArrayPrototypePush,
  Promise,
  PromisePrototypeThen,
  PromiseReject,
  PromiseResolve,
  PromiseWithResolvers,
  SafePromiseAll,
  SymbolDispose,
} = primordials;

const {
  DOMException,
} = internalBinding('messaging');

declare let addAbortListener: ((signal: object, listener: () => void) => { [SymbolDispose](): void }) | undefined;

// Duck-types the lazily materialized [[closedPromise]] record of a reader
// or writer that only pipeTo or tee holds a reference to. Settling the
// record enqueues the watcher at the microtask position a reaction on the
// promise would have had, without materializing the promise; the shared
// pending promise satisfies the probes on the erroring/release paths.
// @overlay-after readableStreamFromIterable
class ClosedPromiseHook implements PromiseRecord<void> {
  promise: Promise<void> = kPendingPromise;
  onResolved: (() => void) | undefined;
  onRejected: (error: unknown) => void;

  constructor(onResolved: (() => void) | undefined, onRejected: (error: unknown) => void) {
    this.onResolved = onResolved;
    this.onRejected = onRejected;
  }

  resolve(): void {
    if (this.onResolved !== undefined)
      PromisePrototypeThen(kResolvedPromise, this.onResolved);
  }

  reject(error: unknown): void {
    const onRejected = this.onRejected;
    PromisePrototypeThen(kResolvedPromise, () => onRejected(error));
  }
}

// Installs an error watcher as the [[closedPromise]] record of a reader
// that only its caller holds. A reader of an already errored stream would
// have observed a rejected promise, so its watcher is enqueued right away.
function watchReaderErrored(reader: ReadableStreamReader, onRejected: (error: unknown) => void): void {
  const stream = reader[kState].stream!;
  if (stream[kState].state === 'errored') {
    const error = stream[kState].storedError;
    PromisePrototypeThen(kResolvedPromise, () => onRejected(error));
    return;
  }
  reader[kState].close = new ClosedPromiseHook(undefined, onRejected);
}

function readableStreamPipeTo(
  source: ReadableStream,
  dest: WritableStream,
  preventClose: boolean,
  preventAbort: boolean,
  preventCancel: boolean,
  signal: AbortSignalLike | undefined): Promise<void> {

  let reader: ReadableStreamDefaultReader;
  let writer: WritableStreamDefaultWriter;
  let disposable: { [SymbolDispose](): void } | undefined;
  // Both of these can throw synchronously. We want to capture
  // the error and return a rejected promise instead.
  try {
    reader = new ReadableStreamDefaultReader(source);
    writer = new WritableStreamDefaultWriter(dest);
  } catch (error) {
    return PromiseReject(error);
  }

  source[kState].disturbed = true;

  let shuttingDown = false;

  if (signal !== undefined) {
    try {
      validateAbortSignal(signal, 'options.signal');
    } catch (error) {
      return PromiseReject(error);
    }
  }

  const promise = PromiseWithResolvers<void>();

  // One shared write request tracks every chunk written to the
  // destination, instead of a { promise, resolve, reject } record per
  // write. `stall` is armed by waitForPendingWrites() during shutdown;
  // `failed`/`failure` latch a write that could not proceed.
  const writeTracker: PipeWriteTracker = {
    // Non-undefined: queue entries are discriminated from kNilRequest
    // by `promise === undefined`.
    promise: null,
    pending: 0,
    failed: false,
    failure: undefined,
    stall: null,
    resolve() {
      if (--this.pending === 0 && this.stall !== null) {
        const stall = this.stall;
        this.stall = null;
        if (this.failed)
          stall.reject(this.failure);
        else
          stall.resolve();
      }
    },
    reject(error: unknown) {
      this.pending--;
      this.failed = true;
      this.failure = error;
      if (this.stall !== null) {
        const stall = this.stall;
        this.stall = null;
        stall.reject(error);
      }
    },
  };

  // The error here can be undefined. The rejected arg
  // tells us that the promise must be rejected even
  // when error is undefine.
  function finalize(rejected?: boolean, error?: unknown): void {
    // The pipe is the only observer of the reader's and writer's promise
    // records (including the ready hook installed by parkOnReady), and
    // it is done with them: dropping them lets release skip the
    // pending-promise probes and the rejections nothing would handle.
    writer[kState].ready = undefined;
    writer[kState].close = undefined;
    reader[kState].close = undefined;
    writableStreamDefaultWriterRelease(writer);
    readableStreamReaderGenericRelease(reader);
    if (signal !== undefined)
      disposable?.[SymbolDispose]();
    if (rejected)
      promise.reject(error);
    else
      promise.resolve();
  }

  function waitForPendingWrites(): Promise<void> {
    if (writeTracker.pending === 0) {
      return writeTracker.failed ?
        PromiseReject(writeTracker.failure) :
        PromiseResolve();
    }
    writeTracker.stall = PromiseWithResolvers();
    return writeTracker.stall.promise;
  }

  function shutdownWithAnAction(action: () => Promise<unknown>, rejected?: boolean, originalError?: unknown): void {
    if (shuttingDown) return;
    shuttingDown = true;
    if (dest[kState].state === 'writable' &&
        !writableStreamCloseQueuedOrInFlight(dest)) {
      PromisePrototypeThen(
        waitForPendingWrites(),
        complete,
        (error) => finalize(true, error));
      return;
    }
    complete();

    function complete(): void {
      PromisePrototypeThen(
        action(),
        () => finalize(rejected, originalError),
        (error) => finalize(true, error));
    }
  }

  function shutdown(rejected?: boolean, error?: unknown): void {
    if (shuttingDown) return;
    shuttingDown = true;
    if (dest[kState].state === 'writable' &&
        !writableStreamCloseQueuedOrInFlight(dest)) {
      PromisePrototypeThen(
        waitForPendingWrites(),
        () => finalize(rejected, error),
        (error) => finalize(true, error));
      return;
    }
    finalize(rejected, error);
  }

  function abortAlgorithm(): void {
    let error: unknown;
    if (signal!.reason instanceof AbortError) {
      // Cannot use the AbortError class here. It must be a DOMException.
      error = new DOMException(signal!.reason.message, 'AbortError');
    } else {
      error = signal!.reason;
    }

    const actions: (() => Promise<void>)[] = [];
    if (!preventAbort) {
      ArrayPrototypePush(
        actions,
        () => {
          if (dest[kState].state === 'writable')
            return writableStreamAbort(dest, error);
          return PromiseResolve();
        });
    }
    if (!preventCancel) {
      ArrayPrototypePush(
        actions,
        () => {
          if (source[kState].state === 'readable')
            return readableStreamCancel(source, error);
          return PromiseResolve();
        });
    }

    shutdownWithAnAction(
      () => SafePromiseAll(actions, (action) => action()),
      true,
      error);
  }

  // The pump loop is callback-driven to avoid per-iteration promise
  // allocations. At most one read is in flight at a time, so one read
  // request and one forwarding function are reused for every chunk;
  // the chunk travels through `pendingChunk`.
  let pendingChunk: unknown;
  let readRequest: StepsReadRequest | undefined;
  let readyHook: PromiseRecord<void> | undefined;

  // Ready promise rejection is handled by the destination-errored
  // watcher.
  function ignoreReadyRejection(): void {}

  // Parks the pump on the destination's backpressure by installing a
  // record that duck-types the writer's lazily-materialized
  // [[readyPromise]] record: writableStreamUpdateBackpressure resolves it
  // when backpressure clears (after publishing the new backpressure
  // state), which re-enters the pump directly instead of rotating a
  // fresh promise record plus reaction per flip. The pipe holds the only
  // reference to the writer, so the record is never observable as a real
  // ready promise; the erroring/release paths probe `promise` via
  // isPromisePending() and call `reject`, so it carries the shared
  // pending promise and a no-op reject.
  function parkOnReady(): void {
    readyHook ??= {
      promise: kPendingPromise,
      resolve: pump,
      reject: ignoreReadyRejection,
    };
    writer[kState].ready = readyHook;
  }

  function forwardChunk(): void {
    const chunk = pendingChunk;
    pendingChunk = undefined;
    // A read that completed just before the destination errored: the pipe
    // has released its writer, and the spec drops such a chunk.
    if (writer[kState].stream === undefined) return;
    writableStreamDefaultWriterWriteWithRequest(writer, chunk, writeTracker);
    // The write counts the chunk now.
    writeTracker.resolve();
    pump();
  }

  function pump(): void {
    if (shuttingDown) return;

    // An erroring destination's desiredSize is null, and the spec's pipe
    // reads nothing more while it is: the dest-errored watcher shuts the
    // pipe down once the stream has errored, and the chunks stay in the
    // source, for a later reader when preventCancel is set.
    if (dest[kState].state !== 'writable') return;

    if (dest[kState].backpressure) {
      parkOnReady();
      return;
    }

    const controller = source[kState].controller!;

    // Fast path: batch reads when data is buffered in a default controller.
    // This avoids parking read requests and reduces promise allocation
    // overhead.
    if (source[kState].state === 'readable' &&
        isReadableStreamDefaultController(controller) &&
        controller[kState].queue.length > 0) {

      while (controller[kState].queue.length > 0) {
        if (shuttingDown) return;

        const chunk = dequeueValue(controller);

        if (controller[kState].closeRequested && !controller[kState].queue.length) {
          readableStreamDefaultControllerClearAlgorithms(controller);
          readableStreamClose(source);
        }

        // Write the chunk - we're already in a separate microtask from enqueue
        // because we awaited the writer ready promise above.
        writableStreamDefaultWriterWriteWithRequest(writer, chunk, writeTracker);

        // Check backpressure after each write
        if (dest[kState].backpressure) {
          // Backpressure - stop batch and wait for ready
          break;
        } else if (dest[kState].state !== 'writable' || writableStreamCloseQueuedOrInFlight(dest)) {
          // Closing or erroring - stop batch and wait for shutdown
          break;
        }
      }

      // Trigger pull if needed after batch
      readableStreamDefaultControllerCallPullIfNeeded(controller);

      // Check if stream closed during batch
      if (source[kState].state === 'closed') {
        return;
      }

      // Park on backpressure directly: the ready hook resumes the pump
      // when a completed write clears it.
      if (dest[kState].backpressure) {
        parkOnReady();
        return;
      }

      // Yield to the microtask queue between batches so completed-write
      // reactions and events/signals fire; a shared resolved promise
      // enqueues the continuation at the same position as queueMicrotask
      // without the per-batch scheduling overhead.
      PromisePrototypeThen(kResolvedPromise, pump);
      return;
    }

    // Slow path: park a lazily materialized read request. Close and
    // error are handled by the source watchers.
    readRequest ??= new StepsReadRequest(
      (chunk) => {
        // Per spec, pipeTo must queue a microtask for the write to avoid
        // synchronous write during enqueue(). See WHATWG Streams spec
        // "ReadableStreamPipeTo" step 15's "chunk steps".
        pendingChunk = chunk;
        // Until its write starts, the chunk counts as a pending write:
        // a shutdown meanwhile waits for it as for every chunk read.
        writeTracker.pending++;
        PromisePrototypeThen(kResolvedPromise, forwardChunk);
      },
      nonOpCallback,
      nonOpCallback);
    readableStreamDefaultReaderRead(reader, readRequest);
  }

  if (signal !== undefined) {
    if (signal.aborted) {
      abortAlgorithm();
      return promise.promise;
    }
    addAbortListener ??= require('internal/events/abort_listener').addAbortListener;
    disposable = addAbortListener!(signal, abortAlgorithm);
  }

  pump();

  function onSourceErrored(error: unknown): void {
    if (!preventAbort) {
      return shutdownWithAnAction(
        () => writableStreamAbort(dest, error),
        true,
        error);
    }
    shutdown(true, error);
  }

  function onSourceClosed(): void {
    if (!preventClose) {
      return shutdownWithAnAction(
        () => writableStreamDefaultWriterCloseWithErrorPropagation(writer));
    }
    shutdown();
  }

  function onDestErrored(error: unknown): void {
    if (!preventCancel) {
      return shutdownWithAnAction(
        () => readableStreamCancel(source, error),
        true,
        error);
    }
    shutdown(true, error);
  }

  // The spec installs the source-errored watcher before the dest-errored
  // one and the source-closed watcher last; a source that is already
  // errored is handled before the dest watcher is installed, and an
  // already-closed source after it, as before. The pipe holds the only
  // references to its reader and writer, so instead of reacting to their
  // [[closedPromise]] the watchers are installed as the records
  // themselves (see ClosedPromiseHook).
  if (source[kState].state === 'errored') {
    onSourceErrored(source[kState].storedError);
  } else if (source[kState].state !== 'closed') {
    reader[kState].close =
      new ClosedPromiseHook(onSourceClosed, onSourceErrored);
  }

  if (dest[kState].state === 'errored') {
    onDestErrored(dest[kState].storedError);
  } else {
    writer[kState].close = new ClosedPromiseHook(undefined, onDestErrored);
  }

  if (source[kState].state === 'closed')
    onSourceClosed();

  if (writableStreamCloseQueuedOrInFlight(dest) ||
      dest[kState].state === 'closed') {
    const error = new ERR_INVALID_STATE.TypeError(
      'Destination WritableStream is closed');
    if (!preventCancel) {
      shutdownWithAnAction(
        () => readableStreamCancel(source, error), true, error);
    } else {
      shutdown(true, error);
    }
  }

  return promise.promise;
}

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

  // The spec's cancelPromise is materialized by the first branch cancel;
  // until then its settlement is tracked by `cancelSettled`, so a tee
  // whose branches are never canceled allocates no promise record for it.
  let cancelPromise: PromiseWithResolvers<void> | undefined;
  let cancelSettled = false;

  function settleCancelPromise(): void {
    if (cancelPromise !== undefined)
      cancelPromise.resolve();
    else
      cancelSettled = true;
  }

  function cancelPromiseRecord(): PromiseWithResolvers<void> {
    if (cancelPromise === undefined) {
      cancelPromise = PromiseWithResolvers<void>();
      if (cancelSettled)
        cancelPromise.resolve();
    }
    return cancelPromise;
  }

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
            settleCancelPromise();
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
    const record = cancelPromiseRecord();
    if (canceled2) {
      const compositeReason = [reason1, reason2];
      record.resolve(readableStreamCancel(stream, compositeReason));
    }
    return record.promise;
  }

  function cancel2Algorithm(reason: unknown): Promise<void> {
    canceled2 = true;
    reason2 = reason;
    const record = cancelPromiseRecord();
    if (canceled1) {
      const compositeReason = [reason1, reason2];
      record.resolve(readableStreamCancel(stream, compositeReason));
    }
    return record.promise;
  }

  branch1 =
    createReadableStream(nonOpCallback, pullAlgorithm, cancel1Algorithm) as DefaultBranch;
  branch2 =
    createReadableStream(nonOpCallback, pullAlgorithm, cancel2Algorithm) as DefaultBranch;

  // The tee holds the only reference to the reader, so the error watcher
  // is installed as its [[closedPromise]] record (see ClosedPromiseHook).
  watchReaderErrored(reader, (error) => {
    readableStreamDefaultControllerError(branch1[kState].controller, error);
    readableStreamDefaultControllerError(branch2[kState].controller, error);
    if (!canceled1 || !canceled2)
      settleCancelPromise();
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

  // See readableStreamDefaultTee.
  let cancelDeferred: PromiseWithResolvers<void> | undefined;
  let cancelSettled = false;

  function settleCancelDeferred(): void {
    if (cancelDeferred !== undefined)
      cancelDeferred.resolve();
    else
      cancelSettled = true;
  }

  function cancelDeferredRecord(): PromiseWithResolvers<void> {
    if (cancelDeferred === undefined) {
      cancelDeferred = PromiseWithResolvers<void>();
      if (cancelSettled)
        cancelDeferred.resolve();
    }
    return cancelDeferred;
  }

  // The tee holds the only reference to each reader it creates, so the
  // error watcher is installed as the reader's [[closedPromise]] record
  // (see ClosedPromiseHook); releasing a reader rejects it like the
  // promise, and the guard below ignores a reader that was swapped out.
  function forwardReaderError(thisReader: ReadableStreamReader): void {
    watchReaderErrored(thisReader, (error) => {
      if (thisReader !== reader) {
        return;
      }
      readableStreamDefaultControllerError(branch1[kState].controller as never, error);
      readableStreamDefaultControllerError(branch2[kState].controller as never, error);
      if (!canceled1 || !canceled2) {
        settleCancelDeferred();
      }
    });
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
        cancelDeferredRecord().resolve(readableStreamCancel(stream, error));
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
          settleCancelDeferred();
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
              cancelDeferredRecord().resolve(readableStreamCancel(stream, error));
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
          settleCancelDeferred();
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
    const record = cancelDeferredRecord();
    if (canceled2) {
      record.resolve(readableStreamCancel(stream, [reason1, reason2]));
    }
    return record.promise;
  }

  function cancel2Algorithm(reason: unknown): Promise<void> {
    canceled2 = true;
    reason2 = reason;
    const record = cancelDeferredRecord();
    if (canceled1) {
      record.resolve(readableStreamCancel(stream, [reason1, reason2]));
    }
    return record.promise;
  }

  branch1 =
    createReadableByteStream(nonOpCallback, pull1Algorithm, cancel1Algorithm) as ByteBranch;
  branch2 =
    createReadableByteStream(nonOpCallback, pull2Algorithm, cancel2Algorithm) as ByteBranch;

  forwardReaderError(reader);

  return [branch1, branch2];
}
