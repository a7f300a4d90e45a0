// The `layers` suite of `make test`: every patch of the series judged as
// the commit it is upstream, not only the series as a whole (the `wpt`,
// `node-tests`, `ordering` and `fuzz` suites). For each layer k:
//
//   wpt, node-tests  the state after layer k (the states between the base
//                    and the whole series; those two are the main suites')
//   ordering, fuzz   LAYERS=k..k: the state after layer k-1 against the
//                    state after layer k, only layer k's declarations in
//                    play, 500 fuzz programs (--count), and as many with
//                    encoding streams (fuzz --coding: fuzz-coding)
//
// Each result is its own summary, `layers-<layer>-<kind>` (make test adds
// them up; make pr cites a patch's own in its PR).
//
//   node tools/layers-check.ts [--count N]
import { parseFlags } from './lib/args.ts';
import { listLayers, stateLibName } from './lib/layers.ts';
import { LIB_OVERLAY, libDir } from './lib/paths.ts';
import { runTool, wptResultOf } from './lib/run-tool.ts';
import { reportSummary } from './lib/summary.ts';

const { values } = parseFlags({ count: { type: 'string', default: '500' } }, 'node tools/layers-check.ts [--count N]');
if (!/^\d+$/.test(values.count!)) throw new Error(`--count must be a number of programs, not '${values.count}'`);

interface Step {
  label: string;
  /** The layer the step judges (its summary is `layers-<layer>-<kind>`, which make pr cites). */
  layer: string;
  kind: 'wpt' | 'node-tests' | 'ordering' | 'fuzz' | 'fuzz-coding';
  script: string;
  /** The summary the tool reports. */
  suite: string;
  args: string[];
  env?: NodeJS.ProcessEnv;
}

/** Runs one step's tool; its counts, and its output in full when it failed. */
function run(step: Step): { passed: number; failed: number; output: string; notes?: string } {
  const started = Date.now();
  const r = runTool(step.script, step.args, { OVERLAY_DIR: LIB_OVERLAY, ...step.env });
  // node-tests names its summary after the lib (`node-tests-<lib>`).
  const sum = r.summaries.find((s) => s.suite === step.suite || s.suite.startsWith(`${step.suite}-`));
  const output = r.output.trimEnd();
  const failed = sum ? sum.failed : 1;
  if (!r.ok || failed > 0) console.log(output);
  const counts = sum ? `${sum.passed} passed, ${sum.failed} failed${sum.notes ? ` (${sum.notes})` : ''}` : 'no result';
  console.log(`${step.label}: ${counts} (${((Date.now() - started) / 1000).toFixed(1)} s)`);
  return { passed: sum?.passed ?? 0, failed: !r.ok && failed === 0 ? 1 : failed, output, notes: sum?.notes };
}

const layers = listLayers();
const between = layers.slice(0, -1).map((l) => libDir(stateLibName(l.index, layers.length)));
const steps: Step[] = [
  ...between.map((d, i) => ({ label: `node-tests, ${layers[i].name}`, layer: layers[i].name, kind: 'node-tests' as const, script: 'node-tests.ts', suite: 'node-tests', args: ['--lib', d] })),
  ...layers.flatMap((l) => {
    const env = { LAYERS: `${l.index}..${l.index}` };
    return [
      { label: `ordering, ${l.name} alone`, layer: l.name, kind: 'ordering' as const, script: 'ordering.ts', suite: 'ordering', args: [], env },
      { label: `fuzz, ${l.name} alone`, layer: l.name, kind: 'fuzz' as const, script: 'fuzz.ts', suite: 'fuzz', args: ['--seed', '1', '--count', values.count!], env },
      { label: `fuzz with encoding streams, ${l.name} alone`, layer: l.name, kind: 'fuzz-coding' as const, script: 'fuzz.ts', suite: 'fuzz-coding', args: ['--seed', '1', '--count', values.count!, '--coding'], env },
    ];
  }),
];
const failing: string[] = [];
const summary = (layer: string, kind: string, passed: number, failed: number, notes?: string) => {
  reportSummary({ suite: `layers-${layer}-${kind}`, passed, failed, notes });
  if (failed > 0) failing.push(`${layer} (${kind})`);
};

// WPT once over every state between: one line per lib in its output.
const wpt = run({ label: `wpt, the ${between.length} states between base and patched`, layer: '', kind: 'wpt', script: 'wpt.ts', suite: 'wpt', args: [...between.flatMap((d) => ['--lib', d]), '--quiet'] });
between.forEach((d, i) => {
  const result = wptResultOf(wpt.output, d);
  const counts = result && /^(\d+) passed, (\d+) expected failures, (\d+) unexpected failures, (\d+) unexpected passes/.exec(result);
  if (!result || !counts) summary(layers[i].name, 'wpt', 0, 1, 'no WPT result for its state');
  // Counted as the wpt suite counts: an expected failure is a pass.
  else summary(layers[i].name, 'wpt', Number(counts[1]) + Number(counts[2]), Number(counts[3]) + Number(counts[4]), result);
});
for (const step of steps) {
  const r = run(step);
  summary(step.layer, step.kind, r.passed, r.failed, r.notes);
}
console.log(`layers: ${layers.length} layers${failing.length ? `; failing: ${failing.join(', ')}` : ', none failing'}`);
process.exitCode = failing.length ? 1 : 0;
