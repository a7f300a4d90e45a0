import { kResolvedPromise, kState, Queue } from 'internal/webstreams/util';
import { passThroughWrite } from 'internal/webstreams/readablestream';
import {
  writableStreamDefaultWriterWriteWithRequest,
  type WritableStreamDefaultWriter,
} from 'internal/webstreams/writablestream';
import type { PipeWriteTracker } from 'internal/webstreams/readablestream';
import type { TransformStream } from 'internal/webstreams/transformstream';

const {
  PromisePrototypeThen,
} = primordials;

// Pipe writes on the stack into TransformStreams whose transform() has
// been synchronous so far (see transformStreamDefaultControllerPerformTransform).
// A pipe whose read request such a write fulfilled (the transform enqueued)
// writes its chunk once the outermost write has returned, in order,
// instead of a microtask later: a chunk crosses a chain of synchronous
// transforms in one go, and no transform runs inside another one's
// enqueue(). Writes into other TransformStreams keep the microtask.
let pipeWriteDepth = 0;
let drainingForwards = false;
const deferredForwards = new Queue<() => void>();

function pipeWrite(
  writer: WritableStreamDefaultWriter,
  destination: TransformStream,
  chunk: unknown,
  request: PipeWriteTracker): void {
  const state = destination[kState];
  if (state.passThrough) {
    if (!passThroughWrite(destination, chunk))
      writableStreamDefaultWriterWriteWithRequest(writer, chunk, request);
    return;
  }
  if (!state.syncTransform) {
    writableStreamDefaultWriterWriteWithRequest(writer, chunk, request);
    return;
  }
  pipeWriteDepth++;
  try {
    writableStreamDefaultWriterWriteWithRequest(writer, chunk, request);
  } finally {
    pipeWriteDepth--;
  }
  if (pipeWriteDepth === 0 && !drainingForwards && deferredForwards.length)
    drainForwards();
}

function drainForwards(): void {
  drainingForwards = true;
  try {
    while (deferredForwards.length)
      deferredForwards.shift()();
  } finally {
    drainingForwards = false;
  }
}

function scheduleForward(forward: () => void): void {
  if (pipeWriteDepth > 0)
    deferredForwards.push(forward);
  else
    PromisePrototypeThen(kResolvedPromise, forward);
}
