// internal/errors, as webstreams code uses it. Error classes are taken as
// `import { ERR_X } from 'internal/errors'`: the compiler puts ERR_* names
// into the module's `codes: { … }` destructuring, where Node lib code has them.
type NodeErrorClass = {
  new (...args: any[]): Error;
  TypeError: new (...args: any[]) => TypeError;
  RangeError: new (...args: any[]) => RangeError;
};

export class AbortError extends Error {
  constructor(message?: string, options?: { cause?: unknown });
}

export const ERR_ARG_NOT_ITERABLE: NodeErrorClass;
export const ERR_ILLEGAL_CONSTRUCTOR: NodeErrorClass;
export const ERR_INVALID_ARG_TYPE: NodeErrorClass;
export const ERR_INVALID_ARG_VALUE: NodeErrorClass;
export const ERR_INVALID_RETURN_VALUE: NodeErrorClass;
export const ERR_INVALID_STATE: NodeErrorClass;
export const ERR_INVALID_THIS: NodeErrorClass;
export const ERR_METHOD_NOT_IMPLEMENTED: NodeErrorClass;
export const ERR_OUT_OF_RANGE: NodeErrorClass;
export const ERR_STREAM_PREMATURE_CLOSE: NodeErrorClass;

export function hideStackFrames<T extends (...args: any[]) => unknown>(fn: T): T;
