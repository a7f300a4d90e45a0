// The `layer-ordering` suite of `make test`: the ordering suite once per
// layer (LAYERS=k..k: the state after layer k-1 against the state after
// layer k, with only layer k's declarations in play), so that each patch
// of the series is judged as the commit it is upstream, not only the
// series as a whole.
//
//   node tools/layer-ordering.ts
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseFlags } from './lib/args.ts';
import { listLayers } from './lib/layers.ts';
import { ROOT } from './lib/paths.ts';
import { readSummaries, reportSummary } from './lib/summary.ts';

parseFlags({}, 'node tools/layer-ordering.ts');

const layers = listLayers();
let passed = 0;
let failed = 0;
const failing: string[] = [];
for (const layer of layers) {
  const dir = mkdtempSync(join(tmpdir(), 'webstreams-layer-ordering-'));
  try {
    const r = spawnSync(process.execPath, [join(ROOT, 'tools', 'ordering.ts')], {
      cwd: ROOT, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024,
      env: { ...process.env, LAYERS: `${layer.index}..${layer.index}`, OVERLAY_DIR: '', TEST_SUMMARY_DIR: dir },
    });
    const sum = readSummaries(dir).find((s) => s.suite === 'ordering');
    const output = `${r.stdout}${r.stderr}`.trimEnd();
    if (r.status !== 0 || !sum || sum.failed > 0) {
      console.log(output);
      failing.push(layer.name);
    }
    passed += sum?.passed ?? 0;
    failed += sum ? sum.failed : 1;
    console.log(`${layer.name}: ${output.split('\n').at(-1)}`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
reportSummary({ suite: 'layer-ordering', passed, failed, notes: failing.length ? `failing: ${failing.join(', ')}` : `${layers.length} layers` });
console.log(`layer-ordering: ${passed} passed, ${failed} failed over ${layers.length} layers`);
process.exitCode = failing.length ? 1 : 0;
