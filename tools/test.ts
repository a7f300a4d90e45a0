// `make test`: every suite in turn, then one plain line `N passed, M failed`.
// A suite that crashes or reports nothing counts as a failure, never as a pass.
//
//   node tools/test.ts [--only name,name] [--skip name,name]
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { parseFlags } from './lib/args.ts';
import { OUT, ROOT } from './lib/paths.ts';
import { readSummaries, type SuiteSummary } from './lib/summary.ts';

const { values } = parseFlags({
  only: { type: 'string' },
  skip: { type: 'string' },
}, 'node tools/test.ts [--only a,b] [--skip a,b]');

interface Suite {
  name: string;
  argv: string[];
  /** How the suite's counts are read: its own summary file, node:test TAP, or its exit code as one check. */
  counts: 'summary' | 'tap' | 'exit';
}

const node = process.execPath;
const tapFile = join(OUT, 'test-results', 'unit.tap');
// Random programs against the reference implementation, without the ops tools/reference.ts leaves out by default.
const REFERENCE_FUZZ = ['--seed', '1', '--count', '4000'];

export const SUITES: Suite[] = [
  { name: 'typecheck', argv: [join(ROOT, 'node_modules', '.bin', 'tsc'), '-p', join(ROOT, 'tsconfig.json')], counts: 'exit' },
  { name: 'base-check', argv: [node, join(ROOT, 'tools', 'base.ts'), '--check'], counts: 'exit' },
  { name: 'overlay-typecheck', argv: [node, join(ROOT, 'tools', 'overlay-typecheck.ts')], counts: 'summary' },
  { name: 'lint', argv: [node, join(ROOT, 'tools', 'lint.ts'), '--all-node-tests'], counts: 'summary' },
  { name: 'patches-check', argv: [node, join(ROOT, 'tools', 'patches.ts'), '--check'], counts: 'exit' },
  {
    name: 'unit',
    argv: [node, '--test', '--test-concurrency=2',
      '--test-reporter=spec', '--test-reporter-destination=stdout',
      '--test-reporter=tap', `--test-reporter-destination=${tapFile}`,
      'test/unit/**/*.test.ts'],
    counts: 'tap',
  },
  { name: 'wpt', argv: [node, join(ROOT, 'tools', 'wpt.ts'), '--quiet'], counts: 'summary' },
  { name: 'node-tests', argv: [node, join(ROOT, 'tools', 'node-tests.ts')], counts: 'summary' },
  { name: 'ordering', argv: [node, join(ROOT, 'tools', 'ordering.ts')], counts: 'summary' },
  // The series against the reference implementation: the corpus, and random programs without the shapes whose manner Node may choose.
  { name: 'reference', argv: [node, join(ROOT, 'tools', 'reference.ts')], counts: 'summary' },
  { name: 'reference-fuzz', argv: [node, join(ROOT, 'tools', 'reference.ts'), ...REFERENCE_FUZZ], counts: 'summary' },
  // Each layer on its own: its state's WPT and Node's tests, its ordering and fuzz against the state before.
  { name: 'layers', argv: [node, join(ROOT, 'tools', 'layers-check.ts')], counts: 'summary' },
  { name: 'fuzz', argv: [node, join(ROOT, 'tools', 'fuzz.ts'), '--seed', '1', '--count', '1000'], counts: 'summary' },
  // The same seed's programs with transform()s that drop some chunks.
  { name: 'fuzz-drops', argv: [node, join(ROOT, 'tools', 'fuzz.ts'), '--seed', '1', '--count', '1000', '--drops'], counts: 'summary' },
  // And with pipes through TextEncoderStream and TextDecoderStream as well.
  { name: 'fuzz-coding', argv: [node, join(ROOT, 'tools', 'fuzz.ts'), '--seed', '1', '--count', '1000', '--coding'], counts: 'summary' },
  { name: 'resources', argv: [node, join(ROOT, 'tools', 'resources.ts')], counts: 'summary' },
  { name: 'node-intree', argv: [node, join(ROOT, 'tools', 'node', 'intree-check.ts')], counts: 'summary' },
  // The v24.x series (lib-overlay-v24/, doc/series-v24.md) on its own base and binary.
  { name: 'series-v24', argv: [node, join(ROOT, 'tools', 'series', 'check.ts'), '--series', 'v24'], counts: 'summary' },
  // The v24 series against the reference implementation (its lib is built by series-v24).
  { name: 'reference-v24', argv: [node, join(ROOT, 'tools', 'reference.ts'), '--series', 'v24'], counts: 'summary' },
  { name: 'reference-fuzz-v24', argv: [node, join(ROOT, 'tools', 'reference.ts'), '--series', 'v24', ...REFERENCE_FUZZ], counts: 'summary' },
  { name: 'intree-series-v24', argv: [node, join(ROOT, 'tools', 'series', 'intree.ts'), '--series', 'v24'], counts: 'summary' },
  // The base's bugs the series fixes, as standalone PRs on the pinned base (lib-overlay-fixes/).
  { name: 'series-fixes', argv: [node, join(ROOT, 'tools', 'series', 'check.ts'), '--series', 'fixes'], counts: 'summary' },
  // The fixes series against the reference implementation (its lib is built by series-fixes).
  { name: 'reference-fixes', argv: [node, join(ROOT, 'tools', 'reference.ts'), '--series', 'fixes'], counts: 'summary' },
  { name: 'reference-fuzz-fixes', argv: [node, join(ROOT, 'tools', 'reference.ts'), '--series', 'fixes', ...REFERENCE_FUZZ], counts: 'summary' },
  { name: 'intree-series-fixes', argv: [node, join(ROOT, 'tools', 'series', 'intree.ts'), '--series', 'fixes'], counts: 'summary' },
];

