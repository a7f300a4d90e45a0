// `make patches`: writes patches/NNNN-<slug>.patch for the overlay's layers
// (LAYERS=a..b: only patches a..b, still computed on top of layers 1..a-1).
// A full run also deletes patch files no layer produces any more.
//
//   node tools/patches.ts [--overlay DIR] [--out DIR] [--check]
// --check: write nothing, fail if the patch files or the layers' pre-image
// locks differ from a fresh run.
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { parseFlags } from './lib/args.ts';
import { resolveBase, seriesBase } from './lib/base-spec.ts';
import { listLayers, selectLayers } from './lib/layers.ts';
import { LIB_OVERLAY, PATCHES, ROOT } from './lib/paths.ts';
import { applyLayers } from './overlay/apply.ts';
import { seriesPatches } from './overlay/patch-series.ts';
import { formatLock, lockPath } from './overlay/preimage.ts';
import { readSeries, seriesOfRoot } from './series/config.ts';

const { values } = parseFlags({
  overlay: { type: 'string' },
  out: { type: 'string' },
  check: { type: 'boolean', default: false },
}, 'node tools/patches.ts [--overlay DIR] [--out DIR] [--check]   (env: LAYERS=a..b, OVERLAY_DIR)');

/**
 * patches/ for lib-overlay/, a named series' own patches dir for
 * lib-overlay-<name>/; any other overlay must say where its patches go
 * (a full run deletes the files there that no layer produces).
 */
function defaultOut(root: string): string {
  if (root === LIB_OVERLAY) return PATCHES;
  const name = seriesOfRoot(root);
  if (name && resolve(ROOT, `lib-overlay-${name}`) === root) return readSeries(name).patches;
  throw new Error(`${relative(ROOT, root) || root} is not lib-overlay/ or a series' lib-overlay-<name>/: pass --out DIR for its patches`);
}

function main(): void {
  const overlay = values.overlay ?? process.env.OVERLAY_DIR;
  const root = overlay ? resolve(overlay) : LIB_OVERLAY;
  const outDir = values.out ? resolve(values.out) : defaultOut(root);
  const all = listLayers(root);
  const range = process.env.LAYERS;
  const selected = selectLayers(all, range);
  const base = resolveBase(seriesBase(root));
  const from = selected.length ? selected[0].index : 1;
  const to = selected.length ? selected.at(-1)!.index : 0;
  const applied = applyLayers(base.modules, all.slice(0, to), { root, typings: base.typings, baseLabel: `the base (${base.nodeVersion})` });
  const patches = to ? seriesPatches(base.modules, all, applied.layers, from, to) : [];
  const stale = range || !existsSync(outDir) ? [] : readdirSync(outDir).filter((n) => n.endsWith('.patch') && !patches.some((p) => p.name === n));
  if (values.check) {
    const differ = patches.filter((p) => !existsSync(join(outDir, p.name)) || readFileSync(join(outDir, p.name), 'utf8') !== p.text);
    const locks = applied.layers.filter((l) => {
      const file = lockPath(l.layer);
      return !existsSync(file) || readFileSync(file, 'utf8') !== formatLock(l.layer, { base: base.nodeVersion, entries: l.touched });
    });
    for (const p of differ) console.error(`out of date: ${relative(ROOT, join(outDir, p.name))}`);
    for (const n of stale) console.error(`stale: ${relative(ROOT, join(outDir, n))}`);
    for (const l of locks) console.error(`out of date: ${relative(ROOT, lockPath(l.layer))}`);
    if (differ.length || stale.length || locks.length) {
      console.error('run `make build patches` and commit the result');
      process.exit(1);
    }
    console.log(`patches and pre-image locks up to date (${patches.length} patches)`);
    return;
  }
  mkdirSync(outDir, { recursive: true });
  for (const p of patches) writeFileSync(join(outDir, p.name), p.text);
  for (const n of stale) rmSync(join(outDir, n));
  console.log(`wrote ${patches.length} patch(es) to ${relative(ROOT, outDir) || outDir}${stale.length ? `, removed ${stale.length} stale` : ''}`);
}

try {
  main();
} catch (err) {
  console.error(`patches: ${process.env.DEBUG ? (err as Error).stack : (err as Error).message}`);
  process.exit(1);
}
