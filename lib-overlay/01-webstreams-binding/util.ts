// The byte-stream tee's chunk clone moves to internalBinding('webstreams'):
// one allocation and one memcpy in C++, where the JS version slices the
// view's buffer (an ArrayBuffer species lookup, observable through a
// patched constructor) and then wraps the slice.
// @overlay-remove cloneAsUint8Array
const {
  cloneAsUint8Array,
} = internalBinding('webstreams');

export { cloneAsUint8Array };
