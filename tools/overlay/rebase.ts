// `make rebase`: carries the series onto new ground, layer by layer, like
// `git rebase`. For each declaration a layer replaces, the lock's
// pre-image (old ground), the text there now (new ground) and the layer's
// copy are merged three ways; a clean merge goes into the layer's
// TypeScript, an overlapping change leaves conflict markers there. Names a
// layer removes or adds cannot be merged: a change under them stops as a
// conflict with a marker comment. The first layer with a conflict stops the
// run (later layers stand on it). Its lock already describes the new ground,
// so once the markers are resolved by hand, `make rebase` goes on.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import type { Layer } from '../lib/layers.ts';
import type { Modules } from '../lib/libdir.ts';
import { ROOT } from '../lib/paths.ts';
import { applyLayer, layerProgram, overlayContext, type ApplyOptions, type OverlayContext } from './apply.ts';
import { adoptNames } from './adopt.ts';
import { compileLines } from './compile.ts';
import type { OverlayProgram } from './program.ts';
import { checkViews } from './views.ts';
import { applyEdits, type Edit } from './edits.ts';
import { addTypedLines, mergeLayerCopy, mergeThreeWay, unresolvedMarkers, type TypedLines } from './merge.ts';
import { indexModule, type ModuleIndex } from './module-index.ts';
import { memberKey, parseLayerFile } from './parse.ts';
import { declText, entryKey, memberTarget, readLock, replaceableTarget, writeLock, type Lock, type PreImage } from './preimage.ts';
import { layerModuleFiles, type LayerModuleFile } from './source.ts';
import { attachedStart, DIRECTIVE, indentAt, lineStart, nextLineStart, parseSource, ts } from './ts.ts';

export type Outcome = 'unchanged' | 'new' | 'merged' | 'absorbed' | 'conflict';

export interface TargetOutcome {
  module: string;
  target: string;
  outcome: Outcome;
  /** Why it conflicts. */
  note?: string;
  /** file:line in the layer. */
  where: string;
}

export type LayerStatus = 'clean' | 'merged' | 'conflict' | 'failed' | 'not reached';

export interface LayerRebase {
  layer: Layer;
  status: LayerStatus;
  outcomes: TargetOutcome[];
  /** Names merged code uses that the layer files now bind (`name (source)`). */
  adopted?: string[];
  /** The layer changes no module on the new ground: the ground already has its change. */
  empty?: boolean;
  error?: string;
}

/** Binds in the layer's files the names merged lines brought in; what it bound. */
function adoptAll(beneath: Modules, layer: Layer, ctx: OverlayContext): string[] {
  const program = layerProgram(beneath, layer, ctx);
  if (!program) return [];
  const out: string[] = [];
  for (const file of layerModuleFiles(layer)) {
    const a = adoptNames(program, file, beneath.get(file.id)!, ctx.primordials);
    if (!a || a.adopted.length === 0) continue;
    writeFileSync(file.path, a.text);
    out.push(...a.adopted.map((n) => `${relative(ROOT, file.path)}: ${n}`));
  }
  return out;
}

export interface RebaseOptions extends ApplyOptions {
  /** Node version of the new ground, written into the locks. */
  baseVersion: string;
  /** Names the new ground in conflict markers and reports (e.g. `v26.10.0`). */
  groundLabel: string;
  /**
   * Go past a conflicting layer to report every layer: its conflicting
   * declarations keep the layer's own copy (no markers) and its lock keeps
   * the old pre-images, so building the result still refuses that layer.
   * For a scratch copy of the overlay, not for the one you work in.
   */
  keepGoing?: boolean;
}

export interface RebaseReport {
  layers: LayerRebase[];
  /** The modules after the last layer that went through. */
  modules: Modules;
  /** Hand-written declarations that do not match the new ground (or a state built on it). */
  declarations: string[];
  ok: boolean;
}

/** One declaration, member or removal of a layer file, and what stands under its name now. */
interface Target {
  file: LayerModuleFile;
  now: PreImage;
  /** The layer's own copy, when it has one to merge into. */
  copy?: ts.Node;
  /** Offset in the layer file where a marker comment goes. */
  markerAt: number;
}

const offsetOfLine = (text: string, line: number) => text.split('\n').slice(0, line - 1).reduce((n, l) => n + l.length + 1, 0);

