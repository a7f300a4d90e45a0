import { Queue } from 'internal/webstreams/util';

const {
  enqueueMicrotask,
} = internalBinding('task_queue');

// Returned by the start algorithm of a TransformStream's two sides when
// the TransformStream runs their post-start steps itself (see
// initializeTransformStream).
export const kDeferredStart = Symbol('kDeferredStart');

// Returns a function that runs `steps(item)` one microtask after it is
// called, at the position a reaction to an already resolved promise would
// take, without a closure per item: every call queues one microtask, the
// microtasks run in call order, so each takes the oldest pending item.
// Used for the controllers' post-start steps.
export function createMicrotaskSteps<T>(steps: (item: T) => void): (item: T) => void {
  const pending = new Queue<T>();
  const run = () => steps(pending.shift());
  return (item: T) => {
    pending.push(item);
    enqueueMicrotask(run);
  };
}
