// `make wpt`: runs WPT streams, and the folders of the streams built on them
// (encoding/streams for TextDecoderStream and TextEncoderStream,
// compression, FileAPI/blob for Blob#stream()), on the base and on the
// patched lib, each file in its own
// Worker with a deadline, and judges the results against each folder's
// expectations (test/wpt-expectations.json for streams,
// test/wpt-expectations-<folder>.json for the others) and against the base.
//
//   node tools/wpt.ts [--dir <wpt folder>]... [--lib base] [--lib patched|<dir>] [--filter text] [--jobs N] [--timeout ms]
import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseFlags } from './lib/args.ts';
import { progress } from './lib/progress.ts';
import { requireFixtures, wptCommitOf, WPT_ROOT } from './lib/fixture-paths.ts';
import { injectedNode, resolveLib, type Lib } from './lib/injected.ts';
import { OUT, ROOT } from './lib/paths.ts';
import { reportSummary } from './lib/summary.ts';
import { findWptFiles, type WptFile } from './wpt/files.ts';
import { judge, loadExpectations, regressions, type Expectations, type Failure, type Verdict } from './wpt/expectations.ts';
import type { FileResult, WorkerJob } from './wpt/protocol.ts';

const USAGE = 'node tools/wpt.ts [--dir <wpt folder>]... [--lib base|patched|<dir>]... [--filter text] [--jobs N] [--timeout ms] [--expectations file]';
const { values } = parseFlags({
  dir: { type: 'string', multiple: true },
  lib: { type: 'string', multiple: true },
  filter: { type: 'string' },
  jobs: { type: 'string', default: '2' },
  timeout: { type: 'string', default: '20000' },
  expectations: { type: 'string' },
  quiet: { type: 'boolean', default: false },
}, USAGE);

const DIRS = ['streams', 'encoding/streams', 'compression', 'FileAPI/blob'];
const LONG_FACTOR = 3;

/** One WPT folder: its commit, its expectations and its files, keyed by path. */
interface Folder {
  dir: string;
  commit: string;
  expectationsFile: string;
  /** The folder's expectations with each path as a key (see keyOf). */
  exp: Expectations;
  /** The folder's files (those --filter selects), their `path` a key. */
  files: WptFile[];
}

/** A file's name in results and reports: streams' files keep their names, other folders' are prefixed. */
function keyOf(dir: string, path: string): string {
  return dir === 'streams' ? path : `${dir}/${path}`;
}

function readFolder(dir: string, expectationsFile: string): Folder {
  const commit = wptCommitOf(dir);
  const own = loadExpectations(expectationsFile, commit);
  const keyed = <T>(record: Record<string, T>) =>
    Object.fromEntries(Object.entries(record).map(([path, value]) => [keyOf(dir, path), value]));
  const files = findWptFiles(WPT_ROOT, dir)
    .map((f) => ({ ...f, path: keyOf(dir, f.path) }))
    .filter((f) => !values.filter || f.path.includes(values.filter));
  return { dir, commit, expectationsFile, exp: { source: own.source, skip: keyed(own.skip), fail: keyed(own.fail) }, files };
}

function jobsFor(files: WptFile[], timeoutMs: number): WorkerJob[] {
  return files.map((f) => ({
    wptRoot: WPT_ROOT,
    testFile: f.file,
    path: f.path,
    scripts: f.scripts,
    harness: join(WPT_ROOT, 'resources', 'testharness.js'),
    timeoutMs: f.long ? timeoutMs * LONG_FACTOR : timeoutMs,
    title: f.title,
  }));
}

function runOnLib(lib: Lib, jobs: WorkerJob[], concurrency: number): Promise<FileResult[]> {
  const outDir = join(OUT, 'wpt');
  mkdirSync(outDir, { recursive: true });
  const jobsFile = join(outDir, `jobs-${lib.name.replace(/\W+/g, '_')}.json`);
  writeFileSync(jobsFile, JSON.stringify(jobs));
  const host = join(ROOT, 'tools', 'wpt', 'host.ts');
  const { command, args, env } = injectedNode(lib, [host, jobsFile, String(concurrency)]);
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { env, stdio: ['ignore', 'pipe', 'inherit'] });
    const results: FileResult[] = [];
    const report = progress(`wpt ${lib.name} files`, jobs.length);
    let buffered = '';
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => {
      buffered += chunk;
      let nl;
      while ((nl = buffered.indexOf('\n')) >= 0) {
        const result = JSON.parse(buffered.slice(0, nl)) as FileResult;
        buffered = buffered.slice(nl + 1);
        results.push(result);
        report(results.length);
      }
    });
    child.on('error', reject);
    child.on('close', (code) => {
      if (code !== 0 || results.length !== jobs.length) {
        reject(new Error(`the WPT host on ${lib.name} exited with code ${code} after ${results.length}/${jobs.length} files`));
      } else {
        resolve(results.sort((a, b) => a.path.localeCompare(b.path)));
      }
    });
  });
}

