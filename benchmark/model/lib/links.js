'use strict';
// Transform steps for minimalChain (minimal-streams.js): a function
// (chunk, controller) per link, where controller.enqueue hands a chunk to
// the next link. The models run the same code per chunk as the streams they
// stand for.

// TextDecoderStream's and TextEncoderStream's transform algorithms
// (lib/internal/webstreams/encoding.js): decode with { stream: true } and
// enqueue a non-empty result; encode every chunk. The encoder carries no
// lone high surrogate over: the models' texts split none.
function decodeLink() {
  const decoder = new TextDecoder();
  const options = { stream: true };
  return (chunk, controller) => {
    const value = decoder.decode(chunk, options);
    if (value) controller.enqueue(value);
  };
}

function encodeLink() {
  const encoder = new TextEncoder();
  return (chunk, controller) => controller.enqueue(encoder.encode(chunk));
}

// The transformer a TransformStream subclass from a package passes to its
// super constructor, as a link: the package's own start() and transform().
// Such a class extends the global TransformStream it sees when its module is
// evaluated, so `load` (which must evaluate the module for the first time in
// this process) runs with that global replaced by a class that keeps the
// transformer. start() runs with the link's controller before the first
// chunk; flush() is not modelled (the models' inputs leave nothing to flush).
async function packageLink(load, ...args) {
  const { TransformStream } = globalThis;
  let transformer;
  globalThis.TransformStream = class {
    constructor(t) { transformer = t; }
  };
  try {
    const Subclass = await load();
    new Subclass(...args);
  } finally {
    globalThis.TransformStream = TransformStream;
  }
  if (typeof transformer?.transform !== 'function')
    throw new Error('packageLink: the class passed no transform() to TransformStream');
  let started = typeof transformer.start !== 'function';
  return (chunk, controller) => {
    if (!started) {
      started = true;
      transformer.start(controller);
    }
    transformer.transform(chunk, controller);
  };
}

module.exports = { decodeLink, encodeLink, packageLink };
