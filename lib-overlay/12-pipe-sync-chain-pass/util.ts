import { Queue, kResolvedPromise } from 'internal/webstreams/util';

const {
  PromisePrototypeThen,
} = primordials;

// Pipe steps: the steps by which pipes move chunks through a chain of
// synchronous TransformStreams (a pipe writing the chunk a transform
// enqueued for it, a pipe reading once the TransformStream it writes into
// wants a chunk). While one runs, the steps it triggers are queued and run
// after it, in order, in the same microtask: one never runs inside another
// stream's algorithm (an enqueue(), a pull, a transform()).
// @overlay-after Queue
let pipeStepDepth = 0;
// @overlay-after Queue
let drainingPipeSteps = false;
// @overlay-after Queue
const pendingPipeSteps = new Queue<() => void>();

export function enterPipeStep(): void {
  pipeStepDepth++;
}

export function exitPipeStep(): void {
  pipeStepDepth--;
}

// Runs the queued steps once the outermost step has returned.
export function runPendingPipeSteps(): void {
  if (pipeStepDepth !== 0 || drainingPipeSteps || !pendingPipeSteps.length)
    return;
  drainingPipeSteps = true;
  try {
    while (pendingPipeSteps.length)
      pendingPipeSteps.shift()();
  } finally {
    drainingPipeSteps = false;
  }
}

export function runPipeStep(step: () => void): void {
  enterPipeStep();
  try {
    step();
  } finally {
    exitPipeStep();
  }
  runPendingPipeSteps();
}

// Runs `step` after the current pipe step, or a microtask later when no
// pipe step is running.
export function queuePipeStep(step: () => void): void {
  if (pipeStepDepth > 0 || drainingPipeSteps)
    pendingPipeSteps.push(step);
  else
    PromisePrototypeThen(kResolvedPromise, step);
}
