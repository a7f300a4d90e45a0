// Each test suite reports its totals here; tools/test.ts adds them up into
// the one plain line `make test` ends with.
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export interface SuiteSummary {
  suite: string;
  passed: number;
  failed: number;
  /** Extra counts worth showing (expected failures, skips with reasons…). */
  notes?: string;
}

/** Writes the summary where the orchestrator asked for it (TEST_SUMMARY_DIR), if it did. */
export function reportSummary(summary: SuiteSummary): void {
  const dir = process.env.TEST_SUMMARY_DIR;
  if (!dir) return;
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, `${summary.suite.replace(/[^\w.-]+/g, '_')}.json`), JSON.stringify(summary));
}

export function readSummaries(dir: string): SuiteSummary[] {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  return names.filter((n) => n.endsWith('.json')).sort().map((n) => JSON.parse(readFileSync(join(dir, n), 'utf8')));
}
