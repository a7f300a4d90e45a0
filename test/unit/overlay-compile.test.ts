// Errors that name layer/file/line, the type-driven primordials rewrite
// (non-trivial, unknown receivers, idempotence), header upkeep and type
// stripping that keeps the layer's formatting.
import assert from 'node:assert/strict';
import { stripTypeScriptTypes } from 'node:module';
import { describe, it } from 'node:test';
import { applyLayers } from '../../tools/overlay/apply.ts';
import { FAKE_ID, FAKE_MODULE, fakeModules, overlayRoot } from '../helpers/overlay.ts';

function run(files: Record<string, string>, name = '01-test') {
  const { layers } = overlayRoot({ [name]: files });
  return applyLayers(fakeModules(), layers, { checkDeclarations: false });
}
const out = (files: Record<string, string>) => run(files).modules.get(FAKE_ID)!;

function throwsAt(files: Record<string, string>, line: number, message: RegExp): void {
  assert.throws(() => run(files, '01-broken'), (err: Error) => {
    assert.match(err.message, /layer 01-broken: /);
    assert.match(err.message, new RegExp(`01-broken/readablestream\\.ts:${line}: `));
    assert.match(err.message, message);
    return true;
  });
}

describe('overlay errors name layer, file and line', () => {
  it('replacing a class member that does not exist', () => {
    throwsAt({ 'readablestream.ts': 'class Widget {\n  shrink(): void {}\n}\n' }, 2, /Widget has no member 'shrink' to replace/);
  });
  it('a removal marker for a missing name', () => {
    throwsAt({ 'readablestream.ts': '\n// @overlay-remove nothingHere\n' }, 2, /has no top-level 'nothingHere'/);
  });
  it('a class merge onto a module without the class', () => {
    throwsAt({ 'readablestream.ts': 'class Gadget {\n  // @overlay-add\n  size = 0;\n}\n' }, 1, /has no class 'Gadget' to merge into/);
    throwsAt({ 'readablestream.ts': 'class Gadget {\n  // @overlay-remove get nope\n  size = 0;\n}\n' }, 1, /has no class 'Gadget' to merge into/);
    // A new class, its members unmarked, is added as it is.
    assert.match(out({ 'readablestream.ts': 'class Gadget {\n  size = 0;\n}\n' }), /^class Gadget \{\n  size = 0;\n\}$/m);
  });
  it('a removal marker for a missing class member', () => {
    throwsAt({ 'readablestream.ts': 'class Widget {\n  // @overlay-remove get nope\n}\n' }, 2, /no member 'get nope' to remove/);
  });
  it('@overlay-replace of a missing function, @overlay-add of an existing one', () => {
    throwsAt({ 'readablestream.ts': '// @overlay-replace\nfunction quadruple(): void {}\n' }, 2, /no top-level 'quadruple' to replace/);
    throwsAt({ 'readablestream.ts': '// @overlay-add\nfunction double(): void {}\n' }, 2, /already has 'double'/);
  });
  it('a function in place of a constant without @overlay-replace', () => {
    throwsAt({ 'readablestream.ts': '\nfunction kSkip(): void {}\n' }, 2, /'kSkip' is a variable .* mark it \/\/ @overlay-replace/);
  });
  it('importing a name another webstreams module does not export', () => {
    throwsAt({ 'readablestream.ts': "import { kState } from 'internal/webstreams/util';\nimport { dequeueValue } from 'internal/webstreams/util';\nexport function f(): unknown {\n  return [kState, dequeueValue];\n}\n" },
      2, /does not export 'dequeueValue'/);
  });
  it('a self-import of a name the module lacks', () => {
    throwsAt({ 'readablestream.ts': "\nimport { readableStreamClose } from 'internal/webstreams/readablestream';\nexport function f(): unknown {\n  return readableStreamClose;\n}\n" },
      2, /has no top-level 'readableStreamClose'/);
  });
  it('statements that have no name', () => {
    throwsAt({ 'readablestream.ts': 'const a: number[] = [];\na.push(1);\n' }, 2, /declarations only/);
  });
  it('type errors stop the build with the file and line', () => {
    assert.throws(() => run({ 'readablestream.ts': 'export function f(n: number): string {\n  return n;\n}\n' }),
      /readablestream\.ts\(2,3\): error TS2322/);
  });
  it('a directive inside a function body', () => {
    throwsAt({ 'readablestream.ts': 'function double(): void {\n  // @overlay-remove x\n}\n' }, 2, /directives belong at top level/);
  });
});

