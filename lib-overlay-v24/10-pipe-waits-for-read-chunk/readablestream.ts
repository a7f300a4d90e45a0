import {
  cloneAsUint8Array,
  dequeueValue,
  kResolvedPromise,
  kState,
  nonOpCallback,
  type PromiseRecord,
} from 'internal/webstreams/util';
import {
  StepsReadRequest,
  ReadableStreamBYOBReader,
  ReadableStreamDefaultReader,
  createReadableByteStream,
  createReadableStream,
  isReadableByteStreamController,
  isReadableStream,
  isReadableStreamBYOBReader,
  isReadableStreamDefaultController,
  isReadableStreamDefaultReader,
  kChunk,
  kClose,
  kError,
  readableByteStreamControllerClose,
  readableByteStreamControllerEnqueue,
  readableByteStreamControllerError,
  readableByteStreamControllerRespond,
  readableByteStreamControllerRespondWithNewView,
  readableStreamBYOBReaderRead,
  readableStreamBYOBReaderRelease,
  readableStreamCancel,
  readableStreamClose,
  readableStreamDefaultControllerCallPullIfNeeded,
  readableStreamDefaultControllerClearAlgorithms,
  readableStreamDefaultControllerClose,
  readableStreamDefaultControllerEnqueue,
  readableStreamDefaultControllerError,
  readableStreamDefaultReaderRead,
  readableStreamDefaultReaderRelease,
  readableStreamReaderGenericRelease,
  readerClosedPromise,
  type AbortSignalLike,
  type PipeWriteTracker,
  type ReadRequest,
  type ReadableByteStreamController,
  type ReadableStream,
  type ReadableStreamDefaultController,
  type ReadableStreamReader,
  type ReadableStreamState,
} from 'internal/webstreams/readablestream';
import {
  WritableStreamDefaultWriter,
  writableStreamAbort,
  writableStreamCloseQueuedOrInFlight,
  writableStreamDefaultWriterCloseWithErrorPropagation,
  writableStreamDefaultWriterRelease,
  writableStreamDefaultWriterWriteWithRequest,
  writerClosedPromise,
  type WritableStream,
} from 'internal/webstreams/writablestream';
import { validateAbortSignal } from 'internal/validators';
import { structuredClone } from 'internal/worker/js_transferable';
import { queueMicrotask } from 'internal/process/task_queues';
import assert from 'internal/assert';
import { AbortError, ERR_INVALID_STATE } from 'internal/errors';

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

  function watchErrored(stream: ReadableStream | WritableStream, promise: Promise<void>, action: (error: unknown) => void): void {
    if (stream[kState].state === 'errored')
      action(stream[kState].storedError);
    else
      PromisePrototypeThen(promise, undefined, action);
  }

  function watchClosed(stream: ReadableStream, promise: Promise<void>, action: () => void): void {
    if (stream[kState].state === 'closed')
      action();
    else
      PromisePrototypeThen(promise, action, () => {});
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
  // isPromisePending() and call `reject`, so it carries a real
  // forever-pending promise and a no-op reject.
  function parkOnReady(): void {
    readyHook ??= {
      promise: new Promise(nonOpCallback),
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

  watchErrored(source, readerClosedPromise(reader).promise, (error) => {
    if (!preventAbort) {
      return shutdownWithAnAction(
        () => writableStreamAbort(dest, error),
        true,
        error);
    }
    shutdown(true, error);
  });

  watchErrored(dest, writerClosedPromise(writer).promise, (error) => {
    if (!preventCancel) {
      return shutdownWithAnAction(
        () => readableStreamCancel(source, error),
        true,
        error);
    }
    shutdown(true, error);
  });

  watchClosed(source, readerClosedPromise(reader).promise, () => {
    if (!preventClose) {
      return shutdownWithAnAction(
        () => writableStreamDefaultWriterCloseWithErrorPropagation(writer));
    }
    shutdown();
  });

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
