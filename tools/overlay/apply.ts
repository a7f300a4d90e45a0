// Applies overlay layers to lib modules: type-check every layer file once,
// then for each layer in order and each of its files: compile (primordials
// rewrite + type stripping) → splice declarations → imports, header,
// exports → syntax check of the resulting module.
import vm from 'node:vm';
import type { Layer } from '../lib/layers.ts';
import type { Modules } from '../lib/libdir.ts';
import { readPatchMd } from '../lib/patch-md.ts';
import { spliceBindings, usedNames } from './bindings.ts';
import { compileLayerFile, type CompiledFile } from './compile.ts';
import { OverlayError, type Note } from './errors.ts';
import { primordialNames } from './primordial-names.ts';
import { createOverlayProgram, diagnosticsFor, formatDiagnostics, type OverlayProgram } from './program.ts';
import { layerExtraFiles, layerModuleFiles } from './source.ts';
import { spliceDeclarations } from './splice.ts';

export interface LayerResult {
  layer: Layer;
  /** Module ids this layer changed. */
  changed: string[];
  /** The modules after this layer (base + layers up to it). */
  modules: Modules;
  notes: Note[];
}

export interface OverlayResult {
  modules: Modules;
  layers: LayerResult[];
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

/** The type-checked program over all files of `layers`, or a clear error listing every type error. */
export function checkLayers(layers: Layer[]): OverlayProgram | undefined {
  const files = layers.flatMap(layerModuleFiles).map((f) => f.path);
  if (files.length === 0) return undefined;
  const program = createOverlayProgram(files);
  const diags = diagnosticsFor(program, files);
  if (diags.length) throw new OverlayError(`type errors in the overlay:\n${formatDiagnostics(diags)}`);
  return program;
}

export function applyLayers(base: Modules, layers: Layer[]): OverlayResult {
  for (const layer of layers) {
    readPatchMd(layer.dir);
    layerExtraFiles(layer);
  }
  const program = checkLayers(layers);
  let current = base;
  const results: LayerResult[] = [];
  for (const layer of layers) {
    const next: Modules = new Map(current);
    const result: LayerResult = { layer, changed: [], notes: [], modules: next };
    const files = layerModuleFiles(layer).map((file) => {
      if (!next.has(file.id)) {
        throw new OverlayError(`layer ${layer.name}: ${file.path} patches ${file.id}, which is not a module of the base lib`);
      }
      return compileLayerFile(program!, file, primordialNames());
    });
    for (const compiled of importsFirst(files)) {
      const file = compiled.file;
      const before = next.get(file.id)!;
      result.notes.push(...compiled.notes);
      const spliced = spliceDeclarations(before, compiled);
      const text = spliceBindings(spliced.text, compiled, { modules: next, usedBefore: usedNames(before), removed: spliced.removed });
      syntaxCheck(file.id, text, layer);
      if (text !== before) result.changed.push(file.id);
      next.set(file.id, text);
    }
    results.push(result);
    current = next;
  }
  return { modules: current, layers: results };
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

/** One layer on top of `modules` (the series applies layers through applyLayers). */
export function applyLayer(modules: Modules, layer: Layer): Modules {
  return applyLayers(modules, [layer]).modules;
}
