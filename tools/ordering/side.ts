// Runs the ordering harness (test/ordering/main.js) on one lib, or on the
// reference implementation: one process for the whole batch, logs handed
// back through a JSON file.
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { injectedNode, type Lib } from '../lib/injected.ts';
import { OUT, PINNED_NODE, ROOT } from '../lib/paths.ts';
import { firstDifference } from './diff.ts';

export const HARNESS_MAIN = join(ROOT, 'test', 'ordering', 'main.js');
export const CORPUS = join(ROOT, 'test', 'ordering', 'scenarios');
/** Preloaded to run the harness on the reference implementation (web-streams-polyfill). */
export const REFERENCE_PRELOAD = join(ROOT, 'test', 'ordering', 'reference.mjs');
export const REFERENCE: Lib = { name: 'reference', dir: join(ROOT, 'node_modules', 'web-streams-polyfill') };

export interface SideResult {
  lib: Lib;
  /** Scenario id → log lines, in run order. */
  logs: Map<string, string[]>;
  /** Events that arrived after their scenario had ended. */
  stray: string[];
  ms: number;
}

export type Batch =
  | { kind: 'corpus'; corpus?: string; filter?: string }
  | { kind: 'programs'; programs: { id: string; program: unknown }[] };

let serial = 0;

/** Runs `batch` on `lib`; on REFERENCE, on the pinned Node with the reference implementation's classes as the globals. */
export function runSide(lib: Lib, batch: Batch, timeoutMs = 120_000): Promise<SideResult> {
  const dir = join(OUT, 'ordering', 'tmp');
  mkdirSync(dir, { recursive: true });
  const tag = `${process.pid}-${++serial}-${lib.name.replace(/\W+/g, '_')}`;
  const outFile = join(dir, `${tag}.out.json`);
  const progressFile = join(dir, `${tag}.progress`);
  // A runaway scenario must fail the run, not eat the shared machine's memory.
  const args = ['--max-old-space-size=1024', HARNESS_MAIN, '--out', outFile, '--progress', progressFile];
  if (batch.kind === 'corpus') {
    args.push('--corpus', batch.corpus ?? CORPUS);
    if (batch.filter) args.push('--filter', batch.filter);
  } else {
    const programsFile = join(dir, `${tag}.programs.json`);
    writeFileSync(programsFile, JSON.stringify(batch.programs));
    args.push('--programs', programsFile);
  }
  const cmd = lib === REFERENCE ? { command: PINNED_NODE, args: ['--import', REFERENCE_PRELOAD, ...args], env: process.env } : injectedNode(lib, args);
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const child = spawn(cmd.command, cmd.args, {
      env: cmd.env, stdio: ['ignore', 'ignore', 'pipe'], timeout: timeoutMs, killSignal: 'SIGKILL',
    });
    let stderr = '';
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk: string) => { if (stderr.length < 8192) stderr += chunk; });
    child.on('error', reject);
    child.on('close', (code, signal) => {
      const ms = Date.now() - started;
      try {
        if (code !== 0) {
          const why = signal === 'SIGKILL' ? `was killed after ${timeoutMs} ms (a scenario that never yields?)` : `exited with ${code ?? signal}`;
          let running = '';
          try {
            running = ` while running ${readFileSync(progressFile, 'utf8')}`;
          } catch { /* it never started a scenario */ }
          throw new Error(`the ordering harness on ${lib.name} ${why}${running}\n${stderr.trim()}`);
        }
        const parsed = JSON.parse(readFileSync(outFile, 'utf8')) as { logs: [string, string[]][]; stray: string[] };
        resolve({ lib, logs: new Map(parsed.logs), stray: parsed.stray, ms });
      } catch (err) {
        reject(err);
      } finally {
        rmSync(outFile, { force: true });
        rmSync(progressFile, { force: true });
        if (batch.kind === 'programs') rmSync(join(dir, `${tag}.programs.json`), { force: true });
      }
    });
  });
}

/**
 * Of `programs`, the ids of those whose run again on `lib`, in reverse
 * order after the others, gives another log than `logs`. A verdict that
 * reruns the lib says something of its first run only if a program's log
 * does not depend on what ran before it in the process (a counter of the
 * whole lib's, say).
 */
export async function unreproducible(lib: Lib, programs: { id: string; program: unknown }[], logs: ReadonlyMap<string, string[]>): Promise<string[]> {
  if (programs.length === 0) return [];
  const again = (await runSide(lib, { kind: 'programs', programs: [...programs].reverse() })).logs;
  return programs.filter((e) => firstDifference(again.get(e.id) ?? [], logs.get(e.id) ?? []) >= 0).map((e) => e.id);
}
