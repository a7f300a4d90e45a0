// The `layer-ordering` suite of `make test`: the ordering suite and a short
// fuzz run once per layer (LAYERS=k..k: the state after layer k-1 against
// the state after layer k, with only layer k's declarations in play), so
// that each patch of the series is judged as the commit it is upstream,
// not only the series as a whole.
//
//   node tools/layer-ordering.ts [--count N]   (fuzz programs per layer, default 500)
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseFlags } from './lib/args.ts';
import { listLayers, type Layer } from './lib/layers.ts';
import { ROOT } from './lib/paths.ts';
import { readSummaries, reportSummary } from './lib/summary.ts';

const { values } = parseFlags({ count: { type: 'string', default: '500' } }, 'node tools/layer-ordering.ts [--count N]');
if (!/^\d+$/.test(values.count!)) throw new Error(`--count must be a number of programs, not '${values.count}'`);

/** Runs tools/<script> for one layer; its summary, and its output when it failed. */
function runFor(layer: Layer, script: string, suite: string, args: string[]): { passed: number; failed: number; last: string } {
  const dir = mkdtempSync(join(tmpdir(), 'webstreams-layer-ordering-'));
  try {
    const r = spawnSync(process.execPath, [join(ROOT, 'tools', script), ...args], {
      cwd: ROOT, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024,
      env: { ...process.env, LAYERS: `${layer.index}..${layer.index}`, OVERLAY_DIR: '', TEST_SUMMARY_DIR: dir },
    });
    const sum = readSummaries(dir).find((s) => s.suite === suite);
    const output = `${r.stdout}${r.stderr}`.trimEnd();
    const failed = sum ? sum.failed : 1;
    if (r.status !== 0 || failed > 0) console.log(output);
    return { passed: sum?.passed ?? 0, failed: r.status !== 0 && failed === 0 ? 1 : failed, last: output.split('\n').at(-1) ?? '' };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const layers = listLayers();
let passed = 0;
let failed = 0;
const failing: string[] = [];
for (const layer of layers) {
  for (const [script, suite, args] of [
    ['ordering.ts', 'ordering', []],
    ['fuzz.ts', 'fuzz', ['--seed', '1', '--count', values.count!]],
  ] as const) {
    const r = runFor(layer, script, suite, [...args]);
    passed += r.passed;
    failed += r.failed;
    if (r.failed > 0) failing.push(`${layer.name} (${suite})`);
    console.log(`${layer.name}: ${r.last}`);
  }
}
reportSummary({ suite: 'layer-ordering', passed, failed, notes: failing.length ? `failing: ${failing.join(', ')}` : `${layers.length} layers` });
console.log(`layer-ordering: ${passed} passed, ${failed} failed over ${layers.length} layers`);
process.exitCode = failing.length ? 1 : 0;
