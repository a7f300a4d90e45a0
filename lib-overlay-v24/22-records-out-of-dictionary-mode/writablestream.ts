const {
  ObjectSetPrototypeOf,
} = primordials;

// Shared sentinels for the "no pending request" state records. These
// records are only ever replaced wholesale and never mutated in place,
// so single shared instances are safe and avoid an allocation on every
// state reset (one per write on the hot path). The prototype is nulled
// after creation: a `__proto__: null` literal is created in dictionary
// mode, and these fields are loaded several times per write.
const kNilRequest = ObjectSetPrototypeOf({
  promise: undefined,
  resolve: undefined,
  reject: undefined,
}, null);
const kNilPendingAbortRequest = ObjectSetPrototypeOf({
  abort: kNilRequest,
  reason: undefined,
  wasAlreadyErroring: false,
}, null);
