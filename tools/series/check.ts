// The `series-<name>` suite of `make test`: a series kept beside the main
// one (lib-overlay-<name>/), checked on its own base in that release's
// binary. Each step runs the same tool the main series uses:
//
//   build      tools/build.ts --overlay   every state; the per-layer type check
//   patches    tools/patches.ts --check   <patches>/ and the locks are current
//   lint       tools/lint.ts              the base (clean: the calibration) and the last state
//   wpt        tools/wpt.ts               the base and every state
//   node-tests tools/node-tests.ts        the base and every state
//   ordering   tools/ordering.ts          each layer: state k-1 against state k
//   fuzz       tools/fuzz.ts              the same, 500 random programs (seed 1)
//   fuzz-coding tools/fuzz.ts --coding    the same, with encoding streams
//
// The tools' own summaries go to a private directory and come back as
// `series-<name>-<step>` (so they never mix with the main series'), also
// into out/series-<name>/summaries for `make pr SERIES=<name>`, with the
// per-layer table in out/series-<name>/results.md.
//
//   node tools/series/check.ts --series v24 [--skip wpt,node-tests,…]
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { basename, join, relative } from 'node:path';
import { parseFlags } from '../lib/args.ts';
import { resolveBase } from '../lib/base-spec.ts';
import { OUT, ROOT } from '../lib/paths.ts';
import { runTool, wptResultOf } from '../lib/run-tool.ts';
import { reportSummary, type SuiteSummary } from '../lib/summary.ts';
import { readSeries, seriesStateLib, type SeriesConfig } from './config.ts';

const STEPS = ['build', 'patches', 'lint', 'wpt', 'node-tests', 'ordering', 'fuzz', 'fuzz-coding'] as const;
type Step = typeof STEPS[number];

function lastLines(text: string, n: number): string {
  return text.trimEnd().split('\n').slice(-n).map((l) => `    ${l}`).join('\n');
}

export interface LayerRow {
  state: string;
  wpt?: string;
  nodeTests?: string;
  ordering?: string;
  fuzz?: string;
  'fuzz-coding'?: string;
}

