// Messages between the WPT host process and its Worker threads, and the
// results the host reports to tools/wpt.ts.

/** testharness.js subtest status codes, by name. */
export const SUBTEST_STATUS = ['PASS', 'FAIL', 'TIMEOUT', 'NOTRUN', 'PRECONDITION_FAILED'] as const;
/** testharness.js harness status codes, by name. */
export const HARNESS_STATUS = ['OK', 'ERROR', 'TIMEOUT', 'PRECONDITION_FAILED'] as const;

export interface Subtest {
  name: string;
  status: string;
  message?: string;
}

export interface FileResult {
  path: string;
  /** OK, ERROR (harness or uncaught error), TIMEOUT, CRASH (Worker died), or SKIP. */
  harness: string;
  harnessMessage?: string;
  subtests: Subtest[];
  ms: number;
}

export interface WorkerJob {
  wptRoot: string;
  testFile: string;
  path: string;
  scripts: string[];
  harness: string;
  timeoutMs: number;
  title?: string;
}

export type WorkerMessage =
  | { type: 'result'; name: string; status: number; message: string | null }
  | { type: 'done'; status: number; message: string | null };
