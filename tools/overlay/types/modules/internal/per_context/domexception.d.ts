// internal/per_context/domexception (named by Node's typings for internalBinding('messaging').DOMException).
export class DOMException extends Error {
  constructor(message?: string, options?: string | { name?: string; cause?: unknown });
  readonly code: number;
}
