// Splices a compiled layer file's declarations into a module's JS text:
// replace by name, merge classes member by member, remove on a directive,
// insert new names at the documented place. Text outside the touched
// declarations is left byte for byte.
import type { CompiledDecl, CompiledFile, CompiledMember } from './compile.ts';
import { applyEdits, type Edit } from './edits.ts';
import { OverlayError } from './errors.ts';
import { lineRemoval } from './lines.ts';
import { indexModule, type ModuleIndex, type TopDecl } from './module-index.ts';
import { memberKey, normalizeKey } from './parse.ts';
import { declText, memberTarget, replaceableTarget, type PreImage } from './preimage.ts';
import { attachedStart, indentAt, lineStart, nextLineStart, ts } from './ts.ts';

/** Moves lines 2…n of a piece of text from column `from` to column `to`. */
export function reindent(text: string, from: number, to: number): string {
  if (from === to) return text;
  return text.split('\n').map((line, i) => {
    if (i === 0 || line.trim() === '') return line;
    if (to > from) return ' '.repeat(to - from) + line;
    const lead = /^ */.exec(line)![0].length;
    return line.slice(Math.min(lead, from - to));
  }).join('\n');
}

function mergeClass(idx: ModuleIndex, base: TopDecl, decl: CompiledDecl, touch: (action: PreImage['action'], target: string, node?: ts.Node) => void): Edit[] {
  const { sf, text } = idx;
  const cls = base.node as ts.ClassDeclaration;
  const baseExt = cls.heritageClauses?.find((h) => h.token === ts.SyntaxKind.ExtendsKeyword)?.getText(sf) ?? '';
  if (decl.heritage && decl.heritage.replace(/\s+/g, ' ') !== baseExt.replace(/\s+/g, ' ')) {
    throw new OverlayError(`class ${decl.name} is '${baseExt || 'without extends'}' in the module; a layer cannot change its heritage ('${decl.heritage}')`, decl.where);
  }
  const byKey = new Map<string, ts.ClassElement>();
  for (const m of cls.members) {
    const key = memberKey(m, sf);
    if (key) byKey.set(normalizeKey(key), m);
  }
  const edits: Edit[] = [];
  const first = cls.members[0];
  const column = first ? sf.getLineAndCharacterOfPosition(first.getStart(sf)).character
    : indentAt(text, cls.getStart(sf)).length + 2;
  const removed = new Set<string>();
  for (const r of decl.memberRemovals) {
    const m = byKey.get(r.name);
    if (!m) throw new OverlayError(`class ${decl.name} has no member '${r.name}' to remove`, r.where);
    removed.add(r.name);
    touch('remove', memberTarget(decl.name, r.name), m);
    const span = lineRemoval(text, attachedStart(sf, m), m.end);
    edits.push({ start: span.start, end: span.end, text: '' });
  }
  const closeBrace = cls.end - 1;
  // Appended members get a blank line before them, except an uncommented
  // field that follows a field: a run of fields stays one block.
  let lastIsField = cls.members.length > 0 && ts.isPropertyDeclaration(cls.members[cls.members.length - 1]!);
  const add = (m: CompiledMember) => {
    const body = reindent(m.text, m.column, column);
    const gap = m.isField && lastIsField && !m.hasComment ? '' : '\n';
    lastIsField = m.isField;
    if (cls.members.length === 0 && !text.slice(cls.getStart(sf), cls.end).includes('\n')) {
      return { start: closeBrace, end: closeBrace, text: `\n${' '.repeat(column)}${body}\n` };
    }
    const at = lineStart(text, closeBrace);
    return { start: at, end: at, text: `${gap}${' '.repeat(column)}${body}\n` };
  };
  for (const m of decl.members) {
    const target = byKey.get(m.key);
    if (m.mode === 'add') {
      if (target && !removed.has(m.key)) {
        throw new OverlayError(`class ${decl.name} already has '${m.key}'; drop @overlay-add to replace it`, m.where);
      }
      touch('add', memberTarget(decl.name, m.key));
      edits.push(add(m));
      continue;
    }
    if (!target || removed.has(m.key)) {
      throw new OverlayError(`class ${decl.name} has no member '${m.key}' to replace (mark a new member with // @overlay-add)`, m.where);
    }
    touch('replace', memberTarget(decl.name, m.key), target);
    const start = m.hasComment ? attachedStart(sf, target) : target.getStart(sf);
    edits.push({ start, end: target.end, text: reindent(m.text, m.column, column) });
  }
  return edits;
}

export interface SpliceResult {
  text: string;
  /** Top-level names the layer removed (their module.exports entries go too). */
  removed: string[];
  /** What the layer replaced, removed and added, with the replaced text (its pre-images). */
  touched: PreImage[];
}

