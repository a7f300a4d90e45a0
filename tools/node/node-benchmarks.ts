// Node's own benchmark/webstreams/ files, which this project's
// benchmark/webstreams/ mirrors by name and configuration keys
// (doc/benchmarks.md, "Node's set"). Node's main has every one of them;
// the v24.x line (the fixture tree) lacks lifecycle.js and
// writable-write.js. A PR against main cites them without adding them: a
// patch that adds a file main already has does not apply there.
export const NODE_WEBSTREAMS_BENCHMARKS: readonly string[] = [
  'creation', 'readable-read', 'readable-read-buffered', 'readable-async-iterator', 'pipe-to',
  'pipe-through', 'tee', 'from', 'js_transfer', 'lifecycle', 'writable-write',
];

/** Whether a PR against `prBase` finds `treePath` (benchmark/webstreams/<file>.js) in Node's tree without adding it. */
export function onPrBase(treePath: string, prBase: string): boolean {
  const m = /^benchmark\/webstreams\/([\w.-]+)\.js$/.exec(treePath);
  return prBase === 'main' && m !== null && NODE_WEBSTREAMS_BENCHMARKS.includes(m[1]);
}
