// Applies overlay layers to lib modules, one layer at a time: write the
// layer's type view (the declarations of the code beneath it and its own),
// type-check the layer's files in it, then for each file: compile
// (primordials rewrite + type stripping) → splice declarations → imports,
// header, exports → syntax check of the resulting module. What each layer
// replaced is compared with its pre-image lock.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import vm from 'node:vm';
import type { Layer } from '../lib/layers.ts';
import type { Modules } from '../lib/libdir.ts';
import { readPatchMd } from '../lib/patch-md.ts';
import { spliceBindings, usedNames } from './bindings.ts';
import { compileLayerFile, type CompiledFile } from './compile.ts';
import { OverlayError, type Note } from './errors.ts';
import { unresolvedMarkers } from './merge.ts';
import { describeStale, readLock, staleEntries, type Lock, type PreImage, type Staleness } from './preimage.ts';
import { primordialNames } from './primordial-names.ts';
import { NODE_TYPINGS } from '../lib/fixture-paths.ts';
import { createOverlayProgram, diagnosticsFor, formatDiagnostics, type OverlayProgram } from './program.ts';
import { assertViews, checkViews, layerOrder, typeSources, writeView, type LayerOrder } from './views.ts';
import { layerExtraFiles, layerModuleFiles } from './source.ts';
import { spliceDeclarations } from './splice.ts';

export interface LayerResult {
  layer: Layer;
  /** Module ids this layer changed. */
  changed: string[];
  /** The modules after this layer (base + layers up to it). */
  modules: Modules;
  notes: Note[];
  /** What the layer replaced, removed and added this time: its lock's new entries. */
  touched: PreImage[];
  /** The lock as committed (undefined when the layer has none yet). */
  lock: Lock | undefined;
  stale: Staleness[];
}

export interface OverlayResult {
  modules: Modules;
  layers: LayerResult[];
}

export interface ApplyOptions {
  /** The overlay root (its types/ overrides the shared declarations); default: the layers' folder. */
  root?: string;
  /** Node typings/ for primordials and internalBinding shapes. */
  typings?: string;
  /** Where the per-layer views go (kept); default: a temporary folder, removed afterwards. */
  viewsDir?: string;
  /** Hold the hand-written declarations to every state's JS (off for synthetic modules in unit tests). */
  checkDeclarations?: boolean;
  /** Stop at a layer whose lock no longer matches what is beneath it (off while rebasing). */
  checkPreImages?: boolean;
  /** How messages name the base (e.g. `the base (v26.12.1)`). */
  baseLabel?: string;
}

/** Shared by every layer of one run. */
export interface OverlayContext {
  sources: Map<string, string>;
  order: LayerOrder;
  typings: string;
  viewsDir: string;
  primordials: Set<string>;
}

const WRAPPER_PARAMS = ['exports', 'require', 'module', 'process', 'internalBinding', 'primordials'];

/** Compiles like Node's builtin loader would (without running), so a broken splice fails here with a line. */
function syntaxCheck(id: string, text: string, layer: Layer): void {
  try {
    vm.compileFunction(text, WRAPPER_PARAMS, { filename: `${id}.js` });
  } catch (err) {
    const stack = String((err as Error).stack ?? err).split('\n').slice(0, 4).join('\n');
    throw new OverlayError(`layer ${layer.name}: the spliced ${id}.js does not compile:\n${stack}`);
  }
}

export function overlayContext(layers: Layer[], opts: ApplyOptions, viewsDir: string): OverlayContext {
  const root = opts.root ?? (layers.length ? dirname(layers[0].dir) : undefined);
  return { sources: typeSources(root), order: layerOrder(layers), typings: opts.typings ?? NODE_TYPINGS, viewsDir, primordials: primordialNames() };
}

/** The program layer k's files are compiled in: its own view over `beneath` (the modules after layer k-1). */
export function layerProgram(beneath: Modules, layer: Layer, ctx: OverlayContext): OverlayProgram | undefined {
  const layerFiles = layerModuleFiles(layer);
  if (layerFiles.length === 0) return undefined;
  const own = new Map(layerFiles.map((f) => [f.id, readFileSync(f.path, 'utf8')]));
  const view = writeView(join(ctx.viewsDir, String(layer.index)), ctx.sources, ctx.order, layer.index, beneath, own);
  return createOverlayProgram(layerFiles.map((f) => f.path), { view, typings: ctx.typings });
}