describe('primordials rewrite', () => {
  const IDIOMATIC = [
    "import { kState } from 'internal/webstreams/util';",
    '',
    'interface Queue { shift(): unknown; push(v: unknown): void }',
    '',
    '/** Collects what is pending, idiomatically. */',
    'export function collect(items: string[], queue: Queue, extra: any): string[] {',
    '  const out: string[] = [];',
    '  const seen = new Map<string, number>();',
    '  for (const key of Object.keys(kState ? {} : { a: 1 })) out.push(key);',
    '  items.forEach((item, i) => seen.set(item, i));',
    '  queue.push(out.length);',
    '  extra.push(seen.size);',
    '  void Promise.resolve(seen.size).then((n) => n + 1, () => 0).catch(() => {});',
    '  const iter = Symbol.asyncIterator;',
    '  return Array.isArray(items) && typeof iter === "symbol" ? out.slice(0) : [];',
    '}',
    '',
  ].join('\n');

  it('turns idiomatic code into primordials and updates the header (sorted)', () => {
    const result = run({ 'readablestream.ts': IDIOMATIC });
    const text = result.modules.get(FAKE_ID)!;
    const body = text.slice(text.indexOf('/** Collects'), text.indexOf('module.exports'));
    assert.equal(body, [
      '/** Collects what is pending, idiomatically. */',
      'function collect(items, queue, extra) {',
      '  const out = [];',
      '  const seen = new SafeMap();',
      '  for (const key of ObjectKeys(kState ? {} : { a: 1 })) ArrayPrototypePush(out, key);',
      '  ArrayPrototypeForEach(items, (item, i) => MapPrototypeSet(seen, item, i));',
      '  queue.push(out.length);',
      '  extra.push(MapPrototypeGetSize(seen));',
      '  void PromisePrototypeThen(PromisePrototypeThen(PromiseResolve(MapPrototypeGetSize(seen)), (n) => n + 1, () => 0), undefined, () => {});',
      '  const iter = SymbolAsyncIterator;',
      '  return ArrayIsArray(items) && typeof iter === "symbol" ? ArrayPrototypeSlice(out, 0) : [];',
      '}',
      '',
      '',
    ].join('\n'));
    const header = text.slice(text.indexOf('const {'), text.indexOf('} = primordials;'));
    assert.equal(header, 'const {\n' + [
      'ArrayIsArray', 'ArrayPrototypeForEach', 'ArrayPrototypePush', 'ArrayPrototypeSlice', 'MapPrototypeGetSize',
      'MapPrototypeSet', 'MathMax', 'ObjectKeys', 'PromisePrototypeThen', 'PromiseResolve', 'SafeMap', 'Symbol',
      'SymbolAsyncIterator',
    ].map((n) => `  ${n},\n`).join(''));
    // The `any` receiver is left and reported; the typed Queue is left silently.
    const notes = result.layers[0].notes.map((n) => n.message);
    assert.equal(notes.length, 1, notes.join('\n'));
    assert.match(notes[0], /left `extra\.push\(…\)` as written: the receiver's type is any/);
  });

  it('is idempotent: code already in primordials style passes through unchanged', () => {
    const styled = [
      'const { ArrayPrototypePush, MathMax } = primordials;',
      'function pushTwice(list: unknown[], value: unknown): void {',
      '  ArrayPrototypePush(list, value);',
      '  ArrayPrototypePush(list, value);',
      '}',
      'function unrelated(): number {',
      '  return MathMax(1, 0);',
      '}',
      '',
    ].join('\n');
    const once = out({ 'readablestream.ts': styled });
    assert.equal(once, FAKE_MODULE.replace('MathMax(1, counter)', 'MathMax(1, 0)'));
    // The idiomatic spelling of the same code compiles to the same text.
    const idiomatic = out({ 'readablestream.ts': styled.replace(/ArrayPrototypePush\(list, value\)/g, 'list.push(value)').replace('MathMax(1, 0)', 'Math.max(1, 0)').replace(/^const .*\n/, '') });
    assert.equal(idiomatic, once);
  });

  it('drops only header entries the layer made unused', () => {
    // MathMax loses its one use; Symbol stays (still used), PromiseResolve stays.
    const text = out({ 'readablestream.ts': 'function unrelated(): number {\n  return 1;\n}\n' });
    assert.ok(!text.includes('  MathMax,\n'));
    assert.ok(text.includes('  Symbol,\n') && text.includes('  PromiseResolve,\n'));
    // An entry the base already leaves unused is not the layer's to drop.
    const base = FAKE_MODULE.replace('  PromiseResolve,\n', '  PromiseResolve,\n  ReflectApply,\n');
    const { layers } = overlayRoot({ '01-x': { 'readablestream.ts': 'function unrelated(): number {\n  return 1;\n}\n' } });
    const kept = applyLayers(fakeModules(base), layers, { checkDeclarations: false }).modules.get(FAKE_ID)!;
    assert.ok(kept.includes('  ReflectApply,\n'));
  });
});

describe('type stripping', () => {
  const TYPED = [
    "import { kState } from 'internal/webstreams/util';",
    '',
    'type Pair<T> = [T, T];',
    '',
    '// A comment the output keeps.',
    'export function typed<T extends object>(',
    '  first: T,   // aligned comment',
    '  second?: T,',
    '): Pair<T | undefined> {',
    '  /* inline */ const pair = [first, second] as Pair<T | undefined>;',
    '',
    '  let n!: number;',
    '  n = (pair satisfies unknown[]).length;',
    '  const f = <U,>(x: U): U => x;',
    '  const callbacks = new Array<() => void>();',
    '  return f<Pair<T | undefined>>(n > 0 && kState && callbacks ? pair! : pair);',
    '}',
    '',
  ].join('\n');

  it("keeps the layer's formatting and comments, removing only type syntax", () => {
    const text = out({ 'readablestream.ts': TYPED });
    const body = text.slice(text.indexOf('// A comment'), text.indexOf('module.exports'));
    assert.equal(body, [
      '// A comment the output keeps.',
      'function typed(',
      '  first,   // aligned comment',
      '  second,',
      ') {',
      '  /* inline */ const pair = [first, second];',
      '',
      '  let n;',
      '  n = (pair).length;',
      '  const f = (x) => x;',
      '  const callbacks = new Array();',
      '  return f(n > 0 && kState && callbacks ? pair : pair);',
      '}',
      '',
      '',
    ].join('\n'));
  });

  it("removes the same tokens as Node's own type stripper", () => {
    const text = out({ 'readablestream.ts': TYPED });
    const mine = text.slice(text.indexOf('function typed'), text.indexOf('module.exports'));
    const source = TYPED.slice(TYPED.indexOf('export function typed') + 'export '.length);
    const node = stripTypeScriptTypes(source, { mode: 'strip' });
    const tokens = (s: string) => s.replace(/\s+/g, '');
    assert.equal(tokens(mine), tokens(node));
  });
});
