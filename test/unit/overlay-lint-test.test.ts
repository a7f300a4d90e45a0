// The lint of the Node tests layers ship (tools/overlay/lint-test.ts): each
// rule fires on a test that breaks it and stays quiet on one written as
// Node's tests are. The shipped tests themselves are linted by `make lint`.
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { lintNodeTest } from '../../tools/overlay/lint-test.ts';

const CLEAN = [
  "'use strict';",
  '',
  "const common = require('../common');",
  "const assert = require('assert');",
  "const { ReadableStream } = require('stream/web');",
  '',
  '/**',
  ' * A JSDoc block may span lines.',
  ' */',
  'function chunks(n) {',
  '  const out = [];',
  '  for (let i = 0; i < n; i++) out.push(i);',
  '  return out;',
  '}',
  '',
  '(async () => {',
  '  let reads = 0;',
  '  const stream = new ReadableStream({ start: common.mustCall((c) => c.close()) });',
  '  for await (const chunk of stream) reads += chunk;',
  '  assert.strictEqual(reads, 0);',
  '  assert.deepStrictEqual(chunks(2), [',
  '    0,',
  '    1,',
  '  ]);',
  '  await assert.rejects(Promise.reject(new Error(\'x\')), /x/);',
  '  assert.throws(() => { throw new Error(\'y\'); }, { message: \'y\' });',
  '  const re = /\\/\\*/;',
  '  assert.ok(re.test(`/* ${reads}`));',
  '})().then(common.mustCall());',
  '',
].join('\n');

function rules(text: string): string[] {
  return lintNodeTest('test-x.js', text).map((f) => `${f.line} ${f.rule}`).sort();
}

it('is quiet on a test written as Node\'s are', () => {
  assert.deepEqual(lintNodeTest('test-x.js', CLEAN), []);
});

it('reports what Node\'s lint cannot parse: V8\'s natives syntax outside a string', () => {
  const text = "'use strict';\nrequire('../common');\nfunction young(v) {\n  return %InYoungGeneration(v);\n}\nyoung(1);\n";
  assert.ok(rules(text).includes('4 parse'), rules(text).join(', '));
  assert.deepEqual(rules(text.replace('return %InYoungGeneration(v);', "return new Function('v', 'return %IsYoung(v)')(v);")), []);
});

it('reports the file\'s header: strict mode, the common module and its place', () => {
  assert.deepEqual(rules("const assert = require('assert');\nrequire('../common');\nassert.ok(1);\n"),
    ['1 require-common-first', '1 strict']);
  assert.deepEqual(rules("'use strict';\nconst assert = require('assert');\nassert.ok(1);\n"), ['1 required-modules']);
  assert.deepEqual(rules("'use strict';\nrequire('../common/index.js');\n"), []);
});

it('reports each assertion form Node\'s test config restricts', () => {
  const text = [
    "'use strict';",
    "const common = require('../common');",
    "const assert = require('assert');",
    'const x = common.platformTimeout(1);',
    'assert(x === 1);',
    'assert.deepStrictEqual(x, 1);',
    'assert.deepStrictEqual(x, undefined);',
    "assert.strictEqual(x, 1, 'message');",
    'assert.strictEqual(1, x);',
    'assert.doesNotThrow(() => x);',
    'assert.throws(() => x);',
    "assert.throws(() => x, 'TypeError');",
    'assert.rejects(Promise.resolve(x), /y/);',
    'isNaN(x);',
    'common.mustCall(() => {});',
    'common.mustCall(() => x, 0);',
    '(async () => x)();',
    'common.mustCall(0);',
    'x.rejects(Promise.resolve(x), /y/);',
    '',
  ].join('\n');
  assert.deepEqual(rules(text), [
    '5 prefer-assert-methods',
    '6 no-restricted-syntax',
    '7 no-restricted-syntax',
    '8 no-restricted-syntax',
    '9 no-restricted-syntax',
    '10 no-restricted-syntax',
    '11 no-restricted-syntax',
    '12 no-restricted-syntax',
    '13 no-restricted-syntax',
    '14 no-restricted-syntax',
    '15 no-restricted-syntax',
    '16 prefer-common-mustnotcall',
    '17 async-iife-no-unused-result',
    '18 prefer-common-mustnotcall',
  ].sort());
});

