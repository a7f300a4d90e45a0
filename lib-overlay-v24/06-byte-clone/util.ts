import { ArrayBufferViewGetBuffer, ArrayBufferViewGetByteLength, ArrayBufferViewGetByteOffset } from 'internal/webstreams/util';

const {
  TypedArrayPrototypeGetBuffer,
  TypedArrayPrototypeSet,
  Uint8Array,
} = primordials;

const {
  copyArrayBuffer,
} = internalBinding('buffer');

const kMaxCopyArrayBufferIndex = 0xffffffff;

/**
 * CloneAsUint8Array: the bytes go into a new %ArrayBuffer% through one
 * native copy. ArrayBuffer.prototype.slice would look up the buffer's
 * species constructor, which the spec's CloneArrayBuffer does not do.
 * @param {ArrayBufferView} view
 * @returns {Uint8Array}
 */
function cloneAsUint8Array(view: ArrayBufferView): Uint8Array {
  const buffer = ArrayBufferViewGetBuffer(view);
  const byteOffset = ArrayBufferViewGetByteOffset(view);
  const byteLength = ArrayBufferViewGetByteLength(view);
  const clone = new Uint8Array(byteLength);
  if (byteOffset + byteLength <= kMaxCopyArrayBufferIndex && byteLength > 0) {
    copyArrayBuffer(TypedArrayPrototypeGetBuffer(clone), 0, buffer, byteOffset, byteLength);
  } else {
    // copyArrayBuffer() takes uint32 positions. A view over a detached
    // buffer has no bytes, and its Uint8Array here throws, as slice() did.
    TypedArrayPrototypeSet(clone, new Uint8Array(buffer, byteOffset, byteLength));
  }
  return clone;
}
