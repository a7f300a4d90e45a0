// Node's test/benchmark/test-benchmark-webstreams.js on a tree: upstream's
// CI (the `benchmark` suite of `make test-ci-native`) runs every
// benchmark/webstreams file in its test mode (each option at its first
// value, numbers at 1) and fails on a file that throws or runs more than one
// configuration. What the tree lacks of the test and its test/common (the
// fixture tree has neither) comes from the fixtures, and goes again after.
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { NODE_FIXTURES } from '../lib/fixture-paths.ts';

export const BENCHMARK_TEST = join('test', 'benchmark', 'test-benchmark-webstreams.js');

/** Runs the test in `tree` with this Node; throws with its output when it fails. */
export function runWebstreamsBenchmarkTest(tree: string): void {
  const lent = [join('test', 'common'), BENCHMARK_TEST].filter((path) => !existsSync(join(tree, path)));
  for (const path of lent) {
    if (!existsSync(join(NODE_FIXTURES, path))) throw new Error(`no ${path} in the tree or the fixtures; run \`make fixtures\``);
  }
  const made = ['test', join('test', 'benchmark')].filter((dir) => !existsSync(join(tree, dir)));
  try {
    for (const path of lent) cpSync(join(NODE_FIXTURES, path), join(tree, path), { recursive: true });
    const r = spawnSync(process.execPath, [BENCHMARK_TEST], { cwd: tree, encoding: 'utf8', timeout: 600_000, maxBuffer: 64 * 1024 * 1024 });
    if (r.status !== 0) {
      throw new Error(`${BENCHMARK_TEST} exited with ${r.status ?? r.signal}:\n${`${r.stdout}${r.stderr}`.trim().split('\n').slice(-80).join('\n')}`);
    }
  } finally {
    for (const path of lent) rmSync(join(tree, path), { recursive: true, force: true });
    for (const dir of made.reverse()) rmSync(join(tree, dir), { recursive: true, force: true });
  }
}
