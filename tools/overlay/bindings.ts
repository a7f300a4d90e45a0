// Everything around the declarations: overlay imports become entries of the
// module's require(...) destructurings, internalBinding(...) destructurings
// merge, the `const { … } = primordials;` header gains what the layer's code
// needs (sorted) and loses what the layer left unused, module.exports gains
// the layer's exports.
import type { CompiledFile } from './compile.ts';
import { addEntries, newDestructuring, removeEntries, type NewEntry } from './destructure.ts';
import { applyEdits, type Edit } from './edits.ts';
import { OverlayError, type Where } from './errors.ts';
import { lineRemoval } from './lines.ts';
import { entryKey, findDestructuring, indexModule, type ModuleIndex } from './module-index.ts';
import { MODULE_PREFIX, type Modules } from '../lib/libdir.ts';
import { attachedStart, lineStart, nextLineStart, referencedNames, ts } from './ts.ts';

interface Wanted {
  source: string;
  /** Nested pattern key (`codes` for ERR_* from internal/errors). */
  nest?: string;
  entry: NewEntry;
  where: Where;
}

/** `const { codes: { ERR_X } } = require('internal/errors')` is how Node lib code takes error classes. */
function nestFor(module: string, name: string): string | undefined {
  return module === 'internal/errors' && /^ERR_[A-Z0-9_]+$/.test(name) ? 'codes' : undefined;
}

function entryText(prop: string, local: string): string {
  return prop === local ? prop : `${prop}: ${local}`;
}

/** Where `local` is bound by `source`'s destructuring with property `prop` (and nest). */
function boundBy(idx: ModuleIndex, source: string, prop: string, local: string, nest?: string): boolean {
  const d = findDestructuring(idx, source);
  if (!d) return false;
  let els = d.pattern.elements;
  if (nest) {
    const n = els.find((el) => entryKey(el) === nest && ts.isObjectBindingPattern(el.name));
    if (!n) return false;
    els = (n.name as ts.ObjectBindingPattern).elements;
  }
  return els.some((el) => entryKey(el) === prop && ts.isIdentifier(el.name) && el.name.text === local);
}

/** Names `module` exports, if it is a webstreams module we have the text of. */
function exportsOf(modules: Modules, module: string): Map<string, string | undefined> | undefined {
  const text = modules.get(module);
  return text === undefined ? undefined : indexModule(text, module).exports?.keys;
}

function addWanted(text: string, wanted: Wanted[]): string {
  const idx = indexModule(text);
  const edits: Edit[] = [];
  const fresh = new Map<string, Wanted[]>();
  const bySource = new Map<string, Wanted[]>();
  for (const w of wanted) bySource.set(w.source, [...(bySource.get(w.source) ?? []), w]);
  for (const [source, ws] of bySource) {
    const d = findDestructuring(idx, source);
    if (!d) {
      fresh.set(source, ws);
      continue;
    }
    const flat = ws.filter((w) => !w.nest).map((w) => w.entry);
    const sorted = source === 'primordials' ? 'always' : 'auto';
    edits.push(...addEntries(idx.sf, d.pattern, flat, sorted));
    const nested = new Map<string, NewEntry[]>();
    for (const w of ws.filter((x) => x.nest)) nested.set(w.nest!, [...(nested.get(w.nest!) ?? []), w.entry]);
    for (const [nest, entries] of nested) {
      const el = d.pattern.elements.find((e) => entryKey(e) === nest && ts.isObjectBindingPattern(e.name));
      if (el) edits.push(...addEntries(idx.sf, el.name as ts.ObjectBindingPattern, entries, 'auto'));
      else {
        const block = `${nest}: {\n${entries.map((e) => `  ${e.text},`).join('\n')}\n}`;
        edits.push(...addEntries(idx.sf, d.pattern, [{ key: nest, text: block }], 'auto'));
      }
    }
  }
  for (const [source, ws] of fresh) {
    const flat = ws.filter((w) => !w.nest).map((w) => w.entry);
    const nests = [...new Set(ws.filter((w) => w.nest).map((w) => w.nest!))].map((nest) => ({
      key: nest,
      text: `${nest}: {\n${ws.filter((w) => w.nest === nest).map((w) => `  ${w.entry.text},`).join('\n')}\n}`,
    }));
    const stmt = newDestructuring([...flat, ...nests], source);
    if (source === 'primordials') {
      // A module without a header gets one right after 'use strict'.
      const first = idx.sf.statements[0];
      const useStrict = first && ts.isExpressionStatement(first) && ts.isStringLiteral(first.expression);
      const at = useStrict ? nextLineStart(text, first.end) : 0;
      edits.push({ start: at, end: at, text: useStrict ? `\n${stmt}\n` : `${stmt}\n\n` });
    } else {
      const after = idx.requireBlockEnd ?? idx.sf.statements.find((s) => ts.isExpressionStatement(s) && ts.isStringLiteral(s.expression));
      const at = after ? nextLineStart(text, after.end) : 0;
      edits.push({ start: at, end: at, text: after ? `\n${stmt}\n` : `${stmt}\n\n` });
    }
  }
  return applyEdits(text, edits);
}

