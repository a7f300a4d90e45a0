import { kState } from 'internal/webstreams/util';
import {
  isTransformStream,
  type FlushAlgorithm,
  type TransformAlgorithm,
  type TransformStream,
  type TransformStreamDefaultController,
} from 'internal/webstreams/transformstream';
import type { CancelAlgorithm } from 'internal/webstreams/readablestream';
import assert from 'internal/assert';

// The controller's internal slots, as a class for the reason given at
// TransformStreamState: a `__proto__: null` literal is created in
// dictionary mode. `finishPromise` is declared so that setting it later
// does not change the record's shape.
// @overlay-after isTransformStreamDefaultController
class TransformStreamControllerState {
  stream: TransformStream | undefined;
  transformAlgorithm: TransformAlgorithm | undefined;
  flushAlgorithm: FlushAlgorithm | undefined;
  cancelAlgorithm: CancelAlgorithm | undefined;
  performTransformRejected = undefined;
  finishPromise = undefined;

  constructor(
    stream: TransformStream,
    transformAlgorithm: TransformAlgorithm,
    flushAlgorithm: FlushAlgorithm,
    cancelAlgorithm: CancelAlgorithm) {
    this.stream = stream;
    this.transformAlgorithm = transformAlgorithm;
    this.flushAlgorithm = flushAlgorithm;
    this.cancelAlgorithm = cancelAlgorithm;
  }
}

function setupTransformStreamDefaultController(
  stream: TransformStream,
  controller: TransformStreamDefaultController,
  transformAlgorithm: TransformAlgorithm,
  flushAlgorithm: FlushAlgorithm,
  cancelAlgorithm: CancelAlgorithm): void {
  assert(isTransformStream(stream));
  assert(stream[kState].controller === undefined);
  controller[kState] = new TransformStreamControllerState(
    stream,
    transformAlgorithm,
    flushAlgorithm,
    cancelAlgorithm);
  stream[kState].controller = controller;
}
