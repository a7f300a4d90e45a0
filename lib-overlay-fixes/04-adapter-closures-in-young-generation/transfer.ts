import { kState } from 'internal/webstreams/util';
import {
  readableStreamDefaultControllerClose,
  readableStreamDefaultControllerEnqueue,
  readableStreamDefaultControllerError,
  type ReadableStreamDefaultController,
} from 'internal/webstreams/readablestream';
import {
  writableStreamDefaultControllerErrorIfNeeded,
  type WritableStreamDefaultController,
} from 'internal/webstreams/writablestream';
import assert from 'internal/assert';

const {
  PromiseWithResolvers,
} = primordials;

const {
  DOMException,
} = internalBinding('messaging');

interface CrossRealmPort {
  onmessage: ((event: { data: any }) => void) | null;
  onmessageerror: (() => void) | null;
  postMessage(message: unknown): void;
  close(): void;
  ref(): void;
  unref(): void;
}

class CrossRealmTransformReadableSource {
  declare [kState]: {
    port: CrossRealmPort;
    controller: ReadableStreamDefaultController | undefined;
    unref: boolean;
  };

  constructor(port: CrossRealmPort, unref: boolean) {
    this[kState] = {
      port,
      controller: undefined,
      unref,
    };

    // The handlers are bound to constants before they are set: V8
    // allocates a function literal assigned straight to a property in the
    // old generation, where, once dead, it would keep the stream alive
    // until the next full garbage collection.
    const onmessage = ({ data }: { data: any }) => {
      const {
        controller,
      } = this[kState];
      const {
        type,
        value,
      } = data;
      switch (type) {
        case 'chunk':
          readableStreamDefaultControllerEnqueue(
            controller!,
            value);
          break;
        case 'close':
          readableStreamDefaultControllerClose(controller!);
          port.close();
          break;
        case 'error':
          readableStreamDefaultControllerError(controller!, value);
          port.close();
          break;
      }
    };

    const onmessageerror = () => {
      const error = new DOMException(
        'Internal transferred ReadableStream error',
        'DataCloneError');
      port.postMessage({ type: 'error', value: error });
      readableStreamDefaultControllerError(
        this[kState].controller!,
        error);
      port.close();
    };

    port.onmessage = onmessage;
    port.onmessageerror = onmessageerror;
    port.unref();
  }
}

class CrossRealmTransformWritableSink {
  declare [kState]: {
    port: CrossRealmPort;
    controller: WritableStreamDefaultController | undefined;
    backpressurePromise: { promise: Promise<void>; resolve: () => void } | undefined;
    unref: boolean;
  };

  constructor(port: CrossRealmPort, unref: boolean) {
    this[kState] = {
      port,
      controller: undefined,
      backpressurePromise: PromiseWithResolvers(),
      unref,
    };

    // Bound to constants before they are set, as in
    // CrossRealmTransformReadableSource.
    const onmessage = ({ data }: { data: any }) => {
      assert(typeof data === 'object');
      const {
        type,
        value,
      } = { ...data };
      assert(typeof type === 'string');
      switch (type) {
        case 'pull':
          if (this[kState].backpressurePromise !== undefined)
            this[kState].backpressurePromise.resolve();
          this[kState].backpressurePromise = undefined;
          break;
        case 'error':
          writableStreamDefaultControllerErrorIfNeeded(
            this[kState].controller!,
            value);
          if (this[kState].backpressurePromise !== undefined)
            this[kState].backpressurePromise.resolve();
          this[kState].backpressurePromise = undefined;
          break;
      }
    };
    const onmessageerror = () => {
      const error = new DOMException(
        'Internal transferred ReadableStream error',
        'DataCloneError');
      port.postMessage({ type: 'error', value: error });
      writableStreamDefaultControllerErrorIfNeeded(
        this[kState].controller!,
        error);
      port.close();
    };

    port.onmessage = onmessage;
    port.onmessageerror = onmessageerror;
    port.unref();
  }
}
