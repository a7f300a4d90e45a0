import {
  kParkedAlgorithmResult,
  kResolvedPromise,
  kState,
  nonOpCallback,
} from 'internal/webstreams/util';
import {
  createReadableStream,
  readableStreamDefaultControllerClose,
  readableStreamDefaultControllerEnqueue,
  readableStreamDefaultControllerError,
  type ReadableStream,
  type ReadableStreamDefaultController,
} from 'internal/webstreams/readablestream';
import { ERR_ARG_NOT_ITERABLE, ERR_INVALID_STATE } from 'internal/errors';

const {
  FunctionPrototypeCall,
  PromisePrototypeThen,
  PromiseReject,
  PromiseResolve,
  SymbolAsyncIterator,
  SymbolIterator,
} = primordials;

function readableStreamFromIterable(iterable: any): ReadableStream {
  let stream!: ReadableStream;
  // GetIterator(iterable, async) wraps a sync iterator in an
  // async-from-sync iterator, which awaits each value before the stream
  // gets it; an async iterator's values are the chunks as they are.
  const asyncIteratorGetter = iterable[SymbolAsyncIterator];
  const awaitsValues = asyncIteratorGetter == null;
  const iteratorGetter = asyncIteratorGetter ?? iterable[SymbolIterator];
  if (iteratorGetter == null || typeof iteratorGetter !== 'function') {
    throw new ERR_ARG_NOT_ITERABLE(iterable);
  }
  const iterator = FunctionPrototypeCall(iteratorGetter, iterable);
  if (iterator === null || (typeof iterator !== 'object' && typeof iterator !== 'function')) {
    throw new ERR_INVALID_STATE.TypeError('The iterator method must return an object');
  }
  // Per GetIteratorDirect, the next method is looked up once.
  const nextMethod = iterator.next;
  const startAlgorithm = nonOpCallback;

  // Callback-style pull: the reaction steps are reused across chunks and
  // completion is delivered to the controller's cached pull reactions
  // (the kParkedAlgorithmResult contract). One pull runs at a time, so a
  // single slot carries a non-thenable next() result between steps.
  let pendingIterResult: unknown;

  function rejectPull(error: unknown): void {
    readableStreamDefaultControllerError(stream[kState].controller as ReadableStreamDefaultController, error);
  }

  function processIterResult(iterResult: any): void {
    const controller = stream[kState].controller as ReadableStreamDefaultController;
    if (typeof iterResult !== 'object' || iterResult === null) {
      rejectPull(new ERR_INVALID_STATE.TypeError(
        'The promise returned by the iterator.next() method must fulfill with an object'));
      return;
    }
    try {
      if (iterResult.done) {
        readableStreamDefaultControllerClose(controller);
      } else {
        const value = iterResult.value;
        if (awaitsValues && value !== null &&
            (typeof value === 'object' || typeof value === 'function')) {
          // Adopted like `await iterResult.value`, keeping the observable
          // .then lookup on plain objects.
          PromisePrototypeThen(PromiseResolve(value), enqueueValue, rejectPull);
          return;
        }
        readableStreamDefaultControllerEnqueue(controller, value);
      }
    } catch (error) {
      rejectPull(error);
      return;
    }
    // pullFulfilled exists: the controller creates it before the pull.
    controller[kState].pullFulfilled!();
  }

  function enqueueValue(value: unknown): void {
    const controller = stream[kState].controller as ReadableStreamDefaultController;
    try {
      readableStreamDefaultControllerEnqueue(controller, value);
    } catch (error) {
      rejectPull(error);
      return;
    }
    controller[kState].pullFulfilled!();
  }

  function processPendingIterResult(): void {
    const iterResult = pendingIterResult;
    pendingIterResult = undefined;
    processIterResult(iterResult);
  }

  function pullAlgorithm(): unknown {
    let nextResult: any;
    try {
      nextResult = FunctionPrototypeCall(nextMethod, iterator);
    } catch (error) {
      return PromiseReject(error);
    }
    if (nextResult !== null &&
        (typeof nextResult === 'object' || typeof nextResult === 'function')) {
      // Mirrors `await iterator.next()`: processIterResult runs at the
      // microtask position the await resumed.
      PromisePrototypeThen(
        PromiseResolve(nextResult), processIterResult, rejectPull);
      return kParkedAlgorithmResult;
    }
    // A non-thenable next() result fails validation a microtask later.
    pendingIterResult = nextResult;
    PromisePrototypeThen(kResolvedPromise, processPendingIterResult);
    return kParkedAlgorithmResult;
  }

  async function cancelAlgorithm(reason: unknown): Promise<void> {
    const returnMethod = iterator.return;
    if (returnMethod === undefined) {
      return;
    }
    const iterResult = await FunctionPrototypeCall(returnMethod, iterator, reason);
    if (typeof iterResult !== 'object' || iterResult === null) {
      throw new ERR_INVALID_STATE.TypeError(
        'The promise returned by the iterator.return() method must fulfill with an object');
    }
  }

  stream = createReadableStream(
    startAlgorithm,
    pullAlgorithm,
    cancelAlgorithm,
    0,
  );

  return stream;
}
