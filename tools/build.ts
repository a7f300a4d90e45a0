// `make build`: base lib + overlay layers → one lib directory per state of
// the series: out/lib/layers-k (base + layers 1..k), out/lib/patched (every
// layer); out/lib/base is the base itself (`make base`). Pre-images the
// layers' locks lack are recorded; a stale one stops the build (`make
// rebase` merges the change underneath into the layer).
//
//   node tools/build.ts [--overlay DIR] [--out DIR] [--quiet]
// --overlay (or OVERLAY_DIR) compiles another overlay root, e.g. the test
// fixtures, into out/lib/overlay-<name>[-layers-k]; --out writes only the
// last state, to DIR.
import { basename, resolve } from 'node:path';
import { parseFlags } from './lib/args.ts';
import { LIB_OVERLAY, libDir } from './lib/paths.ts';
import { resolveBase, seriesBase } from './lib/base-spec.ts';
import { readLibDir, writeLibDir } from './lib/libdir.ts';
import { listLayers, stateLibName } from './lib/layers.ts';
import { applyLayers } from './overlay/apply.ts';
import { formatNote } from './overlay/errors.ts';
import { writeLock } from './overlay/preimage.ts';

const { values } = parseFlags({
  overlay: { type: 'string' },
  out: { type: 'string' },
  quiet: { type: 'boolean', default: false },
}, 'node tools/build.ts [--overlay DIR] [--out DIR] [--quiet]   (env: OVERLAY_DIR)');

function main(): void {
  const overlay = values.overlay ?? process.env.OVERLAY_DIR;
  const root = overlay ? resolve(overlay) : LIB_OVERLAY;
  const base = resolveBase(seriesBase(root));
  const { manifest, modules } = readLibDir(base.dir);
  const layers = listLayers(root);
  const result = applyLayers(modules, layers, { root, typings: base.typings, baseLabel: `the base (${manifest.nodeVersion})` });
  const name = overlay ? basename(root) : undefined;
  const write = (k: number, dir: string) => writeLibDir(dir, { nodeVersion: manifest.nodeVersion, origin: manifest.origin,
    layers: layers.slice(0, k).map((l) => l.name) }, k === 0 ? modules : result.layers[k - 1].modules);
  if (values.out) write(layers.length, resolve(values.out));
  else for (let k = 1; k <= layers.length; k++) write(k, libDir(stateLibName(k, layers.length, name)));
  for (const l of result.layers) {
    if (!values.quiet) for (const n of l.notes) console.log(`note: ${formatNote(n)}`);
    const recorded = writeLock(l.layer, { base: manifest.nodeVersion, entries: l.touched }) ? ' (pre-images recorded)' : '';
    console.log(`  ${l.layer.name}: ${l.changed.length ? l.changed.join(', ') : 'no module changed'}${recorded}`);
  }
  const last = values.out ? resolve(values.out) : libDir(stateLibName(layers.length, layers.length, name));
  console.log(`built ${last}: base + ${layers.length} layer(s)${layers.length > 1 && !values.out ? ', and every state before it' : ''}`);
}

try {
  main();
} catch (err) {
  console.error(`build: ${process.env.DEBUG ? (err as Error).stack : (err as Error).message}`);
  process.exit(1);
}