/** Layer k's program, failing on any type error in its files. */
export function checkLayer(beneath: Modules, layer: Layer, ctx: OverlayContext): OverlayProgram | undefined {
  const program = layerProgram(beneath, layer, ctx);
  if (!program) return undefined;
  const files = layerModuleFiles(layer).map((f) => f.path);
  const diags = diagnosticsFor(program, files);
  if (diags.length) throw new OverlayError(`type errors in layer ${layer.name}:\n${formatDiagnostics(diags)}`);
  return program;
}

/**
 * One layer on top of `beneath`; its pre-images are compared with its lock but not enforced here.
 * `compiled` is shown the program the layer was checked in (for `make rebase`).
 */
export function applyLayer(beneath: Modules, layer: Layer, ctx: OverlayContext,
  compiled?: (program: OverlayProgram) => void): LayerResult {
  readPatchMd(layer.dir);
  layerExtraFiles(layer);
  const markers = unresolvedMarkers(layer);
  if (markers.length) {
    throw new OverlayError(`layer ${layer.name} has unresolved conflicts from \`make rebase\` at ${markers.join(', ')}: resolve them, then run \`make rebase\` again`);
  }
  const program = checkLayer(beneath, layer, ctx);
  if (program && compiled) compiled(program);
  const next: Modules = new Map(beneath);
  const result: LayerResult = { layer, changed: [], notes: [], modules: next, touched: [], lock: readLock(layer), stale: [] };
  const files = layerModuleFiles(layer).map((file) => {
    if (!next.has(file.id)) {
      throw new OverlayError(`layer ${layer.name}: ${file.path} patches ${file.id}, which is not a module of the base lib`);
    }
    return compileLayerFile(program!, file, ctx.primordials);
  });
  for (const compiled of importsFirst(files)) {
    const file = compiled.file;
    const before = next.get(file.id)!;
    result.notes.push(...compiled.notes);
    const spliced = spliceDeclarations(before, compiled);
    result.touched.push(...spliced.touched);
    const text = spliceBindings(spliced.text, compiled, { modules: next, usedBefore: usedNames(before), removed: spliced.removed });
    syntaxCheck(file.id, text, layer);
    if (text !== before) result.changed.push(file.id);
    next.set(file.id, text);
  }
  result.touched.sort((a, b) => (a.module < b.module ? -1 : a.module > b.module ? 1 : 0));
  result.stale = staleEntries(result.lock, result.touched);
  return result;
}

export function staleError(results: LayerResult[]): OverlayError {
  const lines = results.flatMap((r) => r.stale.map((s) => describeStale(r.layer, s)));
  return new OverlayError(`pre-images are stale: what these layers replace is no longer what their locks recorded\n  ${lines.join('\n  ')}\n` +
    'run `make rebase` to merge the change into the layers (or stop at a conflict)');
}

export function applyLayers(base: Modules, layers: Layer[], opts: ApplyOptions = {}): OverlayResult {
  for (const layer of layers) {
    readPatchMd(layer.dir);
    layerExtraFiles(layer);
  }
  const viewsDir = opts.viewsDir ?? mkdtempSync(join(tmpdir(), 'overlay-views-'));
  try {
    const ctx = overlayContext(layers, opts, viewsDir);
    let current = base;
    const results: LayerResult[] = [];
    for (const layer of layers) {
      const result = applyLayer(current, layer, ctx);
      if (opts.checkPreImages !== false && result.stale.length) throw staleError([result]);
      results.push(result);
      current = result.modules;
    }
    if (opts.checkDeclarations !== false) {
      const states = [base, ...results.map((r) => r.modules)];
      const label = (k: number) => (k === 0 ? opts.baseLabel ?? 'the base' : `the code after layer ${layers[k - 1].name}`);
      assertViews(checkViews(ctx.sources, ctx.order, states, label));
    }
    return { modules: current, layers: results };
  } finally {
    if (!opts.viewsDir) rmSync(viewsDir, { recursive: true, force: true });
  }
}

/**
 * A layer's files ordered so that a module another file of the same layer
 * imports from is spliced first: what a layer adds to util can be imported
 * by the same layer's readablestream. Otherwise in path order.
 */
function importsFirst(files: CompiledFile[]): CompiledFile[] {
  const byId = new Map(files.map((f) => [f.id, f]));
  const done = new Set<string>();
  const out: CompiledFile[] = [];
  const visit = (file: CompiledFile, stack: Set<string>) => {
    if (done.has(file.id) || stack.has(file.id)) return;
    stack.add(file.id);
    for (const imp of file.imports) {
      const dep = byId.get(imp.module);
      if (dep !== undefined && dep !== file) visit(dep, stack);
    }
    done.add(file.id);
    out.push(file);
  };
  for (const file of files) visit(file, new Set());
  return out;
}
