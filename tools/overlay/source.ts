// What a layer folder holds: PATCH.md, sparse `<module>.ts` files for
// internal/webstreams/<module>, under node/ the files the patch adds to the
// Node tree verbatim (node/benchmark/webstreams/x.js →
// benchmark/webstreams/x.js), and base-fix.json for a layer that fixes a
// bug of the base (tools/ordering/base-fixes.ts).
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { BASE_FIX_FILE, type Layer } from '../lib/layers.ts';
import { MODULE_PREFIX } from '../lib/libdir.ts';
import { OverlayError } from './errors.ts';
import { BENCHMARKS_FILE, readPatchMd } from '../lib/patch-md.ts';
import { ROOT } from '../lib/paths.ts';
import { LOCK_FILE } from './preimage.ts';

export interface LayerModuleFile {
  layer: Layer;
  /** internal/webstreams/<module> */
  id: string;
  path: string;
}

export interface ExtraFile {
  /** Path in the Node tree, `/`-separated. */
  treePath: string;
  path: string;
}

export const EXTRA_DIR = 'node';
/** Where extra files may go in the Node tree (lib/ is what the .ts files are for). */
const EXTRA_ROOTS = ['benchmark/', 'test/', 'src/', 'doc/', 'typings/'];

export function layerModuleFiles(layer: Layer): LayerModuleFile[] {
  const files: LayerModuleFile[] = [];
  for (const name of readdirSync(layer.dir).sort()) {
    const path = join(layer.dir, name);
    if (name === 'PATCH.md' || name === EXTRA_DIR || name === LOCK_FILE || name === BENCHMARKS_FILE || name === BASE_FIX_FILE) continue;
    const match = /^([a-z0-9_]+)\.ts$/.exec(name);
    if (!match || name.endsWith('.d.ts') || !statSync(path).isFile()) {
      throw new OverlayError(`${path}: a layer holds PATCH.md, ${BENCHMARKS_FILE}, ${LOCK_FILE}, ${BASE_FIX_FILE}, <module>.ts files and a ${EXTRA_DIR}/ folder only ` +
        '(declarations for base internals belong in tools/overlay/types/)');
    }
    files.push({ layer, id: `${MODULE_PREFIX}${match[1]}`, path });
  }
  return files;
}

/** The files the patch adds to the Node tree: the layer's node/ folder, and the harness files PATCH.md `adds`. */
export function layerExtraFiles(layer: Layer): ExtraFile[] {
  const root = join(layer.dir, EXTRA_DIR);
  const out: ExtraFile[] = [];
  for (const treePath of readPatchMd(layer.dir).adds) {
    const path = join(ROOT, treePath);
    if (!existsSync(path)) throw new OverlayError(`${join(layer.dir, 'PATCH.md')}: adds ${treePath}, which does not exist`);
    out.push({ treePath, path });
  }
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else {
        const treePath = relative(root, path).split(sep).join('/');
        if (!EXTRA_ROOTS.some((r) => treePath.startsWith(r))) {
          throw new OverlayError(`${path}: extra files go under ${EXTRA_DIR}/{${EXTRA_ROOTS.map((r) => r.slice(0, -1)).join(',')}}/ ` +
            `(lib/internal/webstreams changes are written as <module>.ts; node.gyp wiring is applied at build time)`);
        }
        out.push({ treePath, path });
      }
    }
  };
  try {
    if (statSync(root).isDirectory()) walk(root);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  return out;
}
