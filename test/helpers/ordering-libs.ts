// Deliberately wrong libs for the ordering, fuzz and resource tests: each
// is the base with one small change a careless optimization could make.
import { replaceOnce, variantLib } from './libs.ts';

const READABLE = 'internal/webstreams/readablestream';
const WRITABLE = 'internal/webstreams/writablestream';

/** A pending read() is fulfilled one microtask later than the base does. */
export function lateReadLib(name = 'late-read'): string {
  return variantLib(name, (m) => replaceOnce(m, READABLE,
    '  [kChunk](value) {\n    this[kState].resolve({ done: false, value });\n  }\n\n  [kClose]() {',
    '  [kChunk](value) {\n    queueMicrotask(() => this[kState].resolve({ done: false, value }));\n  }\n\n  [kClose]() {'));
}

/** A completed write settles its promise one microtask later. */
export function lateWriteLib(name = 'late-write'): string {
  return variantLib(name, (m) => replaceOnce(m, WRITABLE,
    '  stream[kState].inFlightWriteRequest.resolve();\n  stream[kState].inFlightWriteRequest = kNilRequest;',
    '  const request = stream[kState].inFlightWriteRequest;\n  queueMicrotask(() => request.resolve());\n  stream[kState].inFlightWriteRequest = kNilRequest;'));
}

/** Every chunk enqueued on a default controller is kept forever. */
export function leakyLib(name = 'leaky'): string {
  return variantLib(name, (m) => replaceOnce(m, READABLE,
    'function readableStreamDefaultControllerEnqueue(controller, chunk) {\n',
    'function readableStreamDefaultControllerEnqueue(controller, chunk) {\n  (globalThis.leakedChunks ??= []).push(chunk);\n'));
}

/** Default controllers ignore the high-water mark (as if it were Infinity): no backpressure. */
export function noBackpressureLib(name = 'no-backpressure'): string {
  return variantLib(name, (m) => replaceOnce(m, READABLE,
    '    closeRequested: false,\n    highWaterMark,\n    pullAgain: false,',
    '    closeRequested: false,\n    highWaterMark: Infinity,\n    pullAgain: false,'));
}

/** cancel() keeps the queued chunks instead of resetting the queue. */
export function cancelKeepsQueueLib(name = 'cancel-keeps-queue'): string {
  return variantLib(name, (m) => replaceOnce(m, READABLE,
    'function readableStreamDefaultControllerCancelSteps(controller, reason) {\n  resetQueue(controller);\n',
    'function readableStreamDefaultControllerCancelSteps(controller, reason) {\n'));
}
