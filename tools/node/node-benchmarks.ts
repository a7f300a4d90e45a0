// Node's own benchmark/webstreams/ files, which this project's
// benchmark/webstreams/ mirrors by name and configuration keys
// (doc/benchmarks.md, "Node's set"). Node's main has every one of them;
// the v24.x line (the fixture tree) lacks lifecycle.js and
// writable-write.js. A PR against main cites them without adding them: a
// patch that adds a file main already has does not apply there.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { citedBenchmarks, filesAddedBy } from './series.ts';

export const NODE_WEBSTREAMS_BENCHMARKS: readonly string[] = [
  'creation', 'readable-read', 'readable-read-buffered', 'readable-async-iterator', 'pipe-to',
  'pipe-through', 'tee', 'from', 'js_transfer', 'lifecycle', 'writable-write',
];

/** Whether a PR against `prBase` finds `treePath` (benchmark/webstreams/<file>.js) in Node's tree without adding it. */
export function onPrBase(treePath: string, prBase: string): boolean {
  const m = /^benchmark\/webstreams\/([\w.-]+)\.js$/.exec(treePath);
  return prBase === 'main' && m !== null && NODE_WEBSTREAMS_BENCHMARKS.includes(m[1]);
}

/** The benchmarks a patch's table cites that neither the tree at `treeDir` (the patch applied) nor `prBase` has. */
export function uncitedBenchmarks(patch: string, treeDir: string, prBase: string): string[] {
  return citedBenchmarks(patch).filter((b) => !existsSync(join(treeDir, b)) && !onPrBase(b, prBase));
}

/** The files a patch adds that `prBase` already has (the patch would not apply there). */
export function addedOnPrBase(patch: string, prBase: string): string[] {
  return filesAddedBy(patch).filter((f) => onPrBase(f, prBase));
}
