// `make lint`: Node-style lint (tools/overlay/lint.ts) of lib directories.
// The base is linted too and must be clean: that is what keeps the
// re-implemented rules honest (Node's own code passes Node's lint). The one
// rule of this project's own (old-generation-closure) has sites in the base:
// there they are listed, not failed, and elsewhere only a site the base does
// not have (same module, function and target) fails.
//
//   node tools/lint.ts [--lib base|patched|<dir>]... [--overlay DIR]... [--base <dir>] [--all-node-tests]
// Default: base, patched, every test overlay fixture (compiled here), the
// Node tests every layer of every series ships (<layer>/node/test/…,
// tools/overlay/lint-test.ts: the rules Node's test/ config adds), and, as
// the base is for lib code, Node's own web streams tests (the calibration
// of the test rules: one check, which must be clean; --all-node-tests
// widens it to every test/parallel/*.js of the fixtures, about a minute);
// and the benchmarks the patches ship (tools/overlay/lint-benchmark.ts),
// calibrated on the fixtures' benchmark/webstreams/*.js.
// --base: the lib those sites are taken from (a series on another release
// passes its own base); the pinned base by default.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { parseFlags } from './lib/args.ts';
import { NODE_FIXTURES, requireFixtures } from './lib/fixture-paths.ts';
import { resolveLib } from './lib/injected.ts';
import { listLayers, type Layer } from './lib/layers.ts';
import { readLibDir, type Modules } from './lib/libdir.ts';
import { LIB_OVERLAY, libDir, ROOT } from './lib/paths.ts';
import { reportSummary } from './lib/summary.ts';
import { applyLayers } from './overlay/apply.ts';
import { lintModule } from './overlay/lint.ts';
import { lintNodeBenchmark } from './overlay/lint-benchmark.ts';
import { lintNodeTest } from './overlay/lint-test.ts';
import { type ExtraFile, layerExtraFiles } from './overlay/source.ts';
import { listSeriesNames, readSeries } from './series/config.ts';

const { values } = parseFlags({
  lib: { type: 'string', multiple: true },
  overlay: { type: 'string', multiple: true },
  base: { type: 'string' },
  'all-node-tests': { type: 'boolean' },
}, 'node tools/lint.ts [--lib base|patched|<dir>]... [--overlay DIR]... [--base <dir>] [--all-node-tests]');