export interface BindingContext {
  /** The modules as they stand before this layer file (other modules' exports are checked against them). */
  modules: Modules;
  /** Names used as values before this layer file was applied: what it alone made unused gets dropped. */
  usedBefore: Set<string>;
  removed: string[];
}

export function spliceBindings(text: string, file: CompiledFile, ctx: BindingContext): string {
  let idx = indexModule(text, file.id);
  const wanted: Wanted[] = [];
  const claim = (source: string, prop: string, local: string, where: Where, nest?: string) => {
    const how = idx.bound.get(local);
    if (how !== undefined) {
      if (boundBy(idx, source, prop, local, nest)) return;
      throw new OverlayError(`'${local}' is already bound in ${file.id} by ${how}, not by ${source}${nest ? ` (${nest})` : ''}`, where);
    }
    if (wanted.some((w) => w.entry.key === prop && w.source === source && w.nest === nest)) return;
    wanted.push({ source, nest, entry: { key: prop, text: entryText(prop, local) }, where });
  };

  for (const imp of file.imports) {
    if (imp.module === file.id) {
      // Importing from the module itself names its own top-level bindings (for the type checker).
      if (imp.whole) throw new OverlayError(`import names from ${imp.module}, not the whole module`, imp.where);
      for (const s of imp.specifiers) {
        if (s.imported !== s.local) throw new OverlayError('a self-import cannot rename', imp.where);
        if (!idx.bound.has(s.imported)) {
          throw new OverlayError(`${file.id} has no top-level '${s.imported}' (added by a layer that is not applied?)`, imp.where);
        }
      }
      continue;
    }
    const source = `require('${imp.module}')`;
    if (imp.whole) {
      const have = idx.wholeRequires.get(imp.whole);
      if (have?.source === source) continue;
      if (idx.bound.has(imp.whole)) throw new OverlayError(`'${imp.whole}' is already bound in ${file.id} by ${idx.bound.get(imp.whole)}`, imp.where);
      const at = idx.requireBlockEnd ? nextLineStart(text, idx.requireBlockEnd.end) : 0;
      text = applyEdits(text, [{ start: at, end: at, text: `\nconst ${imp.whole} = ${source};\n` }]);
      idx = indexModule(text, file.id);
    }
    const theirs = imp.module.startsWith(MODULE_PREFIX) ? exportsOf(ctx.modules, imp.module) : undefined;
    for (const s of imp.specifiers) {
      if (theirs && !theirs.has(s.imported)) {
        throw new OverlayError(`${imp.module} does not export '${s.imported}' (module.exports has no such key)`, imp.where);
      }
      claim(source, s.imported, s.local, imp.where, nestFor(imp.module, s.imported));
    }
  }
  for (const b of file.bindings) {
    if (b.source === 'primordials') continue; // Only what the code uses is added, below.
    for (const e of b.entries) claim(b.source, e.prop, e.local, b.where);
  }
  text = addWanted(text, wanted);
  idx = indexModule(text, file.id);

  // Primordials the layer's code uses that the module does not bind yet.
  const header: Wanted[] = [];
  const headerWhere: Where = { layer: file.file.layer.name, file: file.file.path, line: 1 };
  for (const name of [...file.needed].sort()) {
    if (!idx.bound.has(name)) header.push({ source: 'primordials', entry: { key: name, text: name }, where: headerWhere });
  }
  text = addWanted(text, header);

  text = updateExports(text, file, ctx.removed);
  return dropUnused(text, ctx.usedBefore);
}