function targetsOf(file: LayerModuleFile, sf: ts.SourceFile, idx: ModuleIndex): Target[] {
  const parsed = parseLayerFile(file, sf);
  const out: Target[] = [];
  const add = (target: string, found: ts.Node | undefined, foundAction: 'replace' | 'remove', copy: ts.Node | undefined, markerAt: number) =>
    out.push({ file, copy, markerAt,
      now: { module: file.id, target, action: found ? foundAction : 'add', text: found ? declText(idx.sf, found) : '' } });
  const at = (node: ts.Node) => lineStart(sf.text, attachedStart(sf, node));
  for (const r of parsed.removals) add(r.name, idx.decls.get(r.name)?.node, 'remove', undefined, offsetOfLine(sf.text, r.where.line));
  for (const d of parsed.decls) {
    const target = replaceableTarget(idx, d.name);
    if (d.kind !== 'class' || !target) {
      add(d.name, target?.node, 'replace', d.node, at(d.node));
      continue;
    }
    const members = new Map<string, ts.ClassElement>();
    for (const m of (target.node as ts.ClassDeclaration).members) {
      const key = memberKey(m, idx.sf);
      if (key) members.set(key, m);
    }
    for (const r of d.memberRemovals) add(memberTarget(d.name, r.name), members.get(r.name), 'remove', undefined, offsetOfLine(sf.text, r.where.line));
    for (const m of d.members) add(memberTarget(d.name, m.key), members.get(m.key), 'replace', m.mode === 'replace' ? m.node : undefined, at(m.node));
  }
  return out;
}

/** Where the layer's copy starts for a merge: its first own comment (not a directive), or the code. */
function copyStart(sf: ts.SourceFile, node: ts.Node): { start: number; hasComment: boolean } {
  const from = attachedStart(sf, node);
  for (const c of ts.getLeadingCommentRanges(sf.text, node.pos) ?? []) {
    if (c.pos >= from && !DIRECTIVE.test(sf.text.slice(c.pos, c.end))) return { start: lineStart(sf.text, c.pos), hasComment: true };
  }
  return { start: lineStart(sf.text, node.getStart(sf)), hasComment: false };
}

/** A pre-image without its leading comments (whole lines kept). */
function withoutComments(text: string): string {
  const comments = ts.getLeadingCommentRanges(text, 0) ?? [];
  if (comments.length === 0) return text;
  const code = comments.at(-1)!.end + /^\s*/.exec(text.slice(comments.at(-1)!.end))![0].length;
  return text.slice(lineStart(text, code));
}

/** Moves every line by `by` columns (negative: left). */
function shift(text: string, by: number): string {
  if (by === 0) return text;
  return text.split('\n').map((l) => (l.trim() === '' ? l : by > 0 ? ' '.repeat(by) + l : l.slice(Math.min(-by, /^ */.exec(l)![0].length)))).join('\n');
}

const indentOf = (text: string) => /^ */.exec(text)![0].length;

/** The code's tokens, without comments and whitespace. */
function tokens(text: string): string[] {
  const scanner = ts.createScanner(ts.ScriptTarget.Latest, true, ts.LanguageVariant.Standard, text);
  const out: string[] = [];
  while (scanner.scan() !== ts.SyntaxKind.EndOfFileToken) out.push(scanner.getTokenText());
  return out;
}

/** Whether two texts are the same code, comments and layout aside. */
function sameCode(a: string, b: string): boolean {
  const x = tokens(a);
  const y = tokens(b);
  return x.length === y.length && x.every((t, i) => t === y[i]);
}

/** Removes whole lines `start`..`end` and one blank line next to them, so one blank line is left between neighbours, not two. */
function blockRemoval(text: string, start: number, end: number): Edit {
  const after = nextLineStart(text, end);
  if (after > end && text.slice(end, after).trim() === '') return { start, end: after, text: '' };
  const before = lineStart(text, start - 1);
  if (start > 0 && text.slice(before, start).trim() === '') return { start: before, end, text: '' };
  return { start, end, text: '' };
}

interface Planned {
  outcome: TargetOutcome;
  edit?: Edit;
}

/** Lines `from`..`to` (0-based, inclusive) of a text. */
const linesOf = (text: string, from: number, to: number) => text.split('\n').slice(from, to + 1).join('\n');

