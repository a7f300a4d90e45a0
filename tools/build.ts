// `make build`: base lib + overlay layers → a lib directory for the runtime.
// All layers go to out/lib/patched; LAYERS=a..b (base plus layers a..b
// only) goes to out/lib/layers-a..b.
//
//   node tools/build.ts [--overlay DIR] [--out DIR]
// --overlay (or OVERLAY_DIR) compiles another overlay root, e.g. the test
// fixtures; its output defaults to out/lib/overlay-<name>[-layers-a..b].
import { basename, resolve } from 'node:path';
import { parseFlags } from './lib/args.ts';
import { LIB_OVERLAY, libDir } from './lib/paths.ts';
import { readLibDir, writeLibDir } from './lib/libdir.ts';
import { listLayers, selectLayers } from './lib/layers.ts';
import { applyLayers } from './overlay/apply.ts';
import { formatNote } from './overlay/errors.ts';

const { values } = parseFlags({
  overlay: { type: 'string' },
  out: { type: 'string' },
  quiet: { type: 'boolean', default: false },
}, 'node tools/build.ts [--overlay DIR] [--out DIR] [--quiet]   (env: LAYERS=a..b, OVERLAY_DIR)');

function main(): void {
  const range = process.env.LAYERS;
  const overlay = values.overlay ?? process.env.OVERLAY_DIR;
  const root = overlay ? resolve(overlay) : LIB_OVERLAY;
  const { manifest, modules } = readLibDir(libDir('base'));
  const layers = selectLayers(listLayers(root), range);
  const result = applyLayers(modules, layers);
  const name = overlay ? `overlay-${basename(root)}${range ? `-layers-${range}` : ''}` : range ? `layers-${range}` : 'patched';
  const out = values.out ? resolve(values.out) : libDir(name);
  writeLibDir(out, { nodeVersion: manifest.nodeVersion, origin: manifest.origin, layers: layers.map((l) => l.name) }, result.modules);
  for (const l of result.layers) {
    if (!values.quiet) for (const n of l.notes) console.log(`note: ${formatNote(n)}`);
    console.log(`  ${l.layer.name}: ${l.changed.length ? l.changed.join(', ') : 'no module changed'}`);
  }
  console.log(`built ${out}: base + ${layers.length} layer(s)${layers.length ? ` (${layers.map((l) => l.name).join(', ')})` : ''}`);
}

try {
  main();
} catch (err) {
  console.error(`build: ${process.env.DEBUG ? (err as Error).stack : (err as Error).message}`);
  process.exit(1);
}
