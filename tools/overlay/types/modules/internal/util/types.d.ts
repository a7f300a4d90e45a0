// internal/util/types, as webstreams code uses it.
export function isArrayBufferView(value: unknown): value is ArrayBufferView;
export function isDataView(value: unknown): value is DataView;
export function isSharedArrayBuffer(value: unknown): value is SharedArrayBuffer;
export function isArrayBuffer(value: unknown): value is ArrayBuffer;
export function isAnyArrayBuffer(value: unknown): value is ArrayBuffer | SharedArrayBuffer;
export function isTypedArray(value: unknown): value is TypedArray;
export function isUint8Array(value: unknown): value is Uint8Array;
export function isPromise(value: unknown): value is Promise<unknown>;