export function spliceDeclarations(text: string, file: CompiledFile): SpliceResult {
  const idx = indexModule(text, file.id);
  const edits: Edit[] = [];
  const removed: string[] = [];
  const removedSpans: { start: number; end: number }[] = [];
  const touched: PreImage[] = [];
  const touch = (action: PreImage['action'], target: string, node?: ts.Node) =>
    touched.push({ action, module: file.id, target, text: node ? declText(idx.sf, node) : '' });
  const declared = new Set(file.decls.map((d) => d.name));
  for (const r of file.removals) {
    const target = idx.decls.get(r.name);
    if (!target) {
      const how = idx.bound.get(r.name);
      throw new OverlayError(how
        ? `'${r.name}' is bound by ${how}, not a declaration; unused entries are dropped automatically`
        : `@overlay-remove ${r.name}: ${file.id} has no top-level '${r.name}'`, r.where);
    }
    if (target.kind === 'variable' && (target.node as ts.VariableStatement).declarationList.declarations.length !== 1) {
      throw new OverlayError(`'${r.name}' shares its statement with other names; it cannot be removed alone`, r.where);
    }
    if (declared.has(r.name)) throw new OverlayError(`'${r.name}' is both removed and declared by this layer`, r.where);
    touch('remove', r.name, target.node);
    const span = lineRemoval(text, target.start, target.node.end);
    edits.push({ start: span.start, end: span.end, text: '' });
    removedSpans.push(span);
    removed.push(r.name);
  }
  const exportsStmt = idx.exports?.stmt;
  for (const d of file.decls) {
    const target = replaceableTarget(idx, d.name);
    if (target) {
      if (d.mode === 'add') throw new OverlayError(`${file.id} already has '${d.name}' (${target.kind}); drop @overlay-add to replace it`, d.where);
      // A constant may become a function (or back) in place when the layer
      // says so: its callers see the same binding, now hoisted or not.
      if (target.kind !== d.kind) {
        const valueKinds = target.kind !== 'class' && d.kind !== 'class';
        if (!valueKinds || d.mode !== 'replace') {
          const how = valueKinds ? 'mark it // @overlay-replace to replace it in place' : 'classes are merged, not replaced by another kind';
          throw new OverlayError(`'${d.name}' is a ${target.kind} in ${file.id}, the layer declares a ${d.kind}; ${how}`, d.where);
        }
      }
      if (d.after) throw new OverlayError(`@overlay-after only places new declarations; '${d.name}' replaces one in place`, d.where);
      if (d.kind === 'class') {
        edits.push(...mergeClass(idx, target, d, touch));
        continue;
      }
      touch('replace', d.name, target.node);
      const start = d.hasComment ? target.start : target.node.getStart(idx.sf);
      // Constants sit line after line; a function that takes one's place
      // gets a blank line before the next statement, as functions do.
      const gap = d.kind === 'function' && target.kind === 'variable' && /^\n[^\n]/.test(text.slice(target.node.end)) ? '\n' : '';
      edits.push({ start, end: target.node.end, text: d.text + gap });
      continue;
    }
    const how = idx.bound.get(d.name);
    if (how) throw new OverlayError(`'${d.name}' is already bound by ${how} in ${file.id}`, d.where);
    if (d.mode === 'replace') throw new OverlayError(`${file.id} has no top-level '${d.name}' to replace`, d.where);
    // Members marked to add, or to remove, only make sense in a class the
    // module has: on ground without it (another release) the layer would
    // add a class nothing uses.
    if (d.kind === 'class' && (d.members.some((m) => m.mode === 'add') || d.memberRemovals.length)) {
      throw new OverlayError(`${file.id} has no class '${d.name}' to merge into (the layer adds or removes its members)`, d.where);
    }
    touch('add', d.name);
    let at: number;
    let piece: string;
    if (d.after) {
      const anchor = idx.decls.get(d.after);
      if (!anchor) throw new OverlayError(`@overlay-after ${d.after}: ${file.id} has no top-level declaration '${d.after}'`, d.where);
      at = nextLineStart(text, anchor.node.end);
      piece = `\n${d.text}\n`;
    } else if (d.kind === 'variable' && idx.prologueEnd) {
      at = nextLineStart(text, idx.prologueEnd.end);
      piece = `\n${d.text}\n`;
      // The prologue's last declaration may be one this layer removes: the
      // new one takes its place (its removal takes the blank line after it).
      const gone = removedSpans.find((span) => span.start < at && at <= span.end);
      if (gone) {
        at = gone.start;
        piece = `${d.text}\n\n`;
      }
    } else if (exportsStmt) {
      at = lineStart(text, attachedStart(idx.sf, exportsStmt));
      piece = `${d.text}\n\n`;
    } else {
      at = text.length;
      piece = `${text.endsWith('\n') ? '\n' : '\n\n'}${d.text}\n`;
    }
    edits.push({ start: at, end: at, text: piece });
  }
  return { text: applyEdits(text, edits), removed, touched };
}
