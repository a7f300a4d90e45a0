// Named checks for the in-tree suites: each runs once, prints `ok` or
// `FAIL` with its error, and is counted for the suite's summary.

export class Checks {
  passed = 0;
  failed = 0;
  readonly failures: string[] = [];

  /** Runs `fn`; true when it did not throw. */
  check(name: string, fn: () => void): boolean {
    const started = Date.now();
    try {
      fn();
      this.passed++;
      console.log(`  ok   ${name} (${((Date.now() - started) / 1000).toFixed(1)} s)`);
      return true;
    } catch (err) {
      this.failed++;
      this.failures.push(name);
      console.log(`  FAIL ${name}\n${String((err as Error).message).replace(/^/gm, '       ')}`);
      return false;
    }
  }
}

/** Throws `message` unless `cond` holds: the body of a check. */
export function expect(cond: unknown, message: string): void {
  if (!cond) throw new Error(message);
}
