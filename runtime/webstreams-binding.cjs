'use strict';
// JS fallback for `internalBinding('webstreams')`, used when the native
// addon from src-native/ is not built. Same contract as node_webstreams.cc
// (test/unit/binding.test.ts runs both over the same cases). Written with
// primordials so that user tampering with globals cannot change it.

function create(primordials) {
  const {
    ArrayBufferIsView,
    ArrayBufferPrototypeGetDetached,
    DataViewPrototypeGetBuffer,
    DataViewPrototypeGetByteLength,
    DataViewPrototypeGetByteOffset,
    ObjectFreeze,
    TypedArrayPrototypeGetBuffer,
    TypedArrayPrototypeGetByteLength,
    TypedArrayPrototypeGetByteOffset,
    TypedArrayPrototypeGetSymbolToStringTag,
    TypedArrayPrototypeSet,
    Uint8Array,
  } = primordials;

  // True when resolving a promise with `value` can never run user code:
  // the spec only looks up `then` on objects (and functions).
  function isNonThenable(value) {
    return value === null || (typeof value !== 'object' && typeof value !== 'function');
  }

  // A new Uint8Array over a copy of the bytes `view` covers. Throws a
  // TypeError for a non-view or a view over a detached buffer.
  function cloneAsUint8Array(view) {
    if (!ArrayBufferIsView(view)) {
      throw new TypeError('cloneAsUint8Array: argument must be an ArrayBufferView');
    }
    // The only views without a typed array tag are DataViews.
    const dataView = TypedArrayPrototypeGetSymbolToStringTag(view) === undefined;
    const buffer = dataView ? DataViewPrototypeGetBuffer(view) : TypedArrayPrototypeGetBuffer(view);
    if (ArrayBufferPrototypeGetDetached(buffer)) {
      throw new TypeError('cloneAsUint8Array: the view\'s buffer is detached');
    }
    const offset = dataView ? DataViewPrototypeGetByteOffset(view) : TypedArrayPrototypeGetByteOffset(view);
    const length = dataView ? DataViewPrototypeGetByteLength(view) : TypedArrayPrototypeGetByteLength(view);
    // Copied element-wise into a fresh buffer rather than with
    // ArrayBuffer.prototype.slice, which would consult the buffer's species.
    const clone = new Uint8Array(length);
    TypedArrayPrototypeSet(clone, new Uint8Array(buffer, offset, length));
    return clone;
  }

  return ObjectFreeze({ __proto__: null, isNonThenable, cloneAsUint8Array });
}

module.exports = { create };