function plan(t: Target, entry: PreImage | undefined, sf: ts.SourceFile, js: string | undefined, lock: Lock | undefined,
  opts: RebaseOptions, layer: Layer, typed: TypedLines): Planned {
  const where = `${relative(ROOT, t.file.path)}:${sf.getLineAndCharacterOfPosition(t.markerAt).line + 1}`;
  const base = { module: t.now.module, target: t.now.target, where };
  if (!entry) return { outcome: { ...base, outcome: 'new' } };
  if ((entry.action === 'add') === (t.now.action === 'add') && entry.text === t.now.text) return { outcome: { ...base, outcome: 'unchanged' } };
  const marker = (note: string): Planned => ({
    outcome: { ...base, outcome: 'conflict', note },
    edit: { start: t.markerAt, end: t.markerAt, text: `${indentAt(sf.text, t.markerAt)}// <<<<<<< make rebase: ${note}; resolve, then delete this line\n` },
  });
  if (entry.action === 'add') {
    // An exported copy is left to a person: the layer's export would go with it.
    const exported = t.copy !== undefined && ts.canHaveModifiers(t.copy) &&
      (ts.getModifiers(t.copy) ?? []).some((m) => m.kind === ts.SyntaxKind.ExportKeyword);
    if (t.copy && !exported && js !== undefined && t.now.action === 'replace') {
      const from = sf.getLineAndCharacterOfPosition(t.copy.getStart(sf)).line;
      const to = sf.getLineAndCharacterOfPosition(t.copy.end).line;
      if (sameCode(linesOf(js, from, to), t.now.text)) {
        // The change that added it landed beneath: the layer's copy goes, with its comments and directives.
        return {
          outcome: { ...base, outcome: 'absorbed' },
          edit: blockRemoval(sf.text, lineStart(sf.text, attachedStart(sf, t.copy)), nextLineStart(sf.text, t.copy.end)),
        };
      }
    }
    return marker(`the code beneath now has ${t.now.target} too`);
  }
  if (t.now.action === 'add') return marker(`the code beneath no longer has ${t.now.target}, which this layer ${entry.action}s`);
  if (entry.action === 'remove' || !t.copy) {
    return marker(`${t.now.target}, which this layer ${entry.action}s, changed beneath it (old and new text: the lock and ${opts.groundLabel})`);
  }
  // Whole lines of the layer's copy, from its first own comment.
  const { start, hasComment } = copyStart(sf, t.copy);
  const first = sf.getLineAndCharacterOfPosition(start).line;
  const last = sf.getLineAndCharacterOfPosition(t.copy.end).line;
  const ours = linesOf(sf.text, first, last);
  let old = hasComment ? entry.text : withoutComments(entry.text);
  let now = hasComment ? t.now.text : withoutComments(t.now.text);
  const by = indentOf(ours) - indentOf(old);
  old = shift(old, by);
  now = shift(now, by);
  const labels: [string, string, string] = [`layer ${layer.name}`, `pre-image (${lock!.base})`, opts.groundLabel];
  const merged = js === undefined ? mergeThreeWay(ours, old, now, labels) : mergeLayerCopy(ours, linesOf(js, first, last), old, now, labels, typed);
  const edit = { start, end: start + ours.length, text: merged.text };
  if (merged.conflicts) return { outcome: { ...base, outcome: 'conflict', note: `${merged.conflicts} conflicting hunk(s) in ${t.now.target}` }, edit };
  return { outcome: { ...base, outcome: 'merged' }, edit };
}

function statusOf(outcomes: TargetOutcome[]): LayerStatus {
  if (outcomes.some((o) => o.outcome === 'conflict')) return 'conflict';
  return outcomes.some((o) => o.outcome === 'merged' || o.outcome === 'absorbed') ? 'merged' : 'clean';
}

