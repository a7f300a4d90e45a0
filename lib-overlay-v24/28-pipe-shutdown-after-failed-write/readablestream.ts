import {
  dequeueValue,
  kPendingPromise,
  kResolvedPromise,
  kState,
  nonOpCallback,
  type PromiseRecord,
} from 'internal/webstreams/util';
import {
  ClosedPromiseHook,
  StepsReadRequest,
  isReadableStream,
  isReadableStreamDefaultController,
  readableStreamCancel,
  readableStreamClose,
  readableStreamDefaultControllerCallPullIfNeeded,
  readableStreamDefaultControllerClearAlgorithms,
  readableStreamDefaultReaderRead,
  readableStreamReaderGenericRelease,
  setupReadableStreamDefaultReader,
  type AbortSignalLike,
  type PipeWriteTracker,
  type ReadableStream,
  type ReadableStreamDefaultController,
  ReadableStreamDefaultReader,
  pipeWrite,
  scheduleForward,
} from 'internal/webstreams/readablestream';
import {
  WritableStreamDefaultWriter,
  writableStreamAbort,
  writableStreamCloseQueuedOrInFlight,
  writableStreamDefaultWriterCloseWithErrorPropagation,
  writableStreamDefaultWriterRelease,
  writableStreamDefaultWriterWriteWithRequest,
  type WritableStream,
} from 'internal/webstreams/writablestream';
import type { TransformStream } from 'internal/webstreams/transformstream';
import { validateAbortSignal } from 'internal/validators';
import { AbortError, ERR_INVALID_ARG_TYPE, ERR_INVALID_STATE } from 'internal/errors';

const {
  ArrayPrototypePush,
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

  // The pass-through TransformStream whose writable side dest is, if it
  // is one. A pipe into any other stream writes directly: through
  // pipeWrite(), pipes into a transform() measured 3-4% slower.
  const owner = dest[kState].controller![kState].owner;
  const destination = owner?.[kState].passThrough ? owner : undefined;

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
  // write. `stall` is armed by waitForPendingWrites() during shutdown and
  // settles once every pending write has, whether it succeeded or not.
  const writeTracker: PipeWriteTracker = {
    // Non-undefined: queue entries are discriminated from kNilRequest
    // by `promise === undefined`.
    promise: null,
    pending: 0,
    stall: null,
    resolve() {
      if (--this.pending === 0 && this.stall !== null) {
        const stall = this.stall;
        this.stall = null;
        stall.resolve();
      }
    },
    reject() {
      this.resolve();
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
    if (writeTracker.pending === 0)
      return PromiseResolve();
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
        complete);
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
        () => finalize(rejected, error));
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

    const actions: (() => Promise<unknown>)[] = [];
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
    // Writes into anything but a pass-through TransformStream's writable
    // side stay a direct call: through pipeWrite() they cost plain pipes a
    // few percent.
    // The same two-way write is spelled out in accept() and pump() too: one
    // local helper for all three measured -4% to -7% on the pipe rows.
    if (destination === undefined)
      writableStreamDefaultWriterWriteWithRequest(writer, chunk, writeTracker);
    else
      pipeWrite(writer, destination, chunk, writeTracker);
    // The write counts the chunk now.
    writeTracker.resolve();
    pump();
  }

  // A chunk the pipe feeding this pipe's source hands over past an idle
  // pass-through TransformStream (see pipeWrite), taken as if it had just
  // been read from the source. Refused when this pipe would not read now.
  function accept(chunk: unknown): boolean {
    if (shuttingDown || dest[kState].backpressure ||
        dest[kState].state !== 'writable' ||
        writableStreamCloseQueuedOrInFlight(dest))
      return false;
    if (destination === undefined)
      writableStreamDefaultWriterWriteWithRequest(writer, chunk, writeTracker);
    else
      pipeWrite(writer, destination, chunk, writeTracker);
    // The chunk took the place of this pipe's pending read. Where that
    // write filled the destination, the pipe would not read again: the
    // read is withdrawn, and the pipe waits for the destination as after
    // any other write, instead of taking one chunk more than it may.
    if ((dest[kState].backpressure || dest[kState].state !== 'writable') &&
        reader[kState].readRequests.length === 1) {
      reader[kState].readRequests.shift();
      if (dest[kState].state === 'writable')
        parkOnReady();
    }
    return true;
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

    const controller = source[kState].controller as ReadableStreamDefaultController;

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
        if (destination === undefined)
          writableStreamDefaultWriterWriteWithRequest(writer, chunk, writeTracker);
        else
          pipeWrite(writer, destination, chunk, writeTracker);

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
      (chunk: unknown) => {
        // Per spec, pipeTo must queue a microtask for the write to avoid
        // synchronous write during enqueue(). See WHATWG Streams spec
        // "ReadableStreamPipeTo" step 15's "chunk steps".
        pendingChunk = chunk;
        // Until its write starts, the chunk counts as a pending write:
        // a shutdown meanwhile waits for it as for every chunk read.
        writeTracker.pending++;
        scheduleForward(forwardChunk);
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

  reader[kState].pipe = accept;
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
