// The Node-style lint: each rule fires on code that breaks it, and stays
// quiet on the unmodified base (checked by the lint suite itself).
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { lintModule } from '../../tools/overlay/lint.ts';
import { styleFindings } from '../../tools/overlay/lint-style.ts';
import { parseSource } from '../../tools/overlay/ts.ts';

/** `<line> <rule>` of each finding, sorted, to compare with a sorted list. */
function rulesOf(findings: { line: number; rule: string }[]): string[] {
  return findings.map((f) => `${f.line} ${f.rule}`).sort();
}

function styleRules(text: string): string[] {
  return rulesOf(styleFindings(parseSource('x.js', text, 'js'), text));
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
    '11 formatting',
    '11 no-restricted-globals',
    '12 formatting',
    '12 prefer-primordials',
    '12 prototype-pollution',
    '3 unused-binding',
    '5 sorted-primordials',
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
    .map((f) => `${f.line} ${f.rule} ${f.site}`);
  assert.deepEqual(found, [
    '6 old-generation-closure setup state.onPull',
    '7 old-generation-closure setup state.onWrite',
    '11 old-generation-closure setup state.onCancel',
  ]);
});

it("reports the rules of Node's root config that hold for lib code and tests alike", () => {
  const text = [
    "'use strict';",
    '// the lowercase comment that is long enough to count',
    '// and a second one after it, exempt as Node configures the rule',
    'var a = 1',
    'if (a == 2) a = x => x;',
    'const f = async(y) => y;',
    'const g = function () {};',
    'function h () {}',
    'function k() {}',
    'const {b} = { b: a };',
    "a['foo'] = f(g, h, k, b);",
    "if (a) { throw 'x'; }",
    "if (a == null || typeof a == 'string') {",
    '  a = 2;',
    '  // lowercase at the end of a block, long enough to count',
    '  // eslint-disable-next-line is a directive, not prose',
    '}',
    '// short, lowercase',
    '// foo.bar() reads as code',
    '',
  ].join('\n');
  assert.deepEqual(styleRules(text), [
    '2 capitalized-comments',
    '4 no-var',
    '4 semi',
    '5 arrow-parens',
    '5 eqeqeq',
    '6 space-before-function-paren',
    '7 func-style',
    '7 space-before-function-paren',
    '8 space-before-function-paren',
    '9 padding-line-between-statements',
    '10 object-curly-spacing',
    '11 dot-notation',
    '12 no-throw-literal',
    '15 capitalized-comments',
  ].sort());
});

it("reports the layout rules of Node's root config, and leaves Node's own layouts alone", () => {
  const text = [
    "'use strict';",
    'const a = 1, b = 2;',
    'const f = function() { return a; };',
    "const o = { 'x': a, y: b };",
    '//tight comment',
    'if(a) f(a,b);',
    'try{',
    '  f();',
    '}catch(e) {',
    '  f({ k:1 });',
    '}',
    'if (a) {',
    '  f();',
    '}',
    'else {',
    '  if (b) f();',
    '}',
    'const g = (x)=>x;',
    'function h(',
    '  x,',
    ')',
    '{',
    '  return g(x);',
    '}',
    '',
    'for (let i = 0, n = 2; i < n; i++) h(i);',
    'if (',
    '  a &&',
    '  b',
    ') {',
    '  h(o);',
    '} else if (b) {',
    '  h(b);',
    '}',
    '//------------',
    'try {',
    '  h(a);',
    '}',
    'catch {',
    '  h(b);',
    '} finally{',
    '  h(o);',
    '}',
    '',
  ].join('\n');
  assert.deepEqual(styleRules(text), [
    '2 one-var',
    '3 func-style',
    '4 quote-props',
    '5 spaced-comment',
    '6 comma-spacing',
    '6 keyword-spacing',
    '7 keyword-spacing',
    '9 keyword-spacing',
    '9 keyword-spacing',
    '10 key-spacing',
    '14 brace-style',
    '15 no-lonely-if',
    '18 arrow-spacing',
    '22 brace-style',
    '38 brace-style',
    '41 keyword-spacing',
    // try{ and finally{ also lack the space before their block.
    '7 space-before-blocks',
    '41 space-before-blocks',
  ].sort());
});

it("reports Node's lib-only rules, and honours Node's eslint-disable comments", () => {
  const text = [
    "'use strict';",
    '',
    "const { ERR_X, codes: { ERR_B, ERR_A } } = require('internal/errors');",
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
  ].sort());
});

it("reports Node's spacing around operators, parentheses, brackets and members", () => {
  const text = [
    "'use strict';",
    'const a = 1+2;',
    'const b = a ?a : 2;',
    'const c = a',
    '  + b;',
    'const d = Math.max (a, b);',
    'const e = Math.max( a, b);',
    'const f = new Map;',
    'const g = [a][ 0 ];',
    'const h = Math .max(a, b);',
    'const i = Math.',
    '  max(c, d);',
    'const j = `${ e }`;',
    'const k = [... [f]];',
    'if (a) {g(h);}',
    'if (b){',
    '  g(i, j, k);',
    '}',
    'const l = a +',
    '  b;',
    'g(l, Math.max(a, b), [a, b], { a }, `${a}`, [...[b]]);',
    '',
  ].join('\n');
  assert.deepEqual(styleRules(text), [
    '2 space-infix-ops',
    '3 space-infix-ops',
    '5 operator-linebreak',
    '6 func-call-spacing',
    '7 space-in-parens',
    '8 new-parens',
    '9 computed-property-spacing',
    '10 no-whitespace-before-property',
    '11 dot-location',
    '13 template-curly-spacing',
    '14 rest-spread-spacing',
    '15 block-spacing',
    '16 space-before-blocks',
  ].sort());
});