export function rebaseLayers(base: Modules, layers: Layer[], opts: RebaseOptions): RebaseReport {
  const viewsDir = opts.viewsDir ?? mkdtempSync(join(tmpdir(), 'overlay-views-'));
  const report: RebaseReport = { layers: [], modules: base, declarations: [], ok: true };
  try {
    const ctx = overlayContext(layers, opts, viewsDir);
    let current = base;
    let stopped = false;
    const states: Modules[] = [base];
    // The TypeScript forms of the lines the layers went through so far
    // wrote, by module (a form may name types only that module's layer
    // files import).
    const typed = new Map<string, TypedLines>();
    const typedOf = (id: string) => typed.get(id) ?? typed.set(id, new Map()).get(id)!;
    for (const layer of layers) {
      if (stopped) {
        report.layers.push({ layer, status: 'not reached', outcomes: [] });
        continue;
      }
      const result: LayerRebase = { layer, status: 'clean', outcomes: [] };
      report.layers.push(result);
      let now: PreImage[] = [];
      try {
        const markers = unresolvedMarkers(layer);
        if (markers.length) throw new Error(`unresolved conflict markers at ${markers.join(', ')}`);
        const lock = readLock(layer);
        const entries = new Map(lock?.entries.map((e) => [entryKey(e), e]));
        now = [];
        const beneath = current;
        let program: OverlayProgram | undefined;
        // The layer's file compiled line for line, for merging in JS terms (TS terms if it no longer compiles).
        const jsOf = (file: LayerModuleFile): string | undefined => {
          try {
            program ??= layerProgram(beneath, layer, ctx);
            return program && compileLines(program, file, ctx.primordials);
          } catch {
            return undefined;
          }
        };
        for (const file of layerModuleFiles(layer)) {
          const moduleText = current.get(file.id);
          if (moduleText === undefined) throw new Error(`${relative(ROOT, file.path)} patches ${file.id}, which the new ground does not have`);
          const text = readFileSync(file.path, 'utf8');
          const sf = parseSource(file.path, text, 'ts');
          const targets = targetsOf(file, sf, indexModule(moduleText, file.id));
          const needsMerge = targets.some((t) => {
            const e = entries.get(entryKey(t.now));
            if (!e || !t.copy) return false;
            // A replacement changed beneath it, or an addition the new ground now has too.
            return (e.action === 'replace' && t.now.action === 'replace' && e.text !== t.now.text) ||
              (e.action === 'add' && t.now.action !== 'add');
          });
          const js = needsMerge ? jsOf(file) : undefined;
          const planned = targets.map((t) => {
            now.push(t.now);
            return plan(t, entries.get(entryKey(t.now)), sf, js, lock, opts, layer, typedOf(file.id));
          });
          result.outcomes.push(...planned.map((p) => p.outcome));
          const edits = planned.flatMap((p) => (p.edit && !(opts.keepGoing && p.outcome.outcome === 'conflict') ? [p.edit] : []));
          if (edits.length) writeFileSync(file.path, applyEdits(text, edits));
        }
        result.status = statusOf(result.outcomes);
        // Merged lines may use names the layer does not bind yet: lines merged in this run, in a
        // conflicting layer's clean declarations (--keep-going), or in an earlier run that stopped
        // at a conflict in the same layer (so a clean layer is checked too).
        if (result.status !== 'conflict' || opts.keepGoing) result.adopted = adoptAll(current, layer, ctx);
        if (result.status === 'conflict') {
          report.ok = false;
          if (!opts.keepGoing) {
            writeLock(layer, { base: opts.baseVersion, entries: now });
            stopped = true;
            continue;
          }
        }
        const applied = applyLayer(current, layer, ctx, (program) => {
          for (const file of layerModuleFiles(layer)) {
            addTypedLines(typedOf(file.id), readFileSync(file.path, 'utf8'), compileLines(program, file, ctx.primordials));
          }
        });
        if (result.status !== 'conflict') writeLock(layer, { base: opts.baseVersion, entries: applied.touched });
        if (applied.changed.length === 0) {
          result.empty = true;
          report.ok = false;
        }
        current = applied.modules;
        states.push(current);
      } catch (err) {
        // Merged text is in the layer files now: the lock moves to the new ground with them, so a
        // rerun after fixing the layer goes on instead of merging the same change twice.
        if (!opts.keepGoing && result.status === 'merged') writeLock(layer, { base: opts.baseVersion, entries: now });
        result.status = 'failed';
        result.error = (err as Error).message;
        report.ok = false;
        stopped = true;
      }
    }
    report.modules = current;
    const label = (k: number) => (k === 0 ? opts.baseLabel ?? 'the base' : `the code after layer ${layers[k - 1].name}`);
    if (opts.checkDeclarations !== false) report.declarations = checkViews(ctx.sources, ctx.order, states, label);
    if (report.declarations.length) report.ok = false;
    return report;
  } finally {
    if (!opts.viewsDir) rmSync(viewsDir, { recursive: true, force: true });
  }
}

/** The report as text: one line per layer, then every merged or conflicting declaration. */
export function formatReport(report: RebaseReport, groundLabel: string): string {
  const lines = [`rebase onto ${groundLabel}:`];
  for (const l of report.layers) {
    const count = (o: Outcome) => l.outcomes.filter((x) => x.outcome === o).length;
    const counts = l.status === 'not reached' ? '' : `  unchanged ${count('unchanged')}, new ${count('new')}, merged ${count('merged')}, conflicting ${count('conflict')}${count('absorbed') ? `, absorbed ${count('absorbed')}` : ''}`;
    lines.push(`  ${l.layer.name.padEnd(40)} ${l.status.padEnd(11)}${counts}`);
    for (const o of l.outcomes) {
      if (o.outcome === 'merged') lines.push(`    merged    ${o.module} ${o.target} (${o.where})`);
      if (o.outcome === 'absorbed') lines.push(`    absorbed  ${o.module} ${o.target} (${o.where}): the new ground has the same code; removed from the layer`);
      if (o.outcome === 'conflict') lines.push(`    CONFLICT  ${o.module} ${o.target} (${o.where}): ${o.note}`);
    }
    for (const a of l.adopted ?? []) lines.push(`    bound     ${a}`);
    if (l.empty) lines.push(`    EMPTY     changes no module here: the new ground already has its change; drop the layer (or move what it still ships, such as its test, to where the change landed)`);
    if (l.error) lines.push(`    FAILED: ${l.error.split('\n').join('\n      ')}`);
  }
  if (report.declarations.length) {
    lines.push('declarations that do not match the code (mark what a layer adds with @layer <slug>; follow the base in <overlay>/types/):');
    for (const p of report.declarations) lines.push(`  ${p}`);
  }
  return lines.join('\n');
}
