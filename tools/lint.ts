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
import { type LintFinding, lintModule } from './overlay/lint.ts';
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

/** The .js files a layer adds to the Node tree; `own` when they are in its node/ folder, not harness files PATCH.md `adds`. */
function shippedScripts(layer: Layer): (ExtraFile & { own: boolean })[] {
  return layerExtraFiles(layer).filter((f) => f.treePath.endsWith('.js'))
    .map((f) => ({ ...f, own: !relative(layer.dir, f.path).startsWith('..') }));
}

/** A file to lint: its path, the name its lint takes, and how findings show it. */
interface Linted { path: string; name: string; shown: string }

/** Lints each file and prints its findings; returns how many files had any. */
function countUnclean(files: Linted[], lint: (name: string, text: string) => LintFinding[]): number {
  let unclean = 0;
  for (const { path, name, shown } of files) {
    const findings = lint(name, readFileSync(path, 'utf8'));
    for (const f of findings) console.log(`${shown}:${f.line}: ${f.rule}: ${f.message}`);
    if (findings.length) unclean++;
  }
  return unclean;
}

if (!explicit) {
  const roots = [LIB_OVERLAY, ...listSeriesNames().map((n) => readSeries(n).root)];
  const shipped = roots.flatMap((root) => listLayers(root).flatMap(shippedScripts));
  const checkEach = (label: string, files: Linted[], lint: (name: string, text: string) => LintFinding[]) => {
    const unclean = countUnclean(files, lint);
    console.log(`shipped ${label}: ${files.length - unclean}/${files.length} files clean`);
    passed += files.length - unclean;
    failed += unclean;
  };
  // The tests in the layers' own node/test/ folders, and the benchmarks the patches add or change, once
  // each (layers and series share them).
  const tests = shipped.filter((f) => f.own && f.treePath.startsWith('test/'))
    .map((f) => ({ path: f.path, name: f.path, shown: relative(ROOT, f.path) }));
  const benchmarks = new Map(shipped.filter((f) => f.treePath.startsWith('benchmark/'))
    .map((f) => [f.path, { path: f.path, name: f.treePath, shown: relative(ROOT, f.path) }]));
  checkEach('Node tests', tests, (name, text) => lintNodeTest(name, text, { nestedMustCall: true }));
  checkEach('benchmarks', [...benchmarks.values()], lintNodeBenchmark);

  // Node's own files are the calibration: each set is one check, which must be clean.
  requireFixtures();
  const calibrate = (label: string, files: Linted[], lint: (name: string, text: string) => LintFinding[]) => {
    const unclean = countUnclean(files, lint);
    console.log(`Node's own ${label} (calibration): ${files.length - unclean}/${files.length} files clean`);
    if (files.length === 0 || unclean) failed++;
    else passed++;
  };
  const ownBenchmarks = join(NODE_FIXTURES, 'benchmark', 'webstreams');
  calibrate('web streams benchmarks', readdirSync(ownBenchmarks).filter((f) => f.endsWith('.js')).map((f) =>
    ({ path: join(ownBenchmarks, f), name: `benchmark/webstreams/${f}`, shown: `benchmark/webstreams/${f}` })), lintNodeBenchmark);
  const parallel = join(NODE_FIXTURES, 'test', 'parallel');
  const calibration = values['all-node-tests'] ? /^test-.*\.js$/ : /^test-(webstreams|whatwg-(readable|writable|transform)).*\.js$/;
  calibrate(`${values['all-node-tests'] ? '' : 'web streams '}tests`, readdirSync(parallel).filter((f) => calibration.test(f)).map((f) =>
    ({ path: join(parallel, f), name: f, shown: `test/parallel/${f}` })), (name, text) => lintNodeTest(name, text));
}
console.log(`${passed} passed, ${failed} failed`);
reportSummary({ suite: 'lint', passed, failed });
process.exitCode = failed ? 1 : 0;
