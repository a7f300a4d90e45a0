import {
  dequeueValue,
  enterPipeStep,
  exitPipeStep,
  kNoChunk,
  kPendingPromise,
  kResolvedPromise,
  kState,
  nonOpCallback,
  queuePipeStep,
  runPendingPipeSteps,
  runPipeStep,
  type PromiseRecord,
} from 'internal/webstreams/util';
import {
  ClosedPromiseHook,
  pipeWrite,
  scheduleForward,
  ReadableStreamDefaultReader,
  StepsReadRequest,
  isReadableStreamDefaultController,
  passThroughWrite,
  readableStreamCancel,
  readableStreamClose,
  readableStreamDefaultControllerCallPullIfNeeded,
  readableStreamDefaultControllerClearAlgorithms,
  readableStreamAddReadRequest,
  readableStreamDefaultReaderRead,
  readableStreamReaderGenericRelease,
  type AbortSignalLike,
  type PipeWriteTracker,
  type ReadableStream,
  type ReadableStreamDefaultController,
  type ReadableStreamDefaultControllerState,
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
import type { TransformStream, TransformStreamFeeder, TransformStreamFuseHooks } from 'internal/webstreams/transformstream';
import { validateAbortSignal } from 'internal/validators';
import { AbortError, ERR_INVALID_STATE } from 'internal/errors';

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

declare let transformStreamFuseReady: (stream: TransformStream) => boolean;
declare let transformStreamPassTransform: (stream: TransformStream, chunk: unknown, request: PipeWriteTracker,
  hooks: TransformStreamFuseHooks, forwards: boolean) => unknown;
declare let transformStreamPassMaterialize: () => void;
declare let transformStreamFusedWrite: (
  stream: TransformStream, chunk: unknown, request: PipeWriteTracker, hooks: TransformStreamFuseHooks) => unknown;
declare let pipeWriteDepth: number;
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

  // The TransformStream whose writable side dest is, if it is one.
  const destination = dest[kState].controller![kState].owner;

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
    if (feeder !== undefined && destination![kState].feeder === feeder)
      destination![kState].feeder = undefined;
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
    // A chain's loop may be inside a transform() (see fusedHop).
    if (chain !== undefined)
      transformStreamPassMaterialize();
    if (shuttingDown) return;
    shuttingDown = true;
    if (dest[kState].state === 'writable' &&
        !writableStreamCloseQueuedOrInFlight(dest)) {
      chain?.writeHeldChunk();
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
    if (chain !== undefined)
      transformStreamPassMaterialize();
    if (shuttingDown) return;
    shuttingDown = true;
    if (dest[kState].state === 'writable' &&
        !writableStreamCloseQueuedOrInFlight(dest)) {
      chain?.writeHeldChunk();
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
      resolve: resumesAsStep ? chain!.pumpStep : pump,
      // Ready promise rejection is handled by the destination-errored
      // watcher.
      reject: nonOpCallback,
    };
    writer[kState].ready = readyHook;
  }

  // A read's chunk steps (a fused hop's too). Per spec, pipeTo must queue
  // a microtask for the write to avoid synchronous write during enqueue().
  // See WHATWG Streams spec "ReadableStreamPipeTo" step 15's "chunk steps".
  // Until then the chunk counts as a pending write: a shutdown meanwhile
  // waits for its write as for every other chunk read.
  function chunkRead(chunk: unknown): void {
    writeTracker.pending++;
    forwardLater(chunk);
  }

  function forwardLater(chunk: unknown): void {
    pendingChunk = chunk;
    scheduleForward(forwardChunk);
  }

  function forwardChunk(): void {
    const chunk = pendingChunk;
    pendingChunk = undefined;
    // A read that completed just before the destination errored: the pipe
    // has released its writer, and the spec drops such a chunk.
    if (writer[kState].stream === undefined) return;
    // Writes into anything but a TransformStream's writable side stay a
    // direct call: through pipeWrite() they cost plain pipes a few percent.
    // The same two-way write is spelled out in accept() and pump() too: one
    // local helper for all three measured -4% to -7% on the pipe rows.
    if (destination === undefined)
      writableStreamDefaultWriterWriteWithRequest(writer, chunk, writeTracker);
    else if (!mayHold || !chain!.holdChunk(chunk))
      pipeWrite(writer, destination, chunk, writeTracker);
    // The chunk no longer counts as read but unwritten: its write is under
    // way, or done (past a pass-through), or it is held.
    writeTracker.resolve();
    pump();
  }

  // A pipe into a TransformStream whose transform() has been synchronous
  // holds the chunk that the writable side would have queued while the
  // TransformStream wants none (its backpressure is on), and writes it once
  // it does (its readable side was read): straight into transform(), see
  // pipeWrite. The pipe reads as far ahead as before, every chunk skips
  // the writable side's queue and completion turns, and a chain of such
  // TransformStreams moves one chunk per hop in one pass when its end is
  // read. Only for the default writable high water mark of 1, so that the
  // one held chunk stands for the whole queue.
  let heldChunk: unknown;
  let holding = false;
  // The TransformStream whose readable side the source is, if it is one.
  const sourceOwner = (source[kState].controller![kState] as ReadableStreamDefaultControllerState).owner;
  const inChain = destination !== undefined || sourceOwner !== undefined;
  const writesIntoTransform = destination !== undefined && !destination[kState].passThrough;
  const readsFromTransform = sourceOwner !== undefined && !sourceOwner[kState].passThrough;
  // A pipe that writes into or reads from a TransformStream that runs
  // transform() resumes as a pipe step, so that the steps it triggers in
  // the chain run after it (see runPipeStep). A plain pipe resumes
  // directly, and so does one between pass-through TransformStreams: they
  // run no algorithm of their own, and a write such a pipe hands on into a
  // synchronous transform opens its own step (see pipeWrite).
  const resumesAsStep = writesIntoTransform || readsFromTransform;
  const mayHold = writesIntoTransform && dest[kState].controller![kState].highWaterMark === 1;
  // The steps only a pipe next to a TransformStream takes: holding a chunk
  // for the one it writes into, reading the one whose readable side is its
  // source. Declared in pipeChainSteps() so that a plain pipe does not
  // carry them: each is a closure every pipe would create.
  const chain = inChain ? pipeChainSteps() : undefined;

  // What fusedHop() in the pipe reading the destination's readable side
  // needs of this one.
  const feeder: TransformStreamFeeder | undefined = mayHold ? {
    take() {
      const chunk = heldChunk;
      heldChunk = undefined;
      holding = false;
      destination![kState].demandHook = undefined;
      return chunk;
    },
    resume: resumeAfterWrite,
    tracker: writeTracker,
    upstream: chain!.upstream,
    hop: chain!.passHop,
    clean: true,
    sourceOwner,
  } : undefined;

  function pipeChainSteps() {
    // A chunk whose read completed after the pipe began shutting down is
    // written as it comes (see writeHeldChunk).
    function wouldHold(): boolean {
      const state = destination![kState];
      return !shuttingDown && state.backpressure === true && state.syncTransform;
    }

    // Only where mayHold: its callers check, so that a pipe into a
    // pass-through TransformStream does not make the call per chunk.
    function holdChunk(chunk: unknown): boolean {
      if (!wouldHold())
        return false;
      hold(chunk);
      return true;
    }

    // Shutting down: the held chunk was read, so it is written before the
    // pipe closes, aborts or releases the destination, as the queued chunk
    // would have been.
    function writeHeldChunk(): void {
      if (!holding) return;
      const chunk = heldChunk;
      heldChunk = undefined;
      holding = false;
      destination![kState].demandHook = undefined;
      writableStreamDefaultWriterWriteWithRequest(writer, chunk, writeTracker);
    }

    // The pump, resumed by a hook: the pipe steps it triggers run after it.
    function pumpStep(): void {
      runPipeStep(pump);
    }

    // A chunk the pipe feeding this pipe's source hands over past an idle
    // pass-through TransformStream (see pipeWrite), taken as if it had just
    // been read from the source. Refused when this pipe would not read now.
    function accept(chunk: unknown): boolean {
      if (shuttingDown || dest[kState].backpressure ||
          dest[kState].state !== 'writable' ||
          writableStreamCloseQueuedOrInFlight(dest))
        return false;
      if (destination === undefined) {
        writableStreamDefaultWriterWriteWithRequest(writer, chunk, writeTracker);
      } else {
        // A chunk this pipe would hold goes through its pending read instead,
        // which stays pending otherwise (see holdChunk).
        if (mayHold && wouldHold())
          return false;
        pipeWrite(writer, destination, chunk, writeTracker);
      }
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

    // A hop of an idle chain in one call: where demandDirectly() would park
    // this pipe's read, clear the TransformStream's backpressure and resume
    // the pipe holding a chunk for it, this pipe takes that chunk and runs
    // transform() itself; the first chunk transform() enqueues comes back
    // here to be held for the next TransformStream, or is forwarded to the
    // sink at once, as the parked read would have done with it. The write,
    // the read, the backpressure flips and the holding pipe's step are left
    // out; the TransformStream brings them back the moment transform() does
    // anything else with a controller or a pipe shuts down (see
    // transformStreamPassTransform). Then the holding pipe goes on as after
    // its write: where it would run the hop upstream of it at once, that
    // hop runs in this loop, and so on to the first pipe that would do
    // anything else, which resumes. So the chain's hops run from the last
    // to the first, as before. Only where demandable(), with the writable
    // side idle and transform() synchronous so far. Where the loop would
    // not reach a second hop, or the hop once left it (a transform() that
    // filters, splits or errors), the hop is a fused write instead: one
    // hop of the loop alone costs more than it saves.
    let fuseHooks: TransformStreamFuseHooks | undefined;
    function fusedHop(transformStream: TransformStream): boolean {
      const first = transformStream[kState].feeder;
      if (first === undefined || !transformStreamFuseReady(transformStream))
        return false;
      if (first.clean && first.sourceOwner?.[kState].feeder?.clean === true)
        return hopLoop(transformStream, first);
      return fusedWrite(transformStream, first);
    }

    // The loop of fusedHop(), from `transformStream`'s hop upstream.
    function hopLoop(transformStream: TransformStream, first: TransformStreamFeeder): boolean {
      let feeder = first;
      // The pipe steps and write depth the holding pipes' resumptions and
      // writes would have run transform() in.
      enterPipeStep();
      try {
        pipeWriteDepth++;
        try {
          let passed = passHop(transformStream, feeder);
          let upstream: TransformStream | undefined;
          while (passed && (upstream = feeder.upstream()) !== undefined) {
            const next: TransformStreamFeeder = upstream[kState].feeder!;
            passed = feeder.hop(upstream, next);
            feeder = next;
          }
        } finally {
          pipeWriteDepth--;
        }
        feeder.resume();
      } finally {
        exitPipeStep();
      }
      runPendingPipeSteps();
      return true;
    }

    // fusedHop() outside the loop (a chain of one, or a TransformStream
    // whose hop once left the loop): the chunk `feeder` holds written into
    // transform() with the fuse hooks set, the chunk it enqueues held or
    // forwarded as the parked read would have.
    function fusedWrite(transformStream: TransformStream, feeder: TransformStreamFeeder): boolean {
      const hooks = fuseHooks ??= pipeFuseHooks();
      const chunk = feeder.take();
      enterPipeStep();
      try {
        pipeWriteDepth++;
        enterPipeStep();
        try {
          const out = transformStreamFusedWrite(transformStream, chunk, feeder.tracker, hooks);
          if (out !== kNoChunk) {
            if (hooks.holds()) {
              writeTracker.resolve();
              hold(out);
            } else {
              forwardLater(out);
            }
          }
        } finally {
          pipeWriteDepth--;
          exitPipeStep();
        }
        feeder.resume();
      } finally {
        exitPipeStep();
      }
      runPendingPipeSteps();
      return true;
    }

    // What the TransformStream calls on this pipe to bring a hop up to date.
    function pipeFuseHooks(): TransformStreamFuseHooks {
      return {
        holds: () => mayHold && wouldHold(),
        materialize() {
          // A read parked on a readable side that has closed or errored
          // since would have been settled with no effect.
          if (source[kState].state === 'readable')
            readableStreamAddReadRequest(source, readRequest!);
          sourceOwner![kState].backpressure = false;
        },
        received() {
          writeTracker.pending++;
        },
        forward: forwardLater,
        passEnded: false,
      };
    }

    // A chunk transform() enqueued in a hop brought up to date: transform()
    // may have shut this pipe down or changed the next TransformStream
    // since its enqueue(), so the chunk goes on as the read would have
    // passed it.
    function takeHopOutput(out: unknown): void {
      if (fuseHooks!.holds()) {
        writeTracker.resolve();
        hold(out);
      } else {
        forwardLater(out);
      }
    }

    // The hop fusedHop() runs for this pipe: the chunk `feeder` holds
    // through transformStream's transform(), what it enqueues held for the
    // next TransformStream or forwarded. True when transform() did nothing
    // else, so that the loop may go on upstream.
    function passHop(transformStream: TransformStream, feeder: TransformStreamFeeder): boolean {
      const hooks = fuseHooks ??= pipeFuseHooks();
      const forwards = !mayHold || !wouldHold();
      const out = transformStreamPassTransform(transformStream, feeder.take(), feeder.tracker, hooks, forwards);
      if (!hooks.passEnded) {
        if (!forwards)
          hold(out);
        return true;
      }
      feeder.clean = false;
      if (out !== kNoChunk)
        takeHopOutput(out);
      return false;
    }

    function hold(chunk: unknown): void {
      heldChunk = chunk;
      holding = true;
      destination![kState].demandHook = pumpStep;
    }

    // The TransformStream whose hop this pipe would run at once if it
    // resumed now (see resumeAfterWrite, pumpSource and fusedHop), if any.
    function upstream(): TransformStream | undefined {
      if (shuttingDown || dest[kState].backpressure || !readsFromTransform)
        return undefined;
      const controller = source[kState].controller as ReadableStreamDefaultController;
      if (source[kState].state === 'readable' && controller[kState].queue.length > 0)
        return undefined;
      readRequest ??= new StepsReadRequest(
        chunkRead,
        nonOpCallback,
        nonOpCallback);
      if (!demandable(sourceOwner!) || sourceOwner![kState].feeder?.clean !== true ||
          !transformStreamFuseReady(sourceOwner!))
        return undefined;
      return sourceOwner;
    }

    // Reading a TransformStream's empty readable side parks the read and
    // pulls, and the pull only clears the TransformStream's backpressure,
    // which resumes the pipe holding a chunk for it (see holdChunk). Where
    // such a pipe waits, this pipe parks its read and resumes that pipe
    // itself, within this step: the same read request, the same
    // backpressure, the held chunk written into transform() a few steps
    // sooner. Only where demandable().
    function demandDirectly(transformStream: TransformStream): void {
      const state = transformStream[kState];
      const resume = state.demandHook!;
      readableStreamAddReadRequest(source, readRequest!);
      state.backpressure = false;
      state.demandHook = undefined;
      resume();
    }

    // A pipe holds a chunk for the TransformStream whose readable side is
    // this pipe's source, and both sides are as a pull of the readable side
    // would find them (started, not pulling, nothing queued or waiting, the
    // readable side's high water mark of 0, at which the pull's end changes
    // nothing): then demandDirectly() or fusedHop() may stand in for it.
    function demandable(transformStream: TransformStream): boolean {
      const state = transformStream[kState];
      if (state.demandHook === undefined || !state.backpressure || state.pullPending || state.pendingWriteParked)
        return false;
      const controllerState = source[kState].controller![kState] as ReadableStreamDefaultControllerState;
      return source[kState].state === 'readable' && controllerState.started && !controllerState.pulling &&
        !controllerState.closeRequested && controllerState.highWaterMark === 0 &&
        controllerState.queue.length === 0 && reader[kState].readRequests.length === 0;
    }

    return { holdChunk, writeHeldChunk, pumpStep, accept, fusedHop, passHop, upstream, demandDirectly, demandable };
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

    if (holding) {
      if (destination![kState].backpressure) {
        destination![kState].demandHook = chain!.pumpStep;
        return;
      }
      const chunk = heldChunk;
      heldChunk = undefined;
      holding = false;
      pipeWrite(writer, destination!, chunk, writeTracker);
      resumeAfterWrite();
      return;
    }
    pumpSource();
  }

  // The pump after a write into the destination: on to the next read
  // unless the write filled the destination.
  function resumeAfterWrite(): void {
    if (shuttingDown) return;
    if (dest[kState].backpressure) {
      parkOnReady();
      return;
    }
    pumpSource();
  }

  function pumpSource(): void {
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
        else if (mayHold && chain!.holdChunk(chunk))
          break;
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

      if (holding)
        return;

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
      chunkRead,
      nonOpCallback,
      nonOpCallback);
    if (sourceOwner !== undefined && chain!.demandable(sourceOwner)) {
      // Only a TransformStream with a transformer is written to by a
      // holding pipe (see mayHold).
      if (!readsFromTransform || !chain!.fusedHop(sourceOwner))
        chain!.demandDirectly(sourceOwner);
      return;
    }
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

  // Only a TransformStream's readable side hands chunks to its pipe.
  if (sourceOwner !== undefined)
    reader[kState].pipe = chain!.accept;
  if (feeder !== undefined)
    destination![kState].feeder = feeder;
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
