import { kState, kType } from 'internal/webstreams/util';
import type {
  WritableStream,
  WritableStreamDefaultController,
  WritableStreamDefaultWriter,
} from 'internal/webstreams/writablestream';

// Each brand check is a function of its own rather than a closure made
// by one shared factory: closures of one function literal share their
// type feedback, so there every check's two property loads would see
// every webstreams class and go megamorphic.
// @overlay-replace
function isWritableStream(value: any): value is WritableStream {
  return value != null &&
         value[kState] !== undefined &&
         value[kType] === 'WritableStream';
}

// @overlay-replace
function isWritableStreamDefaultWriter(value: any): value is WritableStreamDefaultWriter {
  return value != null &&
         value[kState] !== undefined &&
         value[kType] === 'WritableStreamDefaultWriter';
}

// @overlay-replace
function isWritableStreamDefaultController(value: any): value is WritableStreamDefaultController {
  return value != null &&
         value[kState] !== undefined &&
         value[kType] === 'WritableStreamDefaultController';
}
