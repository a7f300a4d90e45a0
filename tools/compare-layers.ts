// `make compare-layers`: each layer's own table, layers 1..k-1 (the base
// for k = 1) against layers 1..k, on the benchmarks its PATCH.md names
// (`bench:` front matter), saved as out/compare/<layer> where `make pr`
// picks it up for that layer's PR body.
//
//   node tools/compare-layers.ts [--runs N] [--clock wall|cpu]   (env: LAYERS=a..b, OVERLAY_DIR)
import { spawnSync } from 'node:child_process';
import { basename, join, resolve } from 'node:path';
import { parseFlags } from './lib/args.ts';
import { listLayers, selectLayers, stateLibName } from './lib/layers.ts';
import { readPatchMd } from './lib/patch-md.ts';
import { libDir, ROOT } from './lib/paths.ts';

const { values } = parseFlags({
  runs: { type: 'string', default: '15' },
  clock: { type: 'string' },
}, 'node tools/compare-layers.ts [--runs N] [--clock wall|cpu]   (env: LAYERS=a..b)');

function run(args: string[]): void {
  const r = spawnSync(process.execPath, args, { cwd: ROOT, stdio: 'inherit' });
  if (r.status !== 0) {
    console.error(`compare-layers: ${args.map((a) => a.replace(`${ROOT}/`, '')).join(' ')} failed (exit ${r.status ?? r.signal})`);
    process.exit(1);
  }
}

const all = listLayers(process.env.OVERLAY_DIR ?? undefined);
const selected = selectLayers(all, process.env.LAYERS);
if (selected.length === 0) {
  console.error('compare-layers: no layers selected');
  process.exit(2);
}
const benches = selected.map((layer) => {
  const { bench } = readPatchMd(layer.dir);
  if (bench.length === 0) {
    console.error(`compare-layers: ${layer.name}/PATCH.md names no benchmarks (front matter 'bench: <filter>, …')`);
    process.exit(1);
  }
  return bench;
});
// Every state of the series, fresh (out/lib/layers-k: base + layers 1..k).
run([join(ROOT, 'tools', 'build.ts'), '--quiet']);
const overlayName = process.env.OVERLAY_DIR ? basename(resolve(process.env.OVERLAY_DIR)) : undefined;
const libUpTo = (k: number) => libDir(stateLibName(k, all.length, overlayName));
for (const [i, layer] of selected.entries()) {
  const bench = benches[i];
  const k = layer.index;
  console.error(`\n=== ${layer.name}: layers 1..${k - 1} vs 1..${k}, ${bench.join(', ')}`);
  const oldLib = libUpTo(k - 1);
  const newLib = libUpTo(k);
  run([join(ROOT, 'tools', 'compare.ts'), '--old', oldLib, '--new', newLib, '--runs', values.runs!,
    '--name', layer.name, ...bench.flatMap((f) => ['--filter', f]),
    ...(values.clock ? ['--clock', values.clock] : [])]);
}
