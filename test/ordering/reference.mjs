// Preloaded (`node --import`) to run the ordering harness on the reference
// implementation of the Streams Standard instead of Node's lib: the
// web-streams-polyfill package, a port of the standard's reference
// implementation, replaces the global stream classes before the harness
// captures them, and tells the harness how to read its records.
import * as reference from 'web-streams-polyfill';
import { INTROSPECT } from './introspect.js';

for (const [name, value] of Object.entries(reference)) {
  if (typeof value === 'function' && name in globalThis) globalThis[name] = value;
}

globalThis[INTROSPECT] = {
  // The polyfill keeps the standard's internal slots as `_`-prefixed fields.
  streamState(stream) {
    return typeof stream?._state === 'string' ? { state: stream._state, storedError: stream._storedError } : undefined;
  },
  sinkDesiredSize(controller) {
    return controller._strategyHWM - controller._queueTotalSize;
  },
};
