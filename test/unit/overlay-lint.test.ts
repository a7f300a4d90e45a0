// The Node-style lint: each rule fires on code that breaks it, and stays
// quiet on the unmodified base (checked by the lint suite itself).
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { lintModule } from '../../tools/overlay/lint.ts';

/** `<line> <rule>` of each finding, sorted, to compare with a sorted list. */
function rulesOf(findings: { line: number; rule: string }[]): string[] {
  return findings.map((f) => `${f.line} ${f.rule}`).sort();
}

it('reports primordials, pollution, order, unused entries and formatting', () => {
  const text = [
    "'use strict';",
    '',
    'const {',
    '  PromiseResolve,',
    '  PromiseAll,',
    '  MathMax,',
    '} = primordials;',
    '',
    'function f(list) {',
    '  const m = new Map();',
    '  setTimeout(() => {}, 1);  ',
    '  return PromiseAll([PromiseResolve(Symbol.iterator), m, list, "x"]);',
    '}',
    '',
    'module.exports = { f };',
    '',
  ].join('\n');
  assert.deepEqual(rulesOf(lintModule('internal/webstreams/x', text)), [
    '10 prefer-primordials',
    '11 @stylistic/js/no-trailing-spaces',
    '11 no-restricted-globals',
    // ESLint's no-undef: lib/ has only its module wrapper's globals.
    '11 no-undef',
    '12 @stylistic/js/quotes',
    '12 prefer-primordials',
    '12 prototype-pollution',
    '5 sorted-primordials',
    // ESLint's no-unused-vars: the header's MathMax is never used.
    '6 no-unused-vars',
    '6 sorted-primordials',
  ].sort());
});

it('is quiet on clean Node-style code', () => {
  const text = "'use strict';\n\nconst {\n  SafeMap,\n} = primordials;\n\nfunction f() {\n  return new SafeMap();\n}\n\nmodule.exports = { f };\n";
  assert.deepEqual(lintModule('internal/webstreams/x', text), []);
});

it('reports a function literal assigned straight to a property inside a function, naming the site', () => {
  const text = [
    "'use strict';",
    '',
    'X.prototype.m = function() {};',
    '',
    'function setup(state, controller) {',
    '  state.onPull = () => controller;',
    '  state.onWrite ??= function(chunk) { return chunk; };',
    '  const bound = () => controller;',
    '  state.onClose = bound;',
    '  state.settle = (0, () => controller);',
    '  state.onCancel = ((reason) => reason);',
    '}',
    '',
    'module.exports = { setup };',
    '',
  ].join('\n');
  const found = lintModule('internal/webstreams/x', text)
    .filter((f) => f.rule === 'old-generation-closure')
    .map((f) => `${f.line} ${f.rule} ${f.site}`);
  assert.deepEqual(found, [
    '6 old-generation-closure setup state.onPull',
    '7 old-generation-closure setup state.onWrite',
    '11 old-generation-closure setup state.onCancel',
  ]);
});

it("reports Node's lib-only rules, and honours Node's eslint-disable comments", () => {
  const text = [
    "'use strict';",
    '',
    "const { ERR_X, codes: { ERR_B, ERR_A, ERR_INVALID_ARG_TYPE } } = require('internal/errors');",
    "const assert = require('internal/assert');",
    '',
    '// A dash \u2014 a non-ASCII one.',
    'function f(list) {',
    '  const [a, b] = list;',
    '  assert.strictEqual(a, b);',
    '  assert.ok(a);',
    '  if (a) throw new TypeError(b);',
    '  // eslint-disable-next-line no-restricted-syntax',
    '  if (b) throw new RangeError(a);',
    '  if (!b) throw new AbortError(a); // eslint-disable-line no-restricted-syntax',
    "  if (list) throw new ERR_INVALID_ARG_TYPE('list', ['Number', 'string', 'Array'], list);",
    '  throw new ERR_X(ERR_A, ERR_B);',
    '}',
    '',
    'module.exports = { f };',
    '',
  ].join('\n');
  assert.deepEqual(rulesOf(lintModule('internal/webstreams/x', text)), [
    '3 alphabetize-errors',
    '6 non-ascii-character',
    '8 no-array-destructuring',
    '9 no-restricted-syntax',
    '11 no-restricted-syntax',
    '11 prefer-primordials',
    // The directive names one rule: the global RangeError is still reported.
    '13 prefer-primordials',
    '14 no-undef',
    // 'Number' is a primitive's name: Node writes it 'number'.
    '15 lowercase-name-for-primitive',
  ].sort());
});


