// The splicer: each splice kind on a small Node-style module, and that text
// a layer does not touch stays byte for byte.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { applyLayers } from '../../tools/overlay/apply.ts';
import { FAKE_ID, FAKE_MODULE, fakeModules, overlayRoot } from '../helpers/overlay.ts';

function apply(files: Record<string, string>): string {
  const { layers } = overlayRoot({ '01-test': files });
  return applyLayers(fakeModules(), layers, { checkDeclarations: false }).modules.get(FAKE_ID)!;
}

/** Removes `needle` (exactly once) from `text`: what the module looks like minus a replaced part. */
function without(text: string, needle: string): string {
  const at = text.indexOf(needle);
  assert.ok(at >= 0 && text.indexOf(needle, at + 1) < 0, `expected exactly one ${JSON.stringify(needle)}`);
  return text.slice(0, at) + text.slice(at + needle.length);
}

describe('overlay splicing', () => {
  it('replaces a function in place, keeping the base comment when the layer has none', () => {
    const out = apply({ 'readablestream.ts': 'function double(n: number): number {\n  return n + n;\n}\n' });
    assert.equal(out, FAKE_MODULE.replace('  return n * 2;\n', '  return n + n;\n'));
  });

  it("replaces the base comment with the layer's own", () => {
    const out = apply({ 'readablestream.ts': '// Doubles, by addition.\nfunction double(n: number): number {\n  return n + n;\n}\n' });
    assert.equal(out, FAKE_MODULE.replace('/**\n * Doubles a number.\n */\nfunction double(n) {\n  return n * 2;\n}',
      '// Doubles, by addition.\nfunction double(n) {\n  return n + n;\n}'));
  });

  it('adds a new function before module.exports and exports it', () => {
    const out = apply({ 'readablestream.ts': 'export function triple(n: number): number {\n  return n * 3;\n}\n' });
    assert.equal(out, FAKE_MODULE
      .replace('module.exports = {', 'function triple(n) {\n  return n * 3;\n}\n\nmodule.exports = {')
      .replace('  settle,\n};', '  settle,\n  triple,\n};'));
  });

  it('adds a new const at the end of the prologue, and honours @overlay-after', () => {
    const out = apply({
      'readablestream.ts': 'const kLimit = 16;\n\n// @overlay-after unrelated\nfunction helper(): number {\n  return kLimit;\n}\n',
    });
    assert.equal(out, FAKE_MODULE
      .replace('let counter = 0;\n', 'let counter = 0;\n\nconst kLimit = 16;\n')
      .replace('  return MathMax(1, counter);\n}\n', '  return MathMax(1, counter);\n}\n\nfunction helper() {\n  return kLimit;\n}\n'));
  });

  it('puts a new let in the place of the prologue declaration the layer removes', () => {
    const out = apply({
      'readablestream.ts': '// @overlay-remove counter\nlet total = 0;\n\nfunction unrelated(): number {\n  return total;\n}\n',
    });
    assert.equal(out, FAKE_MODULE
      .replace('let counter = 0;\n', 'let total = 0;\n')
      .replace('  return MathMax(1, counter);\n', '  return total;\n')
      .replace('  MathMax,\n', ''));
  });

  it('replaces constants by functions in place on @overlay-replace, a blank line apart', () => {
    const base = FAKE_MODULE.replace("const kSkip = Symbol('kSkip');\n",
      "const kSkip = Symbol('kSkip');\nconst isSkip =\n  (value) => value === 'skip';\nconst isNotSkip =\n  (value) => value !== 'skip';\n");
    const { layers } = overlayRoot({
      '01-test': {
        'readablestream.ts': [
          '// @overlay-replace',
          'function isSkip(value: unknown): boolean {',
          "  return value === 'skip';",
          '}',
          '',
          '// @overlay-replace',
          'function isNotSkip(value: unknown): boolean {',
          "  return value !== 'skip';",
          '}',
          '',
        ].join('\n'),
      },
    });
    const out = applyLayers(fakeModules(base), layers, { checkDeclarations: false }).modules.get(FAKE_ID)!;
    assert.equal(out, FAKE_MODULE.replace("const kSkip = Symbol('kSkip');\n",
      "const kSkip = Symbol('kSkip');\nfunction isSkip(value) {\n  return value === 'skip';\n}\n\n" +
      "function isNotSkip(value) {\n  return value !== 'skip';\n}\n"));
  });

  it('replaces a top-level let', () => {
    const out = apply({ 'readablestream.ts': 'let counter = 1;\n' });
    assert.equal(out, FAKE_MODULE.replace('let counter = 0;', 'let counter = 1;'));
  });

  it('merges a class member by member: replace, add (marked), remove', () => {
    const out = apply({
      'readablestream.ts': [
        "import { kState } from 'internal/webstreams/util';",
        'class Widget {',
        '  declare [kState]: { size: number };',
        '',
        '  grow(): void {',
        '    this[kState].size += 2;',
        '  }',
        '',
        '  // @overlay-add',
        '  /** Empties it. */',
        '  reset(): void {',
        '    this[kState].size = 0;',
        '  }',
        '',
        '  // @overlay-remove get size',
        '}',
        '',
      ].join('\n'),
    });
    let expected = without(FAKE_MODULE, '  /**\n   * @type {number}\n   */\n  get size() {\n    return this[kState].size;\n  }\n\n');
    expected = expected.replace('    this[kState].size++;\n  }\n}', '    this[kState].size += 2;\n  }\n\n  /** Empties it. */\n  reset() {\n    this[kState].size = 0;\n  }\n}');
    assert.equal(out, expected);
  });

  it('appends added fields as one block: a blank line only after a method or before a comment', () => {
    const out = apply({
      'readablestream.ts': [
        'class Widget {',
        '  // @overlay-add',
        '  width = 1;',
        '  // @overlay-add',
        '  height = 2;',
        '  // @overlay-add',
        '  // Set by grow().',
        '  depth = 3;',
        '}',
        '',
      ].join('\n'),
    });
    const end = '    this[kState].size++;\n  }\n}';
    assert.equal(out, FAKE_MODULE.replace(end,
      '    this[kState].size++;\n  }\n\n  width = 1;\n  height = 2;\n\n  // Set by grow().\n  depth = 3;\n}'));
  });

  it('removes a declaration on @overlay-remove, with its module.exports entry', () => {
    const out = apply({ 'readablestream.ts': '// @overlay-remove unrelated\n' });
    let expected = without(FAKE_MODULE, 'function unrelated() {\n  return MathMax(1, counter);\n}\n\n');
    expected = without(expected, '  unrelated,\n');
    // MathMax was used only there: the header loses it too.
    expected = without(expected, '  MathMax,\n');
    assert.equal(out, expected);
  });

  it('turns imports into require destructuring entries (existing list, ERR_ codes, new require)', () => {
    const out = apply({
      'readablestream.ts': [
        "import { kState, Queue } from 'internal/webstreams/util';",
        "import { ERR_INVALID_STATE } from 'internal/errors';",
        "import { validateObject } from 'internal/validators';",
        'export function check(value: unknown): number {',
        "  validateObject(value, 'value');",
        "  if (value === null) throw new ERR_INVALID_STATE('x');",
        '  return new Queue().length + (kState ? 1 : 0);',
        '}',
        '',
      ].join('\n'),
    });
    assert.ok(out.includes('const {\n  codes: {\n    ERR_INVALID_ARG_VALUE,\n    ERR_INVALID_STATE,\n  },\n} = require(\'internal/errors\');'), out);
    assert.ok(out.includes("const {\n  Queue,\n  kState,\n  kType,\n} = require('internal/webstreams/util');") ||
      out.includes("const {\n  kState,\n  kType,\n  Queue,\n} = require('internal/webstreams/util');"), out);
    assert.ok(out.includes("const { validateObject } = require('internal/validators');\n"), out);
  });

  it('splices a module first when another file of the same layer imports what it adds', () => {
    const { layers } = overlayRoot({
      '01-test': {
        'readablestream.ts': "import { kDeferredStart } from 'internal/webstreams/util';\nexport function deferred(): symbol {\n  return kDeferredStart;\n}\n",
        'util.ts': "export const kDeferredStart = Symbol('kDeferredStart');\n",
      },
    });
    const out = applyLayers(fakeModules(), layers, { checkDeclarations: false }).modules;
    assert.match(out.get('internal/webstreams/util')!, /\n  kDeferredStart,\n\};/);
    assert.match(out.get(FAKE_ID)!, /\n  kDeferredStart,\n  kState,\n  kType,\n\} = require\('internal\/webstreams\/util'\);/);
  });

  it('replaces a removed function by an internalBinding entry it exports again', () => {
    const out = apply({
      'readablestream.ts': "// @overlay-remove double\nconst { isPromise: double } = internalBinding('types');\n\nexport { double };\n",
    });
    assert.ok(!out.includes('function double('), out);
    assert.ok(out.includes("const { isPromise: double } = internalBinding('types');\n"), out);
    assert.match(out, /module\.exports = \{[^}]*\n  double,\n/);
  });

  it('merges a layer destructuring of internalBinding into a new statement', () => {
    const out = apply({
      'readablestream.ts': "const { isPromise } = internalBinding('types');\nexport function plain(v: unknown): boolean {\n  return isPromise(v);\n}\n",
    });
    assert.ok(out.includes("const { isPromise } = internalBinding('types');\n"), out);
  });

  it('leaves every untouched byte alone (only the replaced function differs)', () => {
    const out = apply({
      'readablestream.ts': "import { ERR_INVALID_ARG_VALUE } from 'internal/errors';\n" +
        'function settle(): Promise<symbol> {\n' +
        "  if (counter < 0) throw new ERR_INVALID_ARG_VALUE('counter', counter);\n" +
        '  return Promise.resolve(kSkip);\n}\ndeclare const kSkip: unique symbol;\ndeclare let counter: number;\n',
    });
    // Idiomatic Promise.resolve becomes the PromiseResolve the base already uses: no change at all.
    assert.equal(out, FAKE_MODULE);
  });
});