function updateExports(text: string, file: CompiledFile, removed: string[]): string {
  const idx = indexModule(text, file.id);
  const names = [...file.decls.filter((d) => d.exported).map((d) => d.name), ...file.exports.flatMap((e) => e.names)];
  if (names.length === 0 && removed.length === 0) return text;
  if (!idx.exports) {
    if (names.length === 0) return text;
    throw new OverlayError(`${file.id} has no \`module.exports = { … }\` to add exports to`, file.exports[0]?.where ?? file.decls.find((d) => d.exported)!.where);
  }
  const edits: Edit[] = [];
  const obj = idx.exports.object;
  for (const e of file.exports) {
    for (const n of e.names) if (!idx.bound.has(n)) throw new OverlayError(`cannot export '${n}': ${file.id} has no top-level '${n}'`, e.where);
  }
  const add = [...new Set(names)].filter((n) => !idx.exports!.keys.has(n));
  if (add.length) {
    const props = obj.properties;
    const last = props.at(-1);
    const indent = last ? /^[ \t]*/.exec(text.slice(lineStart(text, last.getStart(idx.sf))))![0] : '  ';
    let at = last ? last.end : obj.getStart(idx.sf) + 1;
    if (last && text[at] !== ',') edits.push({ start: at, end: at, text: ',' });
    if (last && text[at] === ',') at++;
    at = nextLineStart(text, at);
    edits.push({ start: at, end: at, text: add.map((n) => `${indent}${n},\n`).join('') });
  }
  for (const p of obj.properties) {
    const value = ts.isShorthandPropertyAssignment(p) ? p.name.text
      : ts.isPropertyAssignment(p) && ts.isIdentifier(p.initializer) ? p.initializer.text : undefined;
    // A removed declaration the layer binds and exports again (say, from
    // internalBinding) keeps its entry.
    if (value && removed.includes(value) && !names.includes(value)) {
      edits.push({ start: lineStart(text, p.getStart(idx.sf)), end: nextLineStart(text, p.end), text: '' });
    }
  }
  return applyEdits(text, edits);
}

/** Drops destructuring entries and whole requires that were used before this layer file and are not any more. */
function dropUnused(text: string, usedBefore: Set<string>): string {
  const idx = indexModule(text);
  const used = referencedNames(idx.sf);
  const gone = (name: string) => usedBefore.has(name) && !used.has(name);
  const edits: Edit[] = [];
  const dropStatement = (stmt: ts.Statement) => {
    const span = lineRemoval(text, attachedStart(idx.sf, stmt), stmt.end);
    edits.push({ start: span.start, end: span.end, text: '' });
  };
  for (const d of idx.destructurings) {
    const unused = (els: readonly ts.BindingElement[]) => els.filter((el) => ts.isIdentifier(el.name) && gone(el.name.text));
    const top = unused(d.pattern.elements);
    const nestedEdits: Edit[] = [];
    const emptied: ts.BindingElement[] = [];
    for (const el of d.pattern.elements) {
      if (!ts.isObjectBindingPattern(el.name)) continue;
      const r = removeEntries(idx.sf, el.name, unused(el.name.elements));
      if (r === 'empty') emptied.push(el);
      else nestedEdits.push(...r);
    }
    const r = removeEntries(idx.sf, d.pattern, [...top, ...emptied]);
    if (r === 'empty') dropStatement(d.stmt);
    else edits.push(...r, ...nestedEdits);
  }
  for (const [name, w] of idx.wholeRequires) if (gone(name)) dropStatement(w.stmt);
  return edits.length ? applyEdits(text, edits) : text;
}

export function usedNames(text: string): Set<string> {
  return referencedNames(indexModule(text).sf);
}
