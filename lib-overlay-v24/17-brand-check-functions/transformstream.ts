import { kState, kType } from 'internal/webstreams/util';
import type {
  TransformStream,
  TransformStreamDefaultController,
} from 'internal/webstreams/transformstream';

// Each brand check is a function of its own rather than a closure made
// by one shared factory: closures of one function literal share their
// type feedback, so there every check's two property loads would see
// every webstreams class and go megamorphic.
// @overlay-replace
function isTransformStream(value: any): value is TransformStream {
  return value != null &&
         value[kState] !== undefined &&
         value[kType] === 'TransformStream';
}

// @overlay-replace
function isTransformStreamDefaultController(value: any): value is TransformStreamDefaultController {
  return value != null &&
         value[kState] !== undefined &&
         value[kType] === 'TransformStreamDefaultController';
}