it('reports block comments, lets never assigned again, unused names, dangling commas and formatting', () => {
  const text = [
    "'use strict';",
    "const common = require('../common');",
    '/* two',
    '   lines */',
    'let once = common.platformTimeout(1);',
    'const unused = 2;',
    'for (let k of [once]) common.mustCall(k);',
    'const list = [',
    '  once',
    '];',
    'common.mustCall({ once, },);',
    'const [a, b,] = [once, once];',
    "common.mustCall(a, b, \"double\");  ",
    '',
  ].join('\n');
  assert.deepEqual(rules(text), [
    '3 multiline-comment-style',
    '5 prefer-const',
    '6 no-unused-vars',
    '7 prefer-const',
    '8 no-unused-vars',
    '9 @stylistic/js/comma-dangle',
    '11 @stylistic/js/comma-dangle',
    '11 @stylistic/js/comma-dangle',
    '12 @stylistic/js/comma-dangle',
    '13 @stylistic/js/no-trailing-spaces',
    '13 @stylistic/js/quotes',
  ].sort());
});

it('reports assertions in callbacks no mustCall() counts, and .then() chains that do not end in one', () => {
  const text = [
    "'use strict';",
    "const common = require('../common');",
    "const assert = require('assert');",
    "const { strictEqual } = require('assert');",
    'const p = Promise.resolve(1);',
    'p.then((v) => { assert.strictEqual(v, 1); });',
    'p.then(common.mustNotCall(), common.mustCall());',
    'p.then(common.mustCall((v) => assert.strictEqual(v, 1)));',
    'p.then(common.mustCall((v) => { assert.strictEqual(v, 1); }));',
    'const sink = { write(chunk) { assert.ok(chunk); } };',
    'const wrapped = { write: common.mustCall((chunk) => { assert.ok(chunk); }) };',
    '[1, 2].forEach((x) => assert.ok(x));',
    'new Promise((resolve) => { assert.ok(resolve); resolve(); }).then(common.mustCall());',
    'function helper(x) {',
    '  assert.ok(x);',
    '}',
    'helper(sink, wrapped, strictEqual);',
    '',
  ].join('\n');
  assert.deepEqual(rules(text), [
    '10 must-call-assert',
    '4 must-call-assert',
    // An assertion in a .then() callback is counted by the chain's end, which is missing here.
    '6 must-call-assert',
    '7 must-call-assert',
    '8 must-call-assert',
  ]);
});

it('with nestedMustCall, counts a mustCall() in a callback no mustCall() counts as an assertion', () => {
  const text = [
    "'use strict';",
    "const common = require('../common');",
    'const run = (fn) => fn();',
    'run(() => common.mustCall()());',
    'run(common.mustCall(() => common.mustCall()()));',
    'const make = () => ({ flush: common.mustCallAtLeast((c) => c) });',
    'run(() => [1].forEach(() => common.mustCall()()));',
    'make();',
    '',
  ].join('\n');
  const nested = (t: string) => lintNodeTest('test-x.js', t, { nestedMustCall: true }).map((f) => `${f.line} ${f.rule}`);
  assert.deepEqual(nested(text), ['4 must-call-assert', '6 must-call-assert', '7 must-call-assert']);
  assert.deepEqual(rules(text), []);
});

