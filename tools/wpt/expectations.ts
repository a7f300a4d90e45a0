// Judges WPT results against test/wpt-expectations.json and against the
// base: a lib may fix failures, never add one.
import { existsSync, readFileSync } from 'node:fs';
import type { FileResult } from './protocol.ts';

export interface FileExpectation {
  reason: string;
  /** Subtests known to fail on the base. */
  subtests: string[];
}

export interface Expectations {
  /** What the WPT files were taken from. */
  source: string;
  /** Files not run at all, with the reason. */
  skip: Record<string, string>;
  fail: Record<string, FileExpectation>;
}

export function loadExpectations(file: string, wptCommit: string): Expectations {
  if (!existsSync(file)) throw new Error(`no expectations file ${file}: run the base, then write one listing its failures`);
  const all = JSON.parse(readFileSync(file, 'utf8')) as Record<string, Expectations>;
  const exp = all[wptCommit];
  if (!exp) {
    throw new Error(`${file} has no entry for WPT commit ${wptCommit}; ` +
      `known: ${Object.keys(all).join(', ')}. Run the base, then add an entry listing its failures.`);
  }
  return exp;
}

export interface Failure {
  path: string;
  name: string;
  status: string;
  message?: string;
}

export interface Verdict {
  passed: number;
  expectedFailures: number;
  /** Failures the expectations do not list. */
  unexpectedFailures: Failure[];
  /** Listed failures that passed: the expectations need updating. */
  unexpectedPasses: Failure[];
}

/** Every failing subtest, plus one entry per file whose harness did not end OK. */
export function failuresOf(results: FileResult[]): Failure[] {
  const out: Failure[] = [];
  for (const file of results) {
    if (file.harness !== 'OK') {
      out.push({ path: file.path, name: '(harness)', status: file.harness, message: file.harnessMessage });
    }
    for (const t of file.subtests) {
      if (t.status !== 'PASS') out.push({ path: file.path, name: t.name, status: t.status, message: t.message });
    }
  }
  return out;
}

export function judge(results: FileResult[], exp: Expectations): Verdict {
  const verdict: Verdict = { passed: 0, expectedFailures: 0, unexpectedFailures: [], unexpectedPasses: [] };
  for (const file of results) {
    const expected = new Set(exp.fail[file.path]?.subtests ?? []);
    if (file.harness !== 'OK') {
      verdict.unexpectedFailures.push({ path: file.path, name: '(harness)', status: file.harness, message: file.harnessMessage });
    }
    const seen = new Set<string>();
    for (const t of file.subtests) {
      seen.add(t.name);
      if (t.status === 'PASS') {
        if (expected.has(t.name)) verdict.unexpectedPasses.push({ path: file.path, name: t.name, status: t.status });
        else verdict.passed++;
      } else if (expected.has(t.name)) {
        verdict.expectedFailures++;
      } else {
        verdict.unexpectedFailures.push({ path: file.path, name: t.name, status: t.status, message: t.message });
      }
    }
    for (const name of expected) {
      if (!seen.has(name)) {
        verdict.unexpectedFailures.push({ path: file.path, name, status: 'MISSING', message: 'listed as an expected failure but did not run' });
      }
    }
  }
  return verdict;
}

/** Failures of `patched` that `base` does not have (the same file and subtest name). */
export function regressions(base: FileResult[], patched: FileResult[]): Failure[] {
  const key = (f: Failure) => `${f.path}\u0000${f.name}`;
  const known = new Set(failuresOf(base).map(key));
  const baseRan = new Set(base.flatMap((file) => file.subtests.map((t) => `${file.path}\u0000${t.name}`)));
  const out = failuresOf(patched).filter((f) => !known.has(key(f)));
  // A subtest the base ran that patched never reported is a failure too.
  const patchedRan = new Set(patched.flatMap((file) => file.subtests.map((t) => `${file.path}\u0000${t.name}`)));
  for (const k of baseRan) {
    if (!patchedRan.has(k)) {
      const [path, name] = k.split('\u0000');
      out.push({ path, name, status: 'MISSING', message: 'ran on the base, not reported on this lib' });
    }
  }
  return out;
}
