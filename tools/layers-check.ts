// The `layers` suite of `make test`: every patch of the series judged as
// the commit it is upstream, not only the series as a whole (the `wpt`,
// `node-tests`, `ordering` and `fuzz` suites). For each layer k:
//
//   wpt, node-tests  the state after layer k (the states between the base
//                    and the whole series; those two are the main suites')
//   ordering, fuzz   LAYERS=k..k: the state after layer k-1 against the
//                    state after layer k, only layer k's declarations in
//                    play, 500 fuzz programs (--count)
//
//   node tools/layers-check.ts [--count N]
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseFlags } from './lib/args.ts';
import { listLayers, stateLibName } from './lib/layers.ts';
import { LIB_OVERLAY, libDir, ROOT } from './lib/paths.ts';
import { readSummaries, reportSummary } from './lib/summary.ts';

const { values } = parseFlags({ count: { type: 'string', default: '500' } }, 'node tools/layers-check.ts [--count N]');
if (!/^\d+$/.test(values.count!)) throw new Error(`--count must be a number of programs, not '${values.count}'`);

interface Step {
  label: string;
  script: string;
  /** The summary the tool reports. */
  suite: string;
  args: string[];
  env?: NodeJS.ProcessEnv;
}

/** Runs one harness tool; its counts, and its output in full when it failed. */
function run(step: Step): { passed: number; failed: number } {
  const dir = mkdtempSync(join(tmpdir(), 'webstreams-layers-'));
  const started = Date.now();
  try {
    const r = spawnSync(process.execPath, [join(ROOT, 'tools', step.script), ...step.args], {
      cwd: ROOT, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024,
      env: { ...process.env, LAYERS: '', OVERLAY_DIR: LIB_OVERLAY, ...step.env, TEST_SUMMARY_DIR: dir },
    });
    // node-tests names its summary after the lib (`node-tests-<lib>`).
    const sum = readSummaries(dir).find((s) => s.suite === step.suite || s.suite.startsWith(`${step.suite}-`));
    const output = `${r.stdout}${r.stderr}`.trimEnd();
    const failed = sum ? sum.failed : 1;
    if (r.status !== 0 || failed > 0) console.log(output);
    const counts = sum ? `${sum.passed} passed, ${sum.failed} failed${sum.notes ? ` (${sum.notes})` : ''}` : `no result (exit ${r.status})`;
    console.log(`${step.label}: ${counts} (${((Date.now() - started) / 1000).toFixed(1)} s)`);
    return { passed: sum?.passed ?? 0, failed: r.status !== 0 && failed === 0 ? 1 : failed };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const layers = listLayers();
const between = layers.slice(0, -1).map((l) => libDir(stateLibName(l.index, layers.length)));
const steps: Step[] = [
  { label: `wpt, the ${between.length} states between base and patched`, script: 'wpt.ts', suite: 'wpt', args: [...between.flatMap((d) => ['--lib', d]), '--quiet'] },
  ...between.map((d, i) => ({ label: `node-tests, ${layers[i].name}`, script: 'node-tests.ts', suite: 'node-tests', args: ['--lib', d] })),
  ...layers.flatMap((l) => {
    const env = { LAYERS: `${l.index}..${l.index}` };
    return [
      { label: `ordering, ${l.name} alone`, script: 'ordering.ts', suite: 'ordering', args: [], env },
      { label: `fuzz, ${l.name} alone`, script: 'fuzz.ts', suite: 'fuzz', args: ['--seed', '1', '--count', values.count!], env },
    ];
  }),
];
let passed = 0;
let failed = 0;
const failing: string[] = [];
for (const step of steps) {
  const r = run(step);
  passed += r.passed;
  failed += r.failed;
  if (r.failed > 0) failing.push(step.label);
}
reportSummary({ suite: 'layers', passed, failed, notes: failing.length ? `failing: ${failing.join('; ')}` : `${layers.length} layers` });
console.log(`layers: ${passed} passed, ${failed} failed over ${layers.length} layers`);
process.exitCode = failing.length ? 1 : 0;
