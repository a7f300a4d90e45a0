// internal/streams/utils, as webstreams code uses it.
export const kIsDisturbed: unique symbol;
export const kIsErrored: unique symbol;
export const kIsReadable: unique symbol;
export const kIsClosedPromise: unique symbol;
export const kControllerErrorFunction: unique symbol;
export function isReadable(stream: unknown): boolean | null;
