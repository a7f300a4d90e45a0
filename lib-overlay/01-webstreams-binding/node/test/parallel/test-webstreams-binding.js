// Flags: --expose-internals --no-warnings
'use strict';

// internalBinding('webstreams'): the helpers lib/internal/webstreams uses
// on its per-chunk paths.

require('../common');
const assert = require('assert');
const { internalBinding } = require('internal/test/binding');
const { cloneAsUint8Array, isNonThenable } = internalBinding('webstreams');

// isNonThenable: true exactly when resolving a promise with the value can
// never run user code, i.e. for everything but objects and functions.
for (const value of [undefined, null, true, 0, NaN, 'then', Symbol('s'), 1n])
  assert.strictEqual(isNonThenable(value), true, String(value));
for (const value of [{}, [], () => {}, Promise.resolve(), { then() {} },
                     new Proxy({}, {}), { get then() { throw new Error(); } }])
  assert.strictEqual(isNonThenable(value), false);

// cloneAsUint8Array: a fresh copy of exactly the bytes a view covers.
const buffer = new ArrayBuffer(16);
new Uint8Array(buffer).forEach((_, i, bytes) => { bytes[i] = i; });
for (const [view, bytes] of [
  [new Uint8Array(buffer, 2, 4), [2, 3, 4, 5]],
  [new Int8Array(buffer, 1, 3), [1, 2, 3]],
  [new Uint16Array(buffer, 4, 1), [4, 5]],
  [new Float64Array(buffer, 8, 1), [8, 9, 10, 11, 12, 13, 14, 15]],
  [new BigUint64Array(buffer, 0, 1), [0, 1, 2, 3, 4, 5, 6, 7]],
  [new DataView(buffer, 5, 3), [5, 6, 7]],
  [new Uint8Array(buffer, 16, 0), []],
]) {
  const clone = cloneAsUint8Array(view);
  assert.ok(clone instanceof Uint8Array);
  assert.notStrictEqual(clone.buffer, buffer);
  assert.strictEqual(clone.byteOffset, 0);
  assert.strictEqual(clone.buffer.byteLength, bytes.length);
  assert.deepStrictEqual([...clone], bytes);
}

// The copy does not follow later writes to the original.
const source = new Uint8Array([1, 2, 3]);
const copy = cloneAsUint8Array(source);
source[0] = 9;
assert.deepStrictEqual([...copy], [1, 2, 3]);

// A patched species constructor is not consulted.
const patched = new Uint8Array(new ArrayBuffer(4));
patched.buffer.constructor = { [Symbol.species]: function() { throw new Error('species'); } };
assert.strictEqual(cloneAsUint8Array(patched).byteLength, 4);

// Not a view, or a view over a detached buffer: a TypeError.
for (const value of [{}, 1, new ArrayBuffer(4)])
  assert.throws(() => cloneAsUint8Array(value), TypeError);
const detached = new Uint8Array(new ArrayBuffer(8), 2, 2);
structuredClone(detached.buffer, { transfer: [detached.buffer] });
assert.throws(() => cloneAsUint8Array(detached), TypeError);
