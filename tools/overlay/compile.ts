// One layer file → JS pieces ready to splice: each declaration (and each
// member of a class to merge) with primordials rewritten and types
// stripped, plus what the module needs around them (requires, primordials,
// exports).
import { applyEdits } from './edits.ts';
import type { Note, Where } from './errors.ts';
import { lineRemovalEdits } from './lines.ts';
import { parseLayerFile, type BindingItem, type DeclItem, type ExportItem, type ImportItem, type RemovalItem } from './parse.ts';
import { rewritePrimordials } from './primordials.ts';
import type { OverlayProgram } from './program.ts';
import type { LayerModuleFile } from './source.ts';
import { stripEdits } from './strip.ts';
import { attachedStart, lineOf, lineStart, ts } from './ts.ts';

export interface CompiledMember {
  key: string;
  mode: 'add' | 'replace';
  where: Where;
  /** JS text from its first comment (or the member) to its end; the first line carries no indentation. */
  text: string;
  hasComment: boolean;
  /** Column the member starts at in the layer file (to re-indent it). */
  column: number;
  /** A field (property declaration), not a method or accessor. */
  isField: boolean;
}

export interface CompiledDecl extends Omit<DeclItem, 'node' | 'members'> {
  text: string;
  hasComment: boolean;
  /** `extends X` of a class, stripped ('' when none). */
  heritage: string;
  members: CompiledMember[];
}

export interface CompiledFile {
  file: LayerModuleFile;
  /** internal/webstreams/<module> */
  id: string;
  imports: ImportItem[];
  bindings: BindingItem[];
  decls: CompiledDecl[];
  removals: RemovalItem[];
  exports: ExportItem[];
  needed: Set<string>;
  notes: Note[];
}

const startsWithComment = (s: string) => /^\s*(\/\/|\/\*)/.test(s);

/** The edits that turn a layer file's declarations into JS, and whole-line removals. */
function layerEdits(p: OverlayProgram, file: LayerModuleFile, primordials: Set<string>) {
  const sf = p.program.getSourceFile(file.path);
  if (!sf) throw new Error(`internal: ${file.path} is not in the overlay program`);
  const parsed = parseLayerFile(file, sf);
  const whereOf = (pos: number): Where => ({ layer: file.layer.name, file: file.path, line: lineOf(sf, pos) });
  const roots = parsed.decls.map((d) => d.node);
  const rw = rewritePrimordials(sf, roots, { program: p.program, checker: p.checker, names: primordials, whereOf });
  const st = stripEdits(sf, roots, whereOf);
  const lines = lineRemovalEdits(sf.text, [...st.lines, ...parsed.directiveRanges.map((r) => ({ start: r.pos, end: r.end }))]);
  return { sf, parsed, rw, inline: [...rw.edits, ...st.edits], lines };
}

/**
 * The whole layer file compiled to JS line for line: removed lines are left
 * blank, so line n of the result is line n of the layer file. A merge in
 * the lib's own terms (primordials, no types) maps back to the TypeScript
 * through it.
 */
export function compileLines(p: OverlayProgram, file: LayerModuleFile, primordials: Set<string>): string {
  const { sf, inline, lines } = layerEdits(p, file, primordials);
  const newlines = (text: string) => text.split('\n').length - 1;
  // An inline edit that removes line breaks (a type spanning lines) keeps
  // them, so that every line stays where it is in the layer's file.
  const kept = inline.map((e) => {
    const lost = newlines(sf.text.slice(e.start, e.end)) - newlines(e.text);
    return lost > 0 ? { ...e, text: e.text + '\n'.repeat(lost) } : e;
  });
  const blank = lines.map((e) => ({ ...e, text: '\n'.repeat(newlines(sf.text.slice(e.start, e.end))) }));
  return applyEdits(sf.text, [...kept, ...blank]);
}

export function compileLayerFile(p: OverlayProgram, file: LayerModuleFile, primordials: Set<string>): CompiledFile {
  const { sf, parsed, rw, inline, lines } = layerEdits(p, file, primordials);
  const edits = [...inline, ...lines];
  const emit = (node: ts.Node) => {
    // From the line start, so whole-line removals (directives) are in range.
    const start = lineStart(sf.text, attachedStart(sf, node));
    const text = applyEdits(sf.text, edits, start, node.end).replace(/^\s*\n/, '').replace(/^[ \t]+/, '');
    return { text, hasComment: startsWithComment(text) };
  };

  const decls = parsed.decls.map((d): CompiledDecl => {
    const { text, hasComment } = emit(d.node);
    let heritage = '';
    const members: CompiledMember[] = [];
    if (ts.isClassDeclaration(d.node)) {
      const ext = d.node.heritageClauses?.find((h) => h.token === ts.SyntaxKind.ExtendsKeyword);
      if (ext) heritage = applyEdits(sf.text, edits, ext.getStart(sf), ext.end);
      for (const m of d.members) {
        const column = sf.getLineAndCharacterOfPosition(m.node.getStart(sf)).character;
        members.push({ key: m.key, mode: m.mode, where: m.where, ...emit(m.node), column, isField: ts.isPropertyDeclaration(m.node) });
      }
    }
    const { node: _node, members: _members, ...rest } = d;
    return { ...rest, text, hasComment, heritage, members };
  });
  return {
    file, id: file.id, imports: parsed.imports, bindings: parsed.bindings, decls, removals: parsed.removals, exports: parsed.exports,
    needed: rw.needed, notes: rw.notes,
  };
}
