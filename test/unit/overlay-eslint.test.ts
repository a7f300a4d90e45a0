// The stock part of Node's lint, run by ESLint: the config carries Node's
// options (what these cases pin), and lib/ and test/ differ where Node's
// partial configs make them differ.
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { eslintFindings } from '../../tools/overlay/eslint.ts';

function rules(file: string, text: string, scope: 'lib' | 'test'): string[] {
  return eslintFindings(file, text, scope).map((f) => `${f.line} ${f.rule}`).sort();
}

const lib = (text: string) => rules('lib/internal/webstreams/x.js', text, 'lib');
const test = (text: string) => rules('test/parallel/test-x.js', text, 'test');

it('is quiet on lib code written as Node writes it', () => {
  const text = [
    "'use strict';",
    '',
    'const {',
    '  ObjectFreeze,',
    '} = primordials;',
    '',
    'class Box {',
    '  constructor(value) {',
    '    this.value = value;',
    '  }',
    '}',
    '',
    'function make(value, { frozen } = {}) {',
    '  const box = new Box(value);',
    '  return frozen ?',
    '    ObjectFreeze(box) :',
    '    box;',
    '}',
    '',
    'module.exports = { make };',
    '',
  ].join('\n');
  assert.deepEqual(lib(text), []);
});

it("reports the root config's rules with Node's options: indentation, spacing, classes before use, comments", () => {
  const text = [
    "'use strict';",
    '',
    'function make(value) {',
    '   return new Box(value);',
    '}',
    '',
    'class Box {',
    '  constructor(value) {',
    '    this.value =  value;',
    '  }',
    '}',
    '',
    '// ' + 'x'.repeat(118),
    'module.exports = { make };',
    '',
  ].join('\n');
  assert.deepEqual(lib(text), [
    '13 @stylistic/js/max-len',
    '13 capitalized-comments',
    '4 @stylistic/js/indent',
    '4 no-use-before-define',
    '9 @stylistic/js/no-multi-spaces',
  ]);
});

it("gives lib/ only its module wrapper's globals, and test/ Node's", () => {
  const text = "'use strict';\nrequire('../common');\nsetTimeout(() => {}, 1);\n";
  assert.deepEqual(lib(text), ['3 no-restricted-globals', '3 no-undef']);
  assert.deepEqual(test(text), []);
});

it("reports what lib/'s no-restricted-syntax forbids, with Node's selectors", () => {
  const text = [
    "'use strict';",
    "const assert = require('internal/assert');",
    "const { AbortError, codes: { ERR_SYSTEM_ERROR, ERR_X } } = require('internal/errors');",
    'function f(s, x) {',
    '  assert.ok(s);',
    '  assert.strictEqual(s, 1);',
    '  Error.captureStackTrace(x);',
    '  Error.prepareStackTrace = x;',
    '  if (x) throw new TypeError(s);',
    '  if (x) throw new AbortError(s);',
    '  if (!x) throw Error(s);',
    '  if (!s) throw new ERR_SYSTEM_ERROR({ code: 1, syscall: s });',
    "  if (!s) throw new ERR_X({ code: 1, syscall: s, message: 'm' });",
    '  return s.substr(1) + x.btoa(s);',
    '}',
    'module.exports = { f };',
    '',
  ].join('\n');
  assert.deepEqual(lib(text), [
    '6 no-restricted-syntax', '7 no-restricted-syntax', '8 no-restricted-syntax', '9 no-restricted-syntax',
    '11 no-restricted-syntax', '12 no-restricted-syntax', '14 no-restricted-syntax', '14 no-restricted-syntax',
    // AbortError is one of Node's own: line 10 is allowed, as is an ERR_ context with all three keys.
  ].sort());
});

it("holds test/parallel to its own comma-dangle, and test/ to const and // comments", () => {
  const text = [
    "'use strict';",
    "require('../common');",
    '/* A block comment',
    '   of two lines. */',
    'let list = [',
    '  1,',
    '  2',
    '];',
    'const object = {',
    '  list',
    '};',
    'list.push(object);',
    '',
  ].join('\n');
  assert.deepEqual(test(text), [
    '3 multiline-comment-style',
    '5 prefer-const',
    '7 @stylistic/js/comma-dangle',
  ]);
});

it("reports a file ESLint cannot parse, and leaves directives for Node's own rules alone", () => {
  assert.deepEqual(test("'use strict';\nrequire('../common');\n%DebugPrint(1);\n"), ['3 parse']);
  const directive = "'use strict';\nrequire('../common');\n// eslint-disable-next-line node-core/must-call-assert\nsetTimeout(() => {}, 1);\n";
  assert.deepEqual(test(directive), []);
});

it("runs the jsdoc plugin's recommended rules, less those Node turns off", () => {
  const text = [
    "'use strict';",
    '',
    '/**',
    ' * @param {number} size',
    ' */',
    'function grow(length) {',
    '  return length;',
    '}',
    '',
    'module.exports = { grow };',
    '',
  ].join('\n');
  assert.deepEqual(lib(text), ['4 jsdoc/check-param-names']);
  // Without @param tags at all: Node turns require-param off.
  assert.deepEqual(lib(text.replace(' * @param {number} size', ' * Grows.')), []);
});
