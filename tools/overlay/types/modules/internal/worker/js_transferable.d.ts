// internal/worker/js_transferable, as far as webstreams use it.
export function markTransferMode(obj: object, cloneable?: boolean, transferable?: boolean): void;
export const kTransfer: unique symbol;
export const kTransferList: unique symbol;
export const kDeserialize: unique symbol;
export function structuredClone(value: unknown, options?: unknown): any;
