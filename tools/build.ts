// `make build`: base lib + overlay layers → a lib directory for the runtime.
// All layers go to out/lib/patched; LAYERS=a..b (base plus layers a..b
// only) goes to out/lib/layers-a..b.
import { libDir } from './lib/paths.ts';
import { readLibDir, writeLibDir } from './lib/libdir.ts';
import { listLayers, selectLayers } from './lib/layers.ts';
import { applyLayer } from './overlay/apply.ts';

function main(): void {
  const range = process.env.LAYERS;
  const { manifest, modules } = readLibDir(libDir('base'));
  const layers = selectLayers(listLayers(), range);
  let current = modules;
  for (const layer of layers) current = applyLayer(current, layer);
  const out = libDir(range ? `layers-${range}` : 'patched');
  writeLibDir(out, { nodeVersion: manifest.nodeVersion, origin: manifest.origin, layers: layers.map((l) => l.name) }, current);
  console.log(`built ${out}: base + ${layers.length} layer(s)${layers.length ? ` (${layers.map((l) => l.name).join(', ')})` : ''}`);
}

try {
  main();
} catch (err) {
  console.error(`build: ${(err as Error).message}`);
  process.exit(1);
}
