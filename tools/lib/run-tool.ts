// Runs one harness tool as a suite does, with its summaries in a private
// directory, for the suites that run other tools (tools/series/check.ts,
// tools/layers-check.ts).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT } from './paths.ts';
import { readSummaries, type SuiteSummary } from './summary.ts';

export interface ToolRun {
  ok: boolean;
  summaries: SuiteSummary[];
  output: string;
}

/** tools/<script> with `args`; LAYERS and OVERLAY_DIR are cleared unless `env` sets them. */
export function runTool(script: string, args: string[], env: NodeJS.ProcessEnv = {}): ToolRun {
  const dir = mkdtempSync(join(tmpdir(), 'webstreams-tool-'));
  try {
    const r = spawnSync(process.execPath, [join(ROOT, 'tools', script), ...args], {
      cwd: ROOT, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024,
      env: { ...process.env, LAYERS: '', OVERLAY_DIR: '', ...env, TEST_SUMMARY_DIR: dir },
    });
    return { ok: r.status === 0, summaries: readSummaries(dir), output: `${r.stdout}${r.stderr}` };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** tools/wpt.ts's line for one lib (`  <dir>: N passed, M expected failures, …`), after the colon. */
export function wptResultOf(output: string, lib: string): string | undefined {
  return new RegExp(`^  ${lib.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: (.*)$`, 'm').exec(output)?.[1];
}
