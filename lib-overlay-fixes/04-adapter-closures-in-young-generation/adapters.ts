import {
  handleKnownInternalErrors,
  kErrorSentinelAttached,
  noop,
} from 'internal/webstreams/adapters';
import { ReadableStream } from 'internal/webstreams/readablestream';
import {
  ByteLengthQueuingStrategy,
  CountQueuingStrategy,
} from 'internal/webstreams/queuingstrategies';
import { destroy, type NodeReadable } from 'stream';
import { isReadable } from 'internal/streams/utils';
import { Buffer } from 'buffer';
import { ERR_INVALID_ARG_TYPE } from 'internal/errors';
import { kEmptyObject } from 'internal/util';
import { validateObject, validateOneOf } from 'internal/validators';
import { eos, kEosNodeSynchronousCallback } from 'internal/streams/end-of-stream';

const {
  Uint8Array,
} = primordials;

type ReadableAdapterController = {
  enqueue(chunk: unknown): void;
  close(): void;
  error(error: unknown): void;
  readonly desiredSize: number | null;
  readonly byobRequest?: { respond(bytesWritten: number): void } | null;
};

function newReadableStreamFromStreamReadable(streamReadable: NodeReadable, options: { type?: unknown; strategy?: object } = kEmptyObject) {
  // Not using the internal/streams/utils isReadableNodeStream utility
  // here because it will return false if streamReadable is a Duplex
  // whose readable option is false. For a Duplex that is not readable,
  // we want it to pass this check but return a closed ReadableStream.
  if (typeof streamReadable?._readableState !== 'object') {
    throw new ERR_INVALID_ARG_TYPE(
      'streamReadable',
      'stream.Readable',
      streamReadable);
  }
  validateObject(options, 'options');
  if (options.type !== undefined) {
    validateOneOf(options.type, 'options.type', ['bytes', undefined]);
  }

  const isBYOB = options.type === 'bytes';
  let controller: ReadableAdapterController;
  let wasCanceled = false;
  let strategy;

  /** @type {UnderlyingSource} */
  const underlyingSource: { [key: string]: unknown } = {
    __proto__: null,
    type: isBYOB ? 'bytes' : undefined,
    start(c: ReadableAdapterController) { controller = c; },
    cancel(reason: unknown) {
      wasCanceled = true;
      destroy(streamReadable, reason);
    },
  };

  const readable = isReadable(streamReadable);
  const objectMode = streamReadable.readableObjectMode;
  if (readable) {
    // Declared before it is set: V8 allocates a function literal assigned
    // straight to a property in the old generation, where, once dead, it
    // would keep the stream alive until the next full garbage collection.
    function pull() {
      streamReadable.resume();
    }
    underlyingSource.pull = pull;

    const highWaterMark = streamReadable.readableHighWaterMark;
    strategy = isBYOB ? { highWaterMark } :
      options.strategy ?? new (objectMode ? CountQueuingStrategy : ByteLengthQueuingStrategy)({ highWaterMark });
  }
  const readableStream = new ReadableStream(underlyingSource, strategy);

  // When adapting a Duplex as a ReadableStream, readable completion should not
  // wait for a half-open writable side to finish as well.
  let cleanup: () => void = noop;
  cleanup = eos(streamReadable, {
    __proto__: null,
    writable: false,
    [kEosNodeSynchronousCallback]: true,
  }, (error?: unknown) => {
    error = handleKnownInternalErrors(error);

    // If eos calls the callback synchronously, cleanup is still a no-op here.
    cleanup();

    if (!(kErrorSentinelAttached in streamReadable)) {
      // This is a protection against non-standard, legacy streams
      // that happen to emit an error event again after finished is called.
      streamReadable.on('error', noop);
      streamReadable[kErrorSentinelAttached] = true;
    }
    if (wasCanceled) {
      return;
    }
    wasCanceled = true;
    if (error)
      return controller.error(error);
    controller.close();
    if (isBYOB)
      controller.byobRequest?.respond(0);
  });

  if (wasCanceled) {
    // `eos` called the callback synchronously
    cleanup();
  } else if (readable) {
    streamReadable.pause();

    streamReadable.on('data', function onData(chunk: unknown) {
      if (wasCanceled) return;
      // Copy the Buffer to detach it from the pool.
      if (Buffer.isBuffer(chunk) && !objectMode)
        chunk = new Uint8Array(chunk);
      controller.enqueue(chunk);
      if (controller.desiredSize! <= 0)
        streamReadable.pause();
    });
  }

  return readableStream;
}