it("honours ESLint's block and file-wide directives for Node's own rules", () => {
  const body = "const assert = require('assert');\nassert.ok(1);\n";
  assert.deepEqual(rules(`'use strict';\n${body}`), ['1 required-modules']);
  assert.deepEqual(rules(`/* eslint-disable node-core/required-modules */\n'use strict';\n${body}`), []);
  assert.deepEqual(rules(`'use strict';\n/* eslint node-core/required-modules: 0 */\n${body}`), []);
  const block = ['/* eslint-disable node-core/must-call-assert */', 'setImmediate(() => assert.ok(1));',
                 '/* eslint-enable node-core/must-call-assert */', 'setImmediate(() => assert.ok(2));'];
  assert.deepEqual(rules(`'use strict';\nrequire('../common');\n${body}${block.join('\n')}\n`), ['8 must-call-assert']);
});

it('prefers common.mustSucceed() and assert.ifError() where Node does', () => {
  const text = [
    "'use strict';",
    "const common = require('../common');",
    "const assert = require('assert');",
    'const fs = require(\'fs\');',
    'fs.stat(__filename, common.mustCall(assert.ifError));',
    'fs.stat(__filename, common.mustCall((err, st) => { assert.ifError(err); assert.ok(st); }));',
    'fs.stat(__filename, common.mustCall(function(err) { { return assert.ifError(err); } }));',
    'fs.stat(__filename, common.mustCall((err) => assert.ifError(err)));',
    'fs.stat(__filename, common.mustCall((e, st) => { assert.ifError(st); }));',
    'fs.stat(__filename, common.mustCall((err, st) => { assert.ok(st); assert.ifError(err); }));',
    'fs.stat(__filename, (err) => {',
    '  if (err) throw err;',
    '  if ((err)) { throw (err); }',
    '  if (err.code) throw err;',
    '});',
    '',
  ].join('\n');
  assert.deepEqual(rules(text), [
    '5 prefer-common-mustsucceed',
    '6 prefer-common-mustsucceed',
    '7 prefer-common-mustsucceed',
    '8 prefer-common-mustsucceed',
    '12 prefer-assert-iferror',
    '13 prefer-assert-iferror',
  ].sort());
});

it("holds tests to Node's rules for every file, but for no-duplicate-requires, which test/ turns off", () => {
  const text = "'use strict';\nrequire('../common');\nconst a = require('assert');\nconst b = require('assert');\n" +
    'if (a && a.ok) b.ok(Object.create(null));\n';
  assert.deepEqual(rules(text), ['3 must-call-assert', '4 must-call-assert', '5 prefer-optional-chaining', '5 prefer-proto']);
});

it('reports a test that loads crypto, the inspector or ESLint without a way to skip where the build has none', () => {
  const head = "'use strict';\nconst common = require('../common');\n";
  const skip = "if (!common.hasCrypto)\n  common.skip('missing crypto');\n";
  assert.deepEqual(rules(`${head}const crypto = require('crypto');\ncommon.mustCall(crypto);\n`), ['3 crypto-check']);
  assert.deepEqual(rules(`${head}${skip}const crypto = require('crypto');\ncommon.mustCall(crypto);\n`), []);
  // A load before the check: the check comes too late for it.
  assert.deepEqual(rules(`${head}const tls = require('tls');\n${skip}common.mustCall(tls);\n`), ['3 crypto-check']);
  // A check that guards no skip: Node reports the check (its test and its member).
  assert.deepEqual(rules(`${head}if (!common.hasCrypto)\n  common.mustCall();\ncommon.mustCall(process.binding('http2'));\n`),
                   ['3 crypto-check', '3 crypto-check']);
  assert.deepEqual(rules(`${head}const { Session } = require('inspector');\ncommon.mustCall(Session);\n`), ['3 inspector-check']);
  assert.deepEqual(rules(`${head}common.skipIfInspectorDisabled();\nconst { Session } = require('inspector');\ncommon.mustCall(Session);\n`), []);
  const eslint = "const { RuleTester } = require('../../tools/eslint/node_modules/eslint');\ncommon.mustCall(RuleTester);\n";
  assert.deepEqual(rules(`${head}${eslint}`), ['3 eslint-check']);
  assert.deepEqual(rules(`${head}common.skipIfEslintMissing();\n${eslint}`), []);
});
