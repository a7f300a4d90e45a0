import { kState } from 'internal/webstreams/util';
import {
  readableStreamDefaultControllerPull,
  readableStreamDefaultControllerShouldCallPull,
  type ReadableStreamDefaultController,
} from 'internal/webstreams/readablestream';

function readableStreamDefaultControllerCallPullIfNeeded(controller: ReadableStreamDefaultController): void {
  // While a pull is in flight, the predicate would only decide whether to
  // set pullAgain, and the pull's fulfillment evaluates it again before it
  // pulls. Every step that can turn the predicate true (a dequeue, a read
  // request parked, the start) calls this function after it, so setting
  // pullAgain unconditionally pulls exactly when the spec's steps do.
  const controllerState = controller[kState];
  if (controllerState.pulling) {
    controllerState.pullAgain = true;
    return;
  }
  if (!readableStreamDefaultControllerShouldCallPull(controller))
    return;
  readableStreamDefaultControllerPull(controller);
}
