// The two things the harness reads from a lib's own records rather than
// through the public API: a stream's state with its stored error (for the
// `final` lines) and a sink controller's desired size (for sink callbacks'
// log lines). By default they are read from Node's lib (the harness runs
// with --expose-internals). A run on another implementation of the streams
// (the reference implementation, tools/ordering/reference.ts) installs its
// own readers under INTROSPECT before the harness starts.
import { createRequire } from 'node:module';

export const INTROSPECT = Symbol.for('webstreams-ordering.introspect');

let node;
function nodeReaders() {
  const require = createRequire(import.meta.url);
  const { kState } = require('internal/webstreams/util');
  const { writableStreamDefaultControllerGetDesiredSize } = require('internal/webstreams/writablestream');
  return {
    streamState(stream) {
      const record = stream[kState];
      return record ? { state: record.state, storedError: record.storedError } : undefined;
    },
    sinkDesiredSize: writableStreamDefaultControllerGetDesiredSize,
  };
}

function readers() {
  return globalThis[INTROSPECT] ?? (node ??= nodeReaders());
}

/** `{ state, storedError }` of a stream, or undefined for an object that is not one. */
export function streamState(stream) {
  return readers().streamState(stream);
}

/** What a writer of the sink would read as desiredSize. */
export function sinkDesiredSize(controller) {
  return readers().sinkDesiredSize(controller);
}
