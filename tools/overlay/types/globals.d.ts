// Globals of a Node lib module as the overlay sees them: the wrapper's
// parameters (internalBinding, process) next to `primordials`, which comes
// from Node's typings/primordials.d.ts (+ primordials-extra.d.ts).
import type { BufferBinding } from 'node-typings/internalBinding/buffer';
import type { MessagingBinding } from 'node-typings/internalBinding/messaging';
import type { TypesBinding } from 'node-typings/internalBinding/types';
import type { UtilBinding } from 'node-typings/internalBinding/util';

/** internalBinding('task_queue'), as far as webstreams use it. */
export interface TaskQueueBinding {
  /** Queues `callback` on V8's microtask queue (no async_hooks resource; the async context is kept). */
  enqueueMicrotask(callback: () => void): void;
}

declare global {
  interface InternalBindingMap {
    task_queue: TaskQueueBinding;
    buffer: BufferBinding;
    messaging: MessagingBinding;
    types: TypesBinding;
    util: UtilBinding;
  }
  function internalBinding<K extends keyof InternalBindingMap>(name: K): InternalBindingMap[K];
  /** The builtin loader's require, for the lazy loads lib code does inside functions. */
  function require(id: string): any;

  /** The `process` object lib modules receive (only what webstreams code touches). */
  const process: {
    nextTick(callback: (...args: any[]) => void, ...args: unknown[]): void;
    emitWarning(warning: string | Error, type?: string, code?: string): void;
    readonly env: Record<string, string | undefined>;
  };

  type TypedArray = Int8Array | Uint8Array | Uint8ClampedArray | Int16Array | Uint16Array | Int32Array | Uint32Array |
    Float32Array | Float64Array | BigInt64Array | BigUint64Array;
  type TypedArrayConstructor = typeof Int8Array | typeof Uint8Array | typeof Uint8ClampedArray | typeof Int16Array |
    typeof Uint16Array | typeof Int32Array | typeof Uint32Array | typeof Float32Array | typeof Float64Array |
    typeof BigInt64Array | typeof BigUint64Array;
}
