// `make node-tests`: the tests of the fixtures' test/parallel (and the other
// NODE_TEST_FOLDERS) that use web streams, each in its own process on the
// injected lib, judged against test/node-tests-expectations.json.
//
//   node tools/node-tests.ts [--lib patched|base|<dir>] [--filter text] [--jobs N] [--timeout ms]
import { spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { parseFlags } from './lib/args.ts';
import { forEachConcurrently } from './lib/pool.ts';
import { progress } from './lib/progress.ts';
import { NODE_FIXTURES, NODE_TEST_FOLDERS, requireFixtures } from './lib/fixture-paths.ts';
import { usesWebStreams } from './lib/web-streams-use.ts';
import { injectedNode, resolveLib, type Lib } from './lib/injected.ts';
import { LIB_OVERLAY, OUT, ROOT } from './lib/paths.ts';
import { readLibDir } from './lib/libdir.ts';
import { reportSummary } from './lib/summary.ts';
import { flagsOf } from './lib/test-flags.ts';

const USAGE = 'node tools/node-tests.ts [--lib patched|base|<dir>] [--filter text] [--jobs N] [--timeout ms]';
const { values } = parseFlags({
  lib: { type: 'string', default: 'patched' },
  filter: { type: 'string' },
  jobs: { type: 'string', default: '2' },
  timeout: { type: 'string', default: '60000' },
  expectations: { type: 'string', default: join(ROOT, 'test', 'node-tests-expectations.json') },
}, USAGE);

const PARALLEL = join(NODE_FIXTURES, 'test', 'parallel');
interface Expectations {
  source: string;
  /** Tests that fail on the unmodified base, with the reason. */
  fail: Record<string, string>;
}

interface Outcome {
  file: string;
  ok: boolean;
  output: string;
  ms: number;
}

// A test is named by its path from test/parallel, where it runs from:
// `test-x.js` there, `../es-module/test-x.js` in another folder.
function selectTests(): string[] {
  const tests: string[] = [];
  for (const folder of NODE_TEST_FOLDERS) {
    const dir = join(NODE_FIXTURES, 'test', folder);
    if (!existsSync(dir)) throw new Error(`the fixtures have no test/${folder}; run \`make fixtures\``);
    for (const f of readdirSync(dir).sort()) {
      if (!/^test-.*\.m?js$/.test(f) || !usesWebStreams(readFileSync(join(dir, f), 'utf8'))) continue;
      const name = folder === 'parallel' ? f : join('..', folder, f);
      if (!values.filter || name.includes(values.filter)) tests.push(name);
    }
  }
  return tests;
}

// The tests the series itself adds (lib-overlay/<layer>/node/test/parallel/)
// for the layers the lib was built from. They are copied next to the
// fixture's test/parallel so that `require('../common')` finds test/common.
const SERIES = join(NODE_FIXTURES, 'test', 'series');

function seriesTests(lib: Lib): string[] {
  rmSync(SERIES, { recursive: true, force: true });
  mkdirSync(SERIES, { recursive: true });
  const overlay = process.env.OVERLAY_DIR || LIB_OVERLAY;
  const out: string[] = [];
  for (const layer of readLibDir(lib.dir).manifest.layers) {
    const dir = join(overlay, layer, 'node', 'test', 'parallel');
    if (!existsSync(dir)) continue;
    for (const name of readdirSync(dir).sort()) {
      if (!/\.m?js$/.test(name) || (values.filter && !name.includes(values.filter))) continue;
      cpSync(join(dir, name), join(SERIES, name));
      out.push(join('..', 'series', name));
    }
  }
  return out;
}

function runTest(lib: Lib, file: string, timeoutMs: number, tmp: string): Promise<Outcome> {
  const path = join(PARALLEL, file);
  const { command, args, env } = injectedNode(lib, [...flagsOf(readFileSync(path, 'utf8')), path]);
  const started = Date.now();
  return new Promise((resolve) => {
    // test/common/tmpdir.js makes its folder under NODE_TEST_DIR, per TEST_SERIAL_ID.
    const child = spawn(command, args, {
      cwd: NODE_FIXTURES,
      env: { ...env, NODE_TEST_DIR: tmp, TEST_SERIAL_ID: file },
      stdio: ['ignore', 'pipe', 'pipe'],
      timeout: timeoutMs,
      killSignal: 'SIGKILL',
    });
    let output = '';
    const keep = (chunk: Buffer) => { if (output.length < 16_384) output += chunk; };
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    child.on('close', (code, signal) => {
      const ms = Date.now() - started;
      const timedOut = signal === 'SIGKILL' && ms >= timeoutMs;
      resolve({ file, ok: code === 0, ms, output: timedOut ? `TIMEOUT after ${timeoutMs} ms\n${output}` : output });
    });
  });
}

async function main(): Promise<void> {
  const fixtures = requireFixtures();
  const all = JSON.parse(readFileSync(values.expectations!, 'utf8')) as Record<string, Expectations>;
  const exp = all[fixtures.version];
  if (!exp) throw new Error(`${values.expectations} has no entry for fixtures ${fixtures.version}; known: ${Object.keys(all).join(', ')}`);
  const lib = resolveLib(values.lib!);
  const tests = [...selectTests(), ...seriesTests(lib)];
  if (tests.length === 0) throw new Error('no Node test selected');
  const tmp = join(OUT, 'node-tests-tmp');
  rmSync(tmp, { recursive: true, force: true });
  mkdirSync(tmp, { recursive: true });

  const outcomes: Outcome[] = [];
  const report = progress(`node tests on ${lib.name}`, tests.length);
  await forEachConcurrently(tests, Number(values.jobs), (file) => runTest(lib, file, Number(values.timeout), tmp), (outcome) => {
    outcomes.push(outcome);
    report(outcomes.length);
  });

  let passed = 0;
  const failures: string[] = [];
  // A test that skips itself (test/common's skip(): `1..0 # Skipped: why`,
  // exit 0) is neither passed nor failed: it is listed with its reason.
  const skipped: string[] = [];
  for (const o of outcomes.sort((a, b) => a.file.localeCompare(b.file))) {
    const expectedFail = exp.fail[o.file];
    const skip = o.ok ? /^1\.\.0 # Skipped: ?(.*)$/m.exec(o.output)?.[1] : undefined;
    let verdict: string;
    if (skip !== undefined) {
      verdict = `skipped (${skip})`;
      skipped.push(`${o.file}: ${skip}`);
    } else if (o.ok && expectedFail) {
      verdict = 'UNEXPECTED PASS';
      failures.push(`${o.file}: passes, but ${values.expectations} lists it as failing (${expectedFail})`);
    } else if (o.ok) {
      verdict = 'ok';
      passed++;
    } else if (expectedFail) {
      verdict = `expected failure (${expectedFail})`;
      passed++;
    } else {
      verdict = 'FAIL';
      failures.push(`${o.file}:\n      ${o.output.trim().split('\n').slice(0, 20).join('\n      ')}`);
    }
    const tag = verdict === 'ok' ? 'ok  ' : verdict.startsWith('expected') ? 'xfail' : verdict.startsWith('skipped') ? 'skip ' : 'FAIL';
    console.log(`  ${tag} ${o.file} (${o.ms} ms)${tag === 'xfail' || tag === 'skip ' ? ` ${verdict}` : ''}`);
  }
  for (const name of Object.keys(exp.fail)) {
    if (!tests.includes(name) && !values.filter) failures.push(`${name}: listed in ${values.expectations} but not found`);
  }
  if (failures.length > 0) {
    console.log(`\nFAILURES on ${lib.name}:`);
    for (const f of failures) console.log(`  ${f}`);
  }
  const xfail = outcomes.filter((o) => !o.ok && exp.fail[o.file]).length;
  const skips = skipped.length ? `, ${skipped.length} skipped by the test itself (${skipped.join('; ')})` : '';
  console.log(`\nNode's tests that use web streams (${fixtures.origin}) on ${lib.name}: ${passed} passed (${xfail} expected failures), ${failures.length} failed${skips}`);
  reportSummary({ suite: `node-tests-${lib.name}`, passed, failed: failures.length, notes: `${xfail} expected failures${skips}` });
  if (failures.length > 0) process.exitCode = 1;
}

main().catch((err: Error) => {
  console.error(`node-tests: ${err.message}`);
  reportSummary({ suite: 'node-tests', passed: 0, failed: 1, notes: err.message });
  process.exitCode = 1;
});
