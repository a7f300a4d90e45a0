// `make patches`: writes patches/NNNN-<slug>.patch for the overlay's layers
// (LAYERS=a..b: only patches a..b, still computed on top of layers 1..a-1).
// A full run also deletes patch files no layer produces any more.
//
//   node tools/patches.ts [--overlay DIR] [--out DIR] [--check]
// --check: write nothing, fail if the files on disk differ from a fresh run.
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { parseFlags } from './lib/args.ts';
import { listLayers, selectLayers } from './lib/layers.ts';
import { readLibDir } from './lib/libdir.ts';
import { LIB_OVERLAY, PATCHES, ROOT, libDir } from './lib/paths.ts';
import { patchSeries } from './overlay/patch-series.ts';

const { values } = parseFlags({
  overlay: { type: 'string' },
  out: { type: 'string' },
  check: { type: 'boolean', default: false },
}, 'node tools/patches.ts [--overlay DIR] [--out DIR] [--check]   (env: LAYERS=a..b, OVERLAY_DIR)');

function main(): void {
  const overlay = values.overlay ?? process.env.OVERLAY_DIR;
  const root = overlay ? resolve(overlay) : LIB_OVERLAY;
  const outDir = values.out ? resolve(values.out) : PATCHES;
  const all = listLayers(root);
  const range = process.env.LAYERS;
  const selected = selectLayers(all, range);
  const { modules } = readLibDir(libDir('base'));
  const from = selected.length ? selected[0].index : 1;
  const to = selected.length ? selected.at(-1)!.index : 0;
  const patches = to ? patchSeries(modules, all, from, to) : [];
  const stale = range || !existsSync(outDir) ? [] : readdirSync(outDir).filter((n) => n.endsWith('.patch') && !patches.some((p) => p.name === n));
  if (values.check) {
    const differ = patches.filter((p) => !existsSync(join(outDir, p.name)) || readFileSync(join(outDir, p.name), 'utf8') !== p.text);
    for (const p of differ) console.error(`out of date: ${relative(ROOT, join(outDir, p.name))}`);
    for (const n of stale) console.error(`stale: ${relative(ROOT, join(outDir, n))}`);
    if (differ.length || stale.length) {
      console.error('run `make patches` and commit the result');
      process.exit(1);
    }
    console.log(`patches up to date (${patches.length})`);
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
