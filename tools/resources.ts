// `make resources`: resource checks (test/resources/checks.js) on each lib:
// heap growth over 10^6 chunks through a 3-transform chain, backpressure
// from a slow sink or reader, and cancel/abort releasing locks, chunks and
// pulls. Each lib's checks run in their own process with --expose-gc.
//
//   node tools/resources.ts [--lib base] [--lib patched|<dir>] [--only a,b] [--chunks N]
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { parseFlags } from './lib/args.ts';
import { injectedNode, resolveLib, type Lib } from './lib/injected.ts';
import { OUT, ROOT } from './lib/paths.ts';
import { reportSummary } from './lib/summary.ts';

const USAGE = 'node tools/resources.ts [--lib base|patched|<dir>]... [--only a,b] [--chunks N]';
const { values } = parseFlags({
  lib: { type: 'string', multiple: true },
  only: { type: 'string' },
  chunks: { type: 'string' },
}, USAGE);

const CHECKS = join(ROOT, 'test', 'resources', 'checks.js');

interface CheckResult {
  name: string;
  ok: boolean;
  detail: string;
}

export function runChecks(lib: Lib): CheckResult[] {
  const dir = join(OUT, 'resources');
  mkdirSync(dir, { recursive: true });
  const outFile = join(dir, `${process.pid}-${lib.name.replace(/\W+/g, '_')}.json`);
  const args = ['--expose-gc', CHECKS, '--out', outFile];
  if (values.only) args.push('--only', values.only);
  if (values.chunks) args.push('--chunks', values.chunks);
  const cmd = injectedNode(lib, args);
  const r = spawnSync(cmd.command, cmd.args, { env: cmd.env, encoding: 'utf8', timeout: 300_000, killSignal: 'SIGKILL' });
  try {
    if (r.status !== 0) throw new Error(`resource checks on ${lib.name} exited with ${r.status ?? r.signal}\n${r.stderr.trim()}`);
    return JSON.parse(readFileSync(outFile, 'utf8')) as CheckResult[];
  } finally {
    rmSync(outFile, { force: true });
  }
}

function main(): void {
  const libs = (values.lib?.length ? values.lib : ['base', 'patched']).map(resolveLib);
  let failed = 0;
  for (const lib of libs) {
    const started = Date.now();
    let results: CheckResult[];
    try {
      results = runChecks(lib);
    } catch (err) {
      console.log(`resources on ${lib.name}: ${(err as Error).message}`);
      reportSummary({ suite: `resources-${lib.name}`, passed: 0, failed: 1, notes: 'the checks did not run' });
      failed++;
      continue;
    }
    for (const r of results) console.log(`  ${r.ok ? 'ok  ' : 'FAIL'} ${lib.name} ${r.name}: ${r.detail}`);
    const bad = results.filter((r) => !r.ok).length;
    console.log(`resources on ${lib.name}: ${results.length - bad} passed, ${bad} failed (${((Date.now() - started) / 1000).toFixed(1)} s)`);
    reportSummary({ suite: `resources-${lib.name}`, passed: results.length - bad, failed: bad });
    failed += bad;
  }
  if (failed > 0) process.exitCode = 1;
}

try {
  main();
} catch (err) {
  console.error(`resources: ${(err as Error).message}`);
  reportSummary({ suite: 'resources', passed: 0, failed: 1, notes: (err as Error).message });
  process.exitCode = 1;
}
