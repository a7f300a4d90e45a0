// `make compare-layers`: each layer's own table, layers 1..k-1 (the base
// for k = 1) against layers 1..k, on the benchmarks its PATCH.md names
// (`bench:` front matter), saved as out/compare/<layer> where `make pr`
// picks it up for that layer's PR body.
//
//   node tools/compare-layers.ts [--runs N] [--clock wall|cpu]   (env: LAYERS=a..b, OVERLAY_DIR)
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { parseFlags } from './lib/args.ts';
import { listLayers, selectLayers } from './lib/layers.ts';
import { readPatchMd } from './lib/patch-md.ts';
import { libDir, ROOT } from './lib/paths.ts';

const { values } = parseFlags({
  runs: { type: 'string', default: '15' },
  clock: { type: 'string' },
}, 'node tools/compare-layers.ts [--runs N] [--clock wall|cpu]   (env: LAYERS=a..b)');

function run(args: string[], env: NodeJS.ProcessEnv = process.env): void {
  const r = spawnSync(process.execPath, args, { cwd: ROOT, stdio: 'inherit', env });
  if (r.status !== 0) {
    console.error(`compare-layers: ${args.map((a) => a.replace(`${ROOT}/`, '')).join(' ')} failed (exit ${r.status ?? r.signal})`);
    process.exit(1);
  }
}

/** out/lib/layers-k (base + layers 1..k), built fresh; the base for k = 0. */
function libUpTo(k: number): string {
  if (k === 0) return libDir('base');
  run([join(ROOT, 'tools', 'build.ts'), '--quiet'], { ...process.env, LAYERS: String(k) });
  return libDir(`layers-${k}`);
}

const all = listLayers(process.env.OVERLAY_DIR ?? undefined);
const selected = selectLayers(all, process.env.LAYERS);
if (selected.length === 0) {
  console.error('compare-layers: no layers selected');
  process.exit(2);
}
for (const layer of selected) {
  const { bench } = readPatchMd(layer.dir);
  if (bench.length === 0) {
    console.error(`compare-layers: ${layer.name}/PATCH.md names no benchmarks (front matter 'bench: <filter>, …')`);
    process.exit(1);
  }
  const k = layer.index;
  console.error(`\n=== ${layer.name}: layers 1..${k - 1} vs 1..${k}, ${bench.join(', ')}`);
  const oldLib = libUpTo(k - 1);
  const newLib = libUpTo(k);
  run([join(ROOT, 'tools', 'compare.ts'), '--old', oldLib, '--new', newLib, '--runs', values.runs!,
    '--name', layer.name, ...bench.flatMap((f) => ['--filter', f]),
    ...(values.clock ? ['--clock', values.clock] : [])]);
}