const FIXTURES = join(ROOT, 'test', 'overlay-fixtures');
const targets: { name: string; modules: Modules }[] = [];
const explicit = values.lib || values.overlay;
for (const spec of values.lib ?? (explicit ? [] : ['base', 'patched'])) {
  const lib = resolveLib(spec);
  targets.push({ name: lib.name, modules: readLibDir(lib.dir).modules });
}
const overlays = values.overlay?.map((d) => resolve(d)) ?? (explicit || !existsSync(FIXTURES) ? []
  : readdirSync(FIXTURES, { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => join(FIXTURES, e.name)));
const base = readLibDir(libDir('base')).modules;
for (const root of overlays) targets.push({ name: relative(ROOT, root), modules: applyLayers(base, listLayers(root)).modules });

const OWN_RULE = 'old-generation-closure';
const baseSites = new Set<string>();
for (const [id, text] of values.base ? readLibDir(resolveLib(values.base).dir).modules : base) {
  for (const f of lintModule(id, text)) if (f.rule === OWN_RULE) baseSites.add(`${id} ${f.site}`);
}

let passed = 0;
let failed = 0;
for (const t of targets) {
  let bad = 0;
  let inherited = 0;
  for (const [id, text] of t.modules) {
    const findings = lintModule(id, text).filter((f) => {
      const known = f.rule === OWN_RULE && baseSites.has(`${id} ${f.site}`);
      if (known) inherited++;
      return !known;
    });
    for (const f of findings) console.log(`${t.name}: lib/${id}.js:${f.line}: ${f.rule}: ${f.message}`);
    if (findings.length) bad++;
  }
  console.log(`${t.name}: ${t.modules.size - bad}/${t.modules.size} modules clean` +
    (inherited ? ` (${inherited} ${OWN_RULE} sites as in the base)` : ''));
  passed += t.modules.size - bad;
  failed += bad;
}

/** The Node tests a layer ships: the .js files of its node/test/. */
function shippedTests(layer: Layer): string[] {
  return layerExtraFiles(layer)
    .filter((f) => f.treePath.startsWith('test/') && f.treePath.endsWith('.js') && !relative(layer.dir, f.path).startsWith('..'))
    .map((f) => f.path);
}

function shippedBenchmarks(layer: Layer): ExtraFile[] {
  return layerExtraFiles(layer).filter((f) => f.treePath.startsWith('benchmark/') && f.treePath.endsWith('.js'));
}

if (!explicit) {
  const roots = [LIB_OVERLAY, ...listSeriesNames().map((n) => readSeries(n).root)];
  const files = roots.flatMap((root) => listLayers(root).flatMap(shippedTests));
  let bad = 0;
  for (const file of files) {
    const findings = lintNodeTest(file, readFileSync(file, 'utf8'), { nestedMustCall: true });
    for (const f of findings) console.log(`${relative(ROOT, file)}:${f.line}: ${f.rule}: ${f.message}`);
    if (findings.length) bad++;
  }
  console.log(`shipped Node tests: ${files.length - bad}/${files.length} files clean`);
  passed += files.length - bad;
  failed += bad;

  // The benchmarks the patches add or change, once each (layers and series share them).
  const benchmarks = new Map(roots.flatMap((root) => listLayers(root).flatMap(shippedBenchmarks)).map((f) => [f.path, f]));
  let badBenchmarks = 0;
  for (const { treePath, path } of benchmarks.values()) {
    const findings = lintNodeBenchmark(treePath, readFileSync(path, 'utf8'));
    for (const f of findings) console.log(`${relative(ROOT, path)}:${f.line}: ${f.rule}: ${f.message}`);
    if (findings.length) badBenchmarks++;
  }
  console.log(`shipped benchmarks: ${benchmarks.size - badBenchmarks}/${benchmarks.size} files clean`);
  passed += benchmarks.size - badBenchmarks;
  failed += badBenchmarks;

  requireFixtures();
  const ownBenchmarks = join(NODE_FIXTURES, 'benchmark', 'webstreams');
  const calibrated = readdirSync(ownBenchmarks).filter((f) => f.endsWith('.js'));
  const uncleanBenchmarks = calibrated.filter((f) => {
    const findings = lintNodeBenchmark(`benchmark/webstreams/${f}`, readFileSync(join(ownBenchmarks, f), 'utf8'));
    for (const x of findings) console.log(`benchmark/webstreams/${f}:${x.line}: ${x.rule}: ${x.message}`);
    return findings.length > 0;
  });
  console.log(`Node's own web streams benchmarks (calibration): ${calibrated.length - uncleanBenchmarks.length}/${calibrated.length} files clean`);
  if (calibrated.length === 0 || uncleanBenchmarks.length) failed++;
  else passed++;

  const parallel = join(NODE_FIXTURES, 'test', 'parallel');
  const calibration = values['all-node-tests'] ? /^test-.*\.js$/ : /^test-(webstreams|whatwg-(readable|writable|transform)).*\.js$/;
  const own = readdirSync(parallel).filter((f) => calibration.test(f));
  const unclean = own.filter((f) => {
    const findings = lintNodeTest(f, readFileSync(join(parallel, f), 'utf8'));
    for (const x of findings) console.log(`test/parallel/${f}:${x.line}: ${x.rule}: ${x.message}`);
    return findings.length > 0;
  });
  console.log(`Node's own ${values['all-node-tests'] ? '' : 'web streams '}tests (calibration): ${own.length - unclean.length}/${own.length} files clean`);
  if (own.length === 0 || unclean.length) failed++;
  else passed++;
}
console.log(`${passed} passed, ${failed} failed`);
reportSummary({ suite: 'lint', passed, failed });
process.exitCode = failed ? 1 : 0;
