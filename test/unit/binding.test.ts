// internalBinding('webstreams'): the native addon (src-native/, built by
// `make native`) and the JS fallback, run over the same cases.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { libDir } from '../../tools/lib/paths.ts';
import { runOnLib, variantLib } from '../helpers/libs.ts';

// Exposes the binding the injected modules receive, through a test-only export.
function bindingLib(): string {
  return variantLib('binding-probe', (modules) => {
    const id = 'internal/webstreams/util';
    modules.set(id, `${modules.get(id)}\nmodule.exports.webstreamsBindingForTest = internalBinding('webstreams');\n`);
  });
}

const CASES = String.raw`
const { webstreamsBindingForTest: b } = require('internal/webstreams/util');
const out = [];
const thenGetterThrows = { get then() { throw new Error('boom'); } };
const values = {
  undefined: undefined, null: null, true: true, zero: 0, nan: NaN, string: 's', symbol: Symbol('s'), bigint: 1n,
  object: {}, array: [], fn: () => {}, promise: Promise.resolve(1), thenable: { then() {} },
  proxy: new Proxy({}, {}), thenGetterThrows,
};
for (const [k, v] of Object.entries(values)) out.push(['isNonThenable', k, b.isNonThenable(v)]);
const ab = new ArrayBuffer(16);
new Uint8Array(ab).forEach((_, i, a) => { a[i] = i; });
const views = {
  Int8Array: new Int8Array(ab, 1, 3), Uint8Array: new Uint8Array(ab, 2, 4), Uint8ClampedArray: new Uint8ClampedArray(ab, 3, 2),
  Int16Array: new Int16Array(ab, 2, 2), Uint16Array: new Uint16Array(ab, 4, 1), Int32Array: new Int32Array(ab, 4, 2),
  Uint32Array: new Uint32Array(ab, 8, 1), Float32Array: new Float32Array(ab, 4, 1), Float64Array: new Float64Array(ab, 8, 1),
  BigInt64Array: new BigInt64Array(ab, 8, 1), BigUint64Array: new BigUint64Array(ab, 0, 2), DataView: new DataView(ab, 5, 7),
  empty: new Uint8Array(ab, 16, 0), Float16Array: typeof Float16Array === 'function' ? new Float16Array(ab, 2, 3) : new Uint8Array(0),
};
for (const [k, v] of Object.entries(views)) {
  const c = b.cloneAsUint8Array(v);
  out.push(['clone', k, c.constructor.name, Array.from(c), c.buffer !== ab, c.byteOffset, c.buffer.byteLength]);
}
const patched = new Uint8Array(new ArrayBuffer(4));
patched.buffer.constructor = { [Symbol.species]: function() { throw new Error('species consulted'); } };
try { out.push(['species', Array.from(b.cloneAsUint8Array(patched))]); } catch (e) { out.push(['species', e.message]); }
const detached = new Uint8Array(new ArrayBuffer(8), 2, 2);
structuredClone(detached.buffer, { transfer: [detached.buffer] });
for (const [k, v] of Object.entries({ detached, plain: {}, number: 1, buffer: new ArrayBuffer(4) })) {
  try { b.cloneAsUint8Array(v); out.push(['clone-error', k, 'no error']); } catch (e) { out.push(['clone-error', k, e.constructor.name + ': ' + e.message]); }
}
console.log(JSON.stringify(out));
`;

function cases(binding: 'js' | 'native'): unknown[][] {
  const r = runOnLib(bindingLib(), ['-e', CASES], { WEBSTREAMS_BINDING: binding });
  assert.equal(r.status, 0, r.stderr);
  return JSON.parse(r.stdout);
}

for (const binding of ['js', 'native'] as const) test(`${binding} binding: isNonThenable and cloneAsUint8Array edge cases`, () => {
  const rows = cases(binding);
  const nonThenable = Object.fromEntries(rows.filter((x) => x[0] === 'isNonThenable').map((x) => [x[1], x[2]]));
  assert.deepEqual(nonThenable, {
    undefined: true, null: true, true: true, zero: true, nan: true, string: true, symbol: true, bigint: true,
    object: false, array: false, fn: false, promise: false, thenable: false, proxy: false, thenGetterThrows: false,
  });
  assert.deepEqual(rows.find((x) => x[0] === 'species'), ['species', [0, 0, 0, 0]]);
  const clones = Object.fromEntries(rows.filter((x) => x[0] === 'clone').map((x) => [x[1], x.slice(2)]));
  assert.deepEqual(clones.Int8Array, ['Uint8Array', [1, 2, 3], true, 0, 3]);
  assert.deepEqual(clones.Uint16Array, ['Uint8Array', [4, 5], true, 0, 2]);
  assert.deepEqual(clones.DataView, ['Uint8Array', [5, 6, 7, 8, 9, 10, 11], true, 0, 7]);
  assert.deepEqual(clones.BigUint64Array, ['Uint8Array', [...Array(16).keys()], true, 0, 16]);
  assert.deepEqual(clones.empty, ['Uint8Array', [], true, 0, 0]);
  const errors = Object.fromEntries(rows.filter((x) => x[0] === 'clone-error').map((x) => [x[1], x[2]]));
  const notView = 'TypeError: cloneAsUint8Array: argument must be an ArrayBufferView';
  assert.deepEqual(errors, {
    detached: 'TypeError: cloneAsUint8Array: the view\'s buffer is detached', plain: notView, number: notView, buffer: notView,
  });
});

test('the native addon and the JS fallback agree on every case', () => {
  assert.deepEqual(cases('native'), cases('js'));
});

test('WEBSTREAMS_BINDING rejects an unknown choice', () => {
  const r = runOnLib(bindingLib(), ['-e', "require('internal/webstreams/util')"], { WEBSTREAMS_BINDING: 'bogus' });
  assert.equal(r.status, 2);
  assert.match(r.stderr, /WEBSTREAMS_BINDING must be auto, native or js/);
  assert.ok(libDir('base'));
});