function list(text: string | undefined): Set<string> | undefined {
  return text ? new Set(text.split(',').map((s) => s.trim())) : undefined;
}

function tapCounts(): { passed: number; failed: number } {
  const tap = readFileSync(tapFile, 'utf8');
  const read = (key: string) => Number(new RegExp(`^# ${key} (\\d+)$`, 'm').exec(tap)?.[1] ?? NaN);
  const passed = read('pass');
  const failed = read('fail') + read('cancelled');
  if (Number.isNaN(passed) || Number.isNaN(failed)) throw new Error(`${tapFile} has no totals`);
  if (read('skipped') > 0 || read('todo') > 0) {
    // A skipped unit test is not a pass; count it against the run.
    return { passed, failed: failed + read('skipped') + read('todo') };
  }
  return { passed, failed };
}

function runSuite(suite: Suite, summaries: string): SuiteSummary {
  console.log(`\n=== ${suite.name}: ${suite.argv.map((a) => a.replace(`${ROOT}/`, '')).join(' ')}`);
  const started = Date.now();
  const r = spawnSync(suite.argv[0], suite.argv.slice(1), {
    cwd: ROOT,
    stdio: 'inherit',
    env: { ...process.env, TEST_SUMMARY_DIR: summaries },
  });
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  const exitOk = r.status === 0;
  let result: SuiteSummary;
  if (suite.counts === 'exit') {
    result = { suite: suite.name, passed: exitOk ? 1 : 0, failed: exitOk ? 0 : 1 };
  } else if (suite.counts === 'tap') {
    try {
      result = { suite: suite.name, ...tapCounts() };
    } catch (err) {
      result = { suite: suite.name, passed: 0, failed: 1, notes: (err as Error).message };
    }
  } else {
    const reported = readSummaries(summaries).filter((s) => s.suite === suite.name || s.suite.startsWith(`${suite.name}-`));
    result = {
      suite: suite.name,
      passed: reported.reduce((n, s) => n + s.passed, 0),
      failed: reported.reduce((n, s) => n + s.failed, 0),
      // A suite of many results (layers) names its failing ones, not every note.
      notes: reported.length > 4
        ? (reported.some((s) => s.failed > 0) ? `failing: ${reported.filter((s) => s.failed > 0).map((s) => s.suite).join(', ')}` : `${reported.length} results`)
        : reported.map((s) => s.notes).filter(Boolean).join('; '),
    };
    if (reported.length === 0) {
      result.failed++;
      result.notes = 'the suite wrote no summary';
    }
  }
  // A non-zero exit with nothing counted as failed is still a failure.
  if (!exitOk && result.failed === 0) {
    result.failed = 1;
    result.notes = `${result.notes ? `${result.notes}; ` : ''}exit ${r.status ?? r.signal}`;
  }
  console.log(`=== ${suite.name}: ${result.passed} passed, ${result.failed} failed (${seconds} s)${result.notes ? ` — ${result.notes}` : ''}`);
  return result;
}

function main(): void {
  const only = list(values.only);
  const skip = list(values.skip);
  for (const name of [...(only ?? []), ...(skip ?? [])]) {
    if (!SUITES.some((s) => s.name === name)) {
      console.error(`unknown suite '${name}'; suites: ${SUITES.map((s) => s.name).join(', ')}`);
      process.exit(2);
    }
  }
  const summaries = join(OUT, 'test-results', 'summaries');
  rmSync(join(OUT, 'test-results'), { recursive: true, force: true });
  mkdirSync(summaries, { recursive: true });
  const results = SUITES.filter((s) => (!only || only.has(s.name)) && !skip?.has(s.name)).map((s) => runSuite(s, summaries));
  console.log('\nsuite totals:');
  const width = Math.max(...results.map((r) => r.suite.length));
  for (const r of results) console.log(`  ${r.suite.padEnd(width)} ${String(r.passed).padStart(6)} passed ${String(r.failed).padStart(4)} failed`);
  const passed = results.reduce((n, r) => n + r.passed, 0);
  const failed = results.reduce((n, r) => n + r.failed, 0);
  console.log(`${passed} passed, ${failed} failed`);
  process.exitCode = failed > 0 ? 1 : 0;
}

main();
