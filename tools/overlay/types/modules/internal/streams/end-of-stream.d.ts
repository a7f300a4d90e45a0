// internal/streams/end-of-stream, as webstreams code uses it.
export const kEosNodeSynchronousCallback: unique symbol;
/** Calls `callback` once `stream` has finished or errored; returns the function that removes the listeners. */
export function eos(stream: object, options: object, callback: (error?: unknown) => void): () => void;
