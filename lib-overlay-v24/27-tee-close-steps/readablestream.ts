import {
  kResolvedPromise,
  kState,
  nonOpCallback,
} from 'internal/webstreams/util';
import {
  createReadableStream,
  readableStreamCancel,
  readableStreamDefaultControllerClose,
  readableStreamDefaultControllerEnqueue,
  readableStreamDefaultControllerError,
  ReadableStreamDefaultReader,
  readableStreamDefaultReaderRead,
  StepsReadRequest,
  watchReaderErrored,
  type ReadableStream,
  type ReadableStreamDefaultController,
  type ReadableStreamState,
} from 'internal/webstreams/readablestream';
import {
  structuredClone,
} from 'internal/worker/js_transferable';

const {
  PromisePrototypeThen,
  PromiseWithResolvers,
} = primordials;

type DefaultBranch = ReadableStream & { [kState]: ReadableStreamState & { controller: ReadableStreamDefaultController } };

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
  let readAgain = false;
  function forwardChunk(): void {
    readAgain = false;
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
    // A branch's pull during the enqueues above only sets readAgain: a read
    // of a closed stream would close branch2 before its chunk is enqueued.
    reading = false;
    if (readAgain)
      pullAlgorithm();
  }

  // A non-thenable pull result reaches the controller's pull-fulfilled
  // step at the same microtask position as an async function's promise,
  // without the promise per pull.
  function pullAlgorithm(): void {
    if (reading) {
      readAgain = true;
      return;
    }
    reading = true;
    readRequest ??= new StepsReadRequest(
      (value) => {
        // The microtask is required by the spec (ReadableStreamTee's
        // "chunk steps" queue one).
        pendingChunk = value;
        PromisePrototypeThen(kResolvedPromise, forwardChunk);
      },
      () => {
        reading = false;
        if (!canceled1)
          readableStreamDefaultControllerClose(branch1[kState].controller);
        if (!canceled2)
          readableStreamDefaultControllerClose(branch2[kState].controller);
        if (!canceled1 || !canceled2)
          settleCancelPromise();
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
  watchReaderErrored(reader, (error: unknown) => {
    readableStreamDefaultControllerError(branch1[kState].controller, error);
    readableStreamDefaultControllerError(branch2[kState].controller, error);
    if (!canceled1 || !canceled2)
      settleCancelPromise();
  });

  return [branch1, branch2];
}