function count(result: FileResult | undefined): string {
  if (!result) return '-';
  const pass = result.subtests.filter((t) => t.status === 'PASS').length;
  const flag = result.harness === 'OK' ? '' : ` ${result.harness}`;
  return `${pass}/${result.subtests.length}${flag}`;
}

function printTable(libs: Lib[], files: WptFile[], bySide: FileResult[][], exp: Expectations): void {
  const width = Math.max(...files.map((f) => f.path.length));
  console.log(`${'file'.padEnd(width)}  ${libs.map((l) => l.name.padStart(12)).join('  ')}`);
  for (const f of files) {
    const skip = exp.skip[f.path] ?? f.notApplicable;
    const cells = skip ? libs.map(() => 'skip'.padStart(12)) : bySide.map((rs) => count(rs.find((r) => r.path === f.path)).padStart(12));
    console.log(`${f.path.padEnd(width)}  ${cells.join('  ')}${skip ? `  (${skip})` : ''}`);
  }
}

function describe(f: Failure): string {
  const message = f.message ? `\n        ${f.message.split('\n').slice(0, 6).join('\n        ')}` : '';
  return `    ${f.path} :: ${f.name} [${f.status}]${message}`;
}

async function main(): Promise<void> {
  const fixtures = requireFixtures();
  const dirs = values.dir ?? DIRS;
  if (values.expectations && dirs.length !== 1) throw new Error('--expectations names one folder\'s file: give one --dir with it');
  const folders = dirs.map((dir) =>
    readFolder(dir, values.expectations ?? join(ROOT, 'test', `wpt-expectations${dir === 'streams' ? '' : `-${dir.replaceAll('/', '-')}`}.json`)));
  const files = folders.flatMap((f) => f.files);
  if (files.length === 0) throw new Error(`no WPT file matches --filter ${values.filter}`);
  const exp: Expectations = {
    source: folders.map((f) => f.exp.source).join('; '),
    skip: Object.assign({}, ...folders.map((f) => f.exp.skip)),
    fail: Object.assign({}, ...folders.map((f) => f.exp.fail)),
  };
  const libs = (values.lib ?? ['base', 'patched']).map(resolveLib);
  const runnable = files.filter((f) => !f.notApplicable && !(f.path in exp.skip));
  const jobs = jobsFor(runnable, Number(values.timeout));

  const bySide: FileResult[][] = [];
  for (const lib of libs) bySide.push(await runOnLib(lib, jobs, Number(values.jobs)));
  if (!values.quiet) printTable(libs, files, bySide, exp);

  let ok = true;
  let passed = 0;
  let failed = 0;
  const totals: string[] = [];
  libs.forEach((lib, i) => {
    const v: Verdict = judge(bySide[i], exp);
    // Expected failures are checked (they must still fail), so they count as passing checks.
    passed += v.passed + v.expectedFailures;
    failed += v.unexpectedFailures.length + v.unexpectedPasses.length;
    totals.push(`${lib.name}: ${v.passed} passed, ${v.expectedFailures} expected failures, ` +
      `${v.unexpectedFailures.length} unexpected failures, ${v.unexpectedPasses.length} unexpected passes`);
    if (v.unexpectedFailures.length > 0) {
      ok = false;
      console.log(`\nUNEXPECTED FAILURES on ${lib.name}:`);
      for (const f of v.unexpectedFailures) console.log(describe(f));
    }
    if (v.unexpectedPasses.length > 0) {
      ok = false;
      console.log(`\nUNEXPECTED PASSES on ${lib.name} (update ${folders.map((f) => f.expectationsFile).join(' or ')}):`);
      for (const f of v.unexpectedPasses) console.log(describe(f));
    }
  });
  const baseIndex = libs.findIndex((l) => l.name === 'base');
  for (let i = 0; i < libs.length; i++) {
    if (baseIndex < 0 || i === baseIndex) continue;
    const added = regressions(bySide[baseIndex], bySide[i]);
    if (added.length > 0) {
      ok = false;
      failed += added.length;
      console.log(`\nREGRESSIONS: ${libs[i].name} fails ${added.length} subtests the base passes:`);
      for (const f of added) console.log(describe(f));
    }
  }
  const skipped = files.length - runnable.length;
  const where = folders.map((f) => `${f.dir} @ ${f.commit.slice(0, 8)}`).join(', ');
  console.log(`\nWPT ${where} (${fixtures.origin}), ${runnable.length} files run, ${skipped} skipped by reason`);
  for (const t of totals) console.log(`  ${t}`);
  reportSummary({ suite: 'wpt', passed, failed, notes: totals.join('; ') });
  if (!ok) process.exitCode = 1;
}

main().catch((err: Error) => {
  console.error(`wpt: ${err.message}`);
  reportSummary({ suite: 'wpt', passed: 0, failed: 1, notes: err.message });
  process.exitCode = 1;
});
