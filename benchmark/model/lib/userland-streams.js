'use strict';
// The userland library issue 16 takes its reference numbers from
// (experimental-fast-webstreams, a devDependency): its Fast* classes under
// the standard names, for the model benchmarks' impl='userland'. It backs
// the streams with Node's own (pipeline() for a chain of its transforms,
// Readable's buffer for reads), so it takes fewer turns per chunk than the
// spec's algorithms: its rate shows what that library gets, not what a
// spec-exact implementation could. Its classes are its own on either side
// of a comparison: beyond one native byte stream made when it loads, these
// shapes never reach the injected lib, so headroom pools its samples as it
// does the model's.

async function userlandStreams() {
  const m = await import('experimental-fast-webstreams');
  return {
    ReadableStream: m.FastReadableStream,
    TransformStream: m.FastTransformStream,
    WritableStream: m.FastWritableStream,
  };
}

module.exports = { userlandStreams };
