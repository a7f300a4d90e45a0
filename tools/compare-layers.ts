// `make compare-layers`: each layer's own table, made with Node's own tools.
// benchmark/compare.js runs the benchmarks the layer's PATCH.md names
// (`bench:` front matter) on layers 1..k-1 (the base for k = 1) and on
// layers 1..k, and benchmark/compare.R renders its CSV (tools/compare-node.ts,
// which also checks the rendering against tools/compare.ts's). The run goes
// to out/compare/<layer>, or out/compare-<name>/<layer> for lib-overlay-<name>
// (where `make pr [SERIES=<name>]` takes table.txt for the PR body);
// compare.R's table, indented so that Node's commit linter reads it as
// quoted text, becomes lib-overlay/<layer>/benchmarks.txt, which PATCH.md's
// {{benchmarks}} puts in the commit message.
//
//   node tools/compare-layers.ts [--runs N | --quick] [--cpuset LIST] [--no-write]   (env: LAYERS=a..b, OVERLAY_DIR)
// --cpuset pins every run (compare.js's --set CPUSET=LIST; tools/bench/cpu-pin.ts).
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { parseFlags } from './lib/args.ts';
import { listLayers, selectLayers, stateLibName } from './lib/layers.ts';
import { BENCHMARKS_FILE, readPatchMd } from './lib/patch-md.ts';
import { readLibDir } from './lib/libdir.ts';
import { compareRoot, libDir, ROOT } from './lib/paths.ts';
import { seriesOfRoot } from './series/config.ts';

const USAGE = 'node tools/compare-layers.ts [--runs N | --quick] [--cpuset LIST] [--no-write]   (env: LAYERS=a..b, OVERLAY_DIR)';

/** The commit message's benchmark section: how it was measured, then compare.R's output as quoted text. */
export function benchmarksText(rendered: string, runs: number, nodeVersion: string, cpuset?: string): string {
  const table = rendered.trimEnd().split('\n').map((line) => (line.trim() ? `    ${line}` : ''));
  return [
    `Results of benchmark/compare.js (${runs} runs of each side, rendered`,
    `by benchmark/compare.R), on the ${nodeVersion} release binary running`,
    'lib/internal/webstreams as of the previous commit (old) and of this',
    cpuset ? `one (new), every run pinned to CPU ${cpuset} (--set CPUSET=${cpuset}):` : 'one (new):',
    '',
    ...table,
    '',
  ].join('\n');
}

function run(args: string[]): void {
  const r = spawnSync(process.execPath, args, { cwd: ROOT, stdio: 'inherit' });
  if (r.status !== 0) {
    console.error(`compare-layers: ${args.map((a) => a.replace(`${ROOT}/`, '')).join(' ')} failed (exit ${r.status ?? r.signal})`);
    process.exit(1);
  }
}

function main(): void {
  const { values } = parseFlags({
    runs: { type: 'string' },
    quick: { type: 'boolean', default: false },
    cpuset: { type: 'string' },
    'no-write': { type: 'boolean', default: false },
  }, USAGE);
  const all = listLayers(process.env.OVERLAY_DIR || undefined);
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
  const runs = values.runs ?? (values.quick ? '4' : '15');
  if (!/^[1-9]\d*$/.test(runs)) {
    console.error(`compare-layers: --runs wants a positive integer, got '${runs}'`);
    process.exit(2);
  }
  // Every state of the series, fresh (out/lib/layers-k: base + layers 1..k).
  run([join(ROOT, 'tools', 'build.ts'), '--quiet']);
  const overlayName = process.env.OVERLAY_DIR ? basename(resolve(process.env.OVERLAY_DIR)) : undefined;
  const libUpTo = (k: number) => libDir(stateLibName(k, all.length, overlayName));
  // A series beside the main one (lib-overlay-<name>) keeps its runs apart.
  const series = process.env.OVERLAY_DIR ? seriesOfRoot(process.env.OVERLAY_DIR) : undefined;
  for (const [i, layer] of selected.entries()) {
    const k = layer.index;
    const out = join(compareRoot(series), layer.name);
    console.error(`\n=== ${layer.name}: layers 1..${k - 1} vs 1..${k}, ${benches[i].join(', ')}, ${runs} runs a side`);
    run([join(ROOT, 'tools', 'compare-node.ts'), '--old', libUpTo(k - 1), '--new', libUpTo(k), '--runs', runs,
      '--out', out, '--with-r', 'yes', ...benches[i].flatMap((f) => ['--filter', f]),
      ...(values.cpuset ? ['--set', `CPUSET=${values.cpuset}`] : [])]);
    if (values['no-write']) continue;
    // The release the new side runs in (the lib's manifest picks the binary): v24 for lib-overlay-v24.
    const { nodeVersion } = readLibDir(libUpTo(k)).manifest;
    const text = benchmarksText(readFileSync(join(out, 'compare.R.txt'), 'utf8'), Number(runs), nodeVersion, values.cpuset);
    writeFileSync(join(layer.dir, BENCHMARKS_FILE), text);
    console.error(`compare-layers: wrote ${join(layer.dir, BENCHMARKS_FILE).replace(`${ROOT}/`, '')}`);
  }
}

if (import.meta.main) main();
