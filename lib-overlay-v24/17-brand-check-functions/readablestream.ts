import { kState, kType } from 'internal/webstreams/util';
import type {
  ReadableByteStreamController,
  ReadableStream,
  ReadableStreamBYOBReader,
  ReadableStreamBYOBRequest,
  ReadableStreamDefaultController,
  ReadableStreamDefaultReader,
} from 'internal/webstreams/readablestream';

// Each brand check is a function of its own rather than a closure made
// by one shared factory: closures of one function literal share their
// type feedback, so there every check's two property loads would see
// every webstreams class and go megamorphic.
// @overlay-replace
function isReadableStream(value: any): value is ReadableStream {
  return value != null &&
         value[kState] !== undefined &&
         value[kType] === 'ReadableStream';
}

// @overlay-replace
function isReadableByteStreamController(value: any): value is ReadableByteStreamController {
  return value != null &&
         value[kState] !== undefined &&
         value[kType] === 'ReadableByteStreamController';
}

// @overlay-replace
function isReadableStreamDefaultController(value: any): value is ReadableStreamDefaultController {
  return value != null &&
         value[kState] !== undefined &&
         value[kType] === 'ReadableStreamDefaultController';
}

// @overlay-replace
function isReadableStreamBYOBRequest(value: any): value is ReadableStreamBYOBRequest {
  return value != null &&
         value[kState] !== undefined &&
         value[kType] === 'ReadableStreamBYOBRequest';
}

// @overlay-replace
function isReadableStreamDefaultReader(value: any): value is ReadableStreamDefaultReader {
  return value != null &&
         value[kState] !== undefined &&
         value[kType] === 'ReadableStreamDefaultReader';
}

// @overlay-replace
function isReadableStreamBYOBReader(value: any): value is ReadableStreamBYOBReader {
  return value != null &&
         value[kState] !== undefined &&
         value[kType] === 'ReadableStreamBYOBReader';
}
