// The Node-style lint: each rule fires on code that breaks it, and stays
// quiet on the unmodified base (checked by the lint suite itself).
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { lintModule } from '../../tools/overlay/lint.ts';

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
  const found = lintModule('internal/webstreams/x', text).map((f) => `${f.line} ${f.rule}`);
  assert.deepEqual(found.sort(), [
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