it("reports Node's own rules for every file: optional chaining, __proto__, a module required twice", () => {
  const text = [
    "'use strict';",
    '',
    'const {',
    '  ObjectCreate,',
    '} = primordials;',
    "const a = require('internal/a');",
    "const b = require('internal/a');",
    '',
    'function f(x, y) {',
    "  const lazy = require('internal/a');",
    '  if (x && x.y && y) return ObjectCreate(null);',
    '  if ((x && y) && y[0]) return { __proto__: null };',
    '  if (x && x?.y) return a;',
    '  return x.y && x.y.z ? b : lazy;',
    '}',
    '',
    'module.exports = { f };',
    '',
  ].join('\n');
  assert.deepEqual(rulesOf(lintModule('internal/webstreams/x', text)).filter((r) => !/ no-unused-vars$/.test(r)), [
    '11 prefer-optional-chaining',
    '11 prefer-proto',
    '12 prefer-optional-chaining',
    '14 prefer-optional-chaining',
    '7 no-duplicate-requires',
  ].sort());
});

it('reports a dot in a regular expression that matches any one character', () => {
  const text = [
    "'use strict';",
    '',
    'const {',
    '  RegExp,',
    '} = primordials;',
    '',
    'const re = [',
    '  /a.b/, /a\\.b/, /[.]/, /a.*b/, /a.{2}/, /x./,',
    "  new RegExp('a\\\\.b'), new RegExp('a.b'), RegExp('[' + '.]'), RegExp('a\\\\' + '.b'),",
    "  new RegExp(`${re}.x`), new RegExp('.' + '*'),",
    '];',
    '',
    'module.exports = { re };',
    '',
  ].join('\n');
  assert.deepEqual(rulesOf(lintModule('internal/webstreams/x', text)).filter((r) => / no-unescaped-regexp-dot$/.test(r)), [
    // /a.b/ and /x./ on line 8; 'a.b', the template's '.x' and the '.' that ends its piece on line 9 and 10.
    '10 no-unescaped-regexp-dot',
    '10 no-unescaped-regexp-dot',
    '8 no-unescaped-regexp-dot',
    '8 no-unescaped-regexp-dot',
    '9 no-unescaped-regexp-dot',
  ]);
});

it("reports what Node's avoid-prototype-pollution does: descriptors, Proxy handlers, lookups by Symbol", () => {
  const text = [
    "'use strict';",
    '',
    'const {',
    '  ObjectCreate,',
    '  ObjectDefineProperties,',
    '  ObjectDefineProperty,',
    '  ObjectGetOwnPropertyDescriptor,',
    '  PromiseAllSettled,',
    '  RegExpPrototypeSymbolSearch,',
    '  StringPrototypeMatch,',
    '  StringPrototypeReplace,',
    '} = primordials;',
    '',
    'function f(o, s, d) {',
    '  ObjectDefineProperty(o, \'a\', { __proto__: null, value: 1 });',
    '  ObjectDefineProperty(o, \'b\', { value: 1 });',
    '  ObjectDefineProperty(o, \'c\', d);',
    '  ObjectDefineProperties(o, { a: ObjectGetOwnPropertyDescriptor(d, \'a\'), b: d, __proto__: null });',
    '  ObjectCreate(o, { a: { enumerable: true } });',
    '  const p = new Proxy(o, { get: d });',
    '  const q = new Proxy(o, { __proto__: null, get: d });',
    '  StringPrototypeReplace(s, \'x\', \'y\');',
    '  StringPrototypeReplace(s, /x/g, \'y\');',
    '  return [p, q, StringPrototypeMatch(s, d), RegExpPrototypeSymbolSearch(d, s), PromiseAllSettled([])];',
    '}',
    '',
    'module.exports = { f };',
    '',
  ].join('\n');
  assert.deepEqual(rulesOf(lintModule('internal/webstreams/x', text)).filter((r) => / prototype-pollution$/.test(r)), [
    // Line 16's descriptor, 18's from ObjectGetOwnPropertyDescriptor, 19's, the Proxy of 20, 23's regular
    // expression, and on 24 the match, the search and the combinator.
    '16 prototype-pollution',
    '18 prototype-pollution',
    '19 prototype-pollution',
    '20 prototype-pollution',
    '23 prototype-pollution',
    '24 prototype-pollution',
    '24 prototype-pollution',
    '24 prototype-pollution',
  ]);
});