function main(): void {
  const { values } = parseFlags({
    series: { type: 'string' },
    skip: { type: 'string' },
  }, 'node tools/series/check.ts --series NAME [--skip step,step]');
  if (!values.series) throw new Error('--series NAME is required (e.g. --series v24)');
  const s: SeriesConfig = readSeries(values.series);
  const skip = new Set((values.skip ?? '').split(',').filter(Boolean));
  for (const x of skip) if (!STEPS.includes(x as Step)) throw new Error(`unknown step '${x}'; steps: ${STEPS.join(', ')}`);
  const out = join(OUT, `series-${s.name}`);
  const evidence = join(out, 'summaries');
  rmSync(evidence, { recursive: true, force: true });
  mkdirSync(evidence, { recursive: true });
  const report = (summary: SuiteSummary) => {
    reportSummary(summary);
    writeFileSync(join(evidence, `${summary.suite}.json`), JSON.stringify(summary));
    console.log(`${summary.suite}: ${summary.passed} passed, ${summary.failed} failed${summary.notes ? ` (${summary.notes})` : ''}`);
  };
  const prefix = `series-${s.name}`;
  const root = relative(ROOT, s.root);
  console.log(`series ${s.name}: ${root}, ${s.layers.length} layers on ${s.base}`);

  const built = runTool('build.ts', ['--overlay', root, '--quiet']);
  report({ suite: `${prefix}-build`, passed: built.ok ? 1 : 0, failed: built.ok ? 0 : 1 });
  if (!built.ok) {
    console.log(lastLines(built.output, 30));
    return;
  }
  const base = resolveBase(s.base);
  const states = s.layers.map((_, i) => seriesStateLib(s, i + 1, base.dir));
  const name = (dir: string) => (dir === base.dir ? `base ${base.nodeVersion}` : basename(dir));
  const rows: LayerRow[] = [base.dir, ...states].map((d) => ({ state: name(d) }));

  if (!skip.has('patches')) {
    const r = runTool('patches.ts', ['--overlay', root, '--out', relative(ROOT, s.patches), '--check']);
    if (!r.ok) console.log(lastLines(r.output, 20));
    report({ suite: `${prefix}-patches`, passed: r.ok ? 1 : 0, failed: r.ok ? 0 : 1 });
  }
  if (!skip.has('lint')) {
    const r = runTool('lint.ts', ['--lib', base.dir, '--lib', states.at(-1)!, '--base', base.dir]);
    if (!r.ok) console.log(lastLines(r.output, 20));
    const sum = r.summaries.find((x) => x.suite === 'lint');
    report({ suite: `${prefix}-lint`, passed: sum?.passed ?? 0, failed: sum ? sum.failed : 1 });
  }
  if (!skip.has('wpt')) {
    const r = runTool('wpt.ts', [...[base.dir, ...states].flatMap((d) => ['--lib', d]), '--quiet']);
    const sum = r.summaries.find((x) => x.suite === 'wpt');
    // One line per lib: `  <dir>: N passed, M expected failures, …`.
    for (const [i, d] of [base.dir, ...states].entries()) {
      rows[i].wpt = wptResultOf(r.output, d);
    }
    if (!r.ok) console.log(lastLines(r.output, 20));
    report({ suite: `${prefix}-wpt`, passed: sum?.passed ?? 0, failed: sum ? sum.failed : 1, notes: `${states.length + 1} libs` });
  }
  if (!skip.has('node-tests')) {
    let passed = 0;
    let failed = 0;
    for (const [i, d] of [base.dir, ...states].entries()) {
      // OVERLAY_DIR: the tests the series' layers add (their node/test/parallel files).
      const r = runTool('node-tests.ts', ['--lib', d, '--expectations', s.nodeTestExpectations], { OVERLAY_DIR: s.root });
      const sum = r.summaries[0];
      if (!r.ok) console.log(lastLines(r.output, 10));
      passed += sum?.passed ?? 0;
      failed += sum ? sum.failed : 1;
      rows[i].nodeTests = sum ? `${sum.passed} passed, ${sum.failed} failed` : 'no result';
    }
    report({ suite: `${prefix}-node-tests`, passed, failed });
  }
  // Each layer judged alone (LAYERS=k..k: only its declared deviations are
  // in play), the state before it against the state after it.
  const eachLayer = (step: 'ordering' | 'fuzz' | 'fuzz-coding', script: string, args: string[]) => {
    let passed = 0;
    let failed = 0;
    const notes: string[] = [];
    for (let k = 1; k <= states.length; k++) {
      const old = k === 1 ? base.dir : states[k - 2];
      const r = runTool(script, ['--old', old, '--new', states[k - 1], '--overlay', root, ...args], { LAYERS: `${k}..${k}` });
      const sum = r.summaries.find((x) => x.suite === step);
      if (!r.ok) console.log(lastLines(r.output, 30));
      passed += sum?.passed ?? 0;
      failed += sum ? sum.failed : 1;
      rows[k][step] = sum ? `${sum.passed} passed, ${sum.failed} failed${sum.notes ? ` (${sum.notes})` : ''}` : 'no result';
      if (!sum || sum.failed) notes.push(`layer ${k}`);
    }
    report({ suite: `${prefix}-${step}`, passed, failed, notes: notes.length ? `failing: ${notes.join(', ')}` : undefined });
  };
  if (!skip.has('ordering')) eachLayer('ordering', 'ordering.ts', []);
  if (!skip.has('fuzz')) eachLayer('fuzz', 'fuzz.ts', ['--seed', '1', '--count', '500']);
  if (!skip.has('fuzz-coding')) eachLayer('fuzz-coding', 'fuzz.ts', ['--seed', '1', '--count', '500', '--coding']);
  const table = ['| state | WPT | Node\'s tests | ordering (against the state before) | fuzz, 500 programs (against the state before) | fuzz with encoding streams, 500 programs (the same) |', '|---|---|---|---|---|---|',
    ...rows.map((r) => `| ${r.state} | ${r.wpt ?? ''} | ${r.nodeTests ?? ''} | ${r.ordering ?? ''} | ${r.fuzz ?? ''} | ${r['fuzz-coding'] ?? ''} |`)].join('\n');
  writeFileSync(join(out, 'results.md'), `${table}\n`);
  console.log(`\n${table}\n(${relative(ROOT, join(out, 'results.md'))})`);
}

try {
  main();
} catch (err) {
  console.error(`series: ${(err as Error).message}`);
  reportSummary({ suite: `series-${process.argv.includes('--series') ? process.argv[process.argv.indexOf('--series') + 1] : 'unknown'}`, passed: 0, failed: 1, notes: (err as Error).message });
  process.exitCode = 1;
}
