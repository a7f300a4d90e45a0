// The fixes series (lib-overlay-fixes/, doc/series.md "Fixes first"): the
// base's bugs the main series fixes, each a standalone PR against main on
// the pinned base, so it can land (and be backported) before the speed work.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { resolveBase } from '../../tools/lib/base-spec.ts';
import { NODE_FIXTURES } from '../../tools/lib/fixture-paths.ts';
import { injectedNode, type Lib } from '../../tools/lib/injected.ts';
import { writeLibDir } from '../../tools/lib/libdir.ts';
import { listLayers, type Layer } from '../../tools/lib/layers.ts';
import { ROOT } from '../../tools/lib/paths.ts';
import { flagsOf } from '../../tools/lib/test-flags.ts';
import { listPatches } from '../../tools/node/series.ts';
import { applyLayers } from '../../tools/overlay/apply.ts';
import { applyBaseFixes, baseFixes } from '../../tools/ordering/base-fixes.ts';
import { readSeries, type SeriesConfig } from '../../tools/series/config.ts';
import { tempDir } from '../helpers/node-repo.ts';

const slug = (name: string) => name.replace(/^\d+-/, '');

/** The pinned base and the series' state after each fix, as the build makes them. */
function fixesStates(s: SeriesConfig) {
  const base = resolveBase(s.base);
  return { base, states: applyLayers(base.modules, s.layers, { root: s.root, typings: base.typings, baseLabel: 'the base' }).layers };
}

test('series fixes: lib-overlay-fixes on the pinned base, PRs against main, one committed patch per layer', () => {
  const s = readSeries('fixes');
  assert.equal(s.base, 'pinned');
  assert.equal(s.prBase, 'main');
  assert.equal(s.titlePrefix, '');
  assert.equal(s.nodeTestExpectations, join(ROOT, 'test', 'node-tests-expectations.json'));
  assert.ok(s.layers.length > 0);
  assert.deepEqual(listPatches(s.patches).map((p) => p.slug), s.layers.map((l) => slug(l.name)));
});

test('each fix is exactly the base fix it declares, and one main layer declares the same one', () => {
  const s = readSeries('fixes');
  const { base, states } = fixesStates(s);
  // A layer's fix, its insertions into the base in order, without the
  // layer's name (a main layer may add alternatives for its earlier states).
  const fixOf = (layer: Layer) => baseFixes([layer]).filter((f) => f.variant === 0).map((f) => ({ ...f, layer: '' }));
  const mainLayers = listLayers();
  const main = mainLayers.filter((l) => fixOf(l).length > 0);
  const mainSlugs = mainLayers.map((l) => slug(l.name));
  for (const [i, layer] of s.layers.entries()) {
    const fix = fixOf(layer);
    if (fix.length === 0) {
      // A fix nothing observable tells apart (memory, not behaviour) needs
      // no base-fix.json: the differential suites see no difference. The
      // main series carries it as the layer of the same name.
      assert.ok(!existsSync(join(layer.dir, 'base-fix.json')), `${layer.name}: an empty base-fix.json`);
      assert.ok(mainSlugs.includes(slug(layer.name)), `${layer.name}: no main layer of the same name (${mainSlugs.join(', ')})`);
      continue;
    }
    // What the differential suites put into the old side is what the PR ships.
    const before = i === 0 ? base.modules : states[i - 1].modules;
    const fixed = applyBaseFixes(before, fix, 'base');
    for (const [id, text] of states[i].modules) assert.equal(fixed.get(id), text, `${layer.name}: ${id}`);
    // The main series carries each fix inside the layer that needs it,
    // which may do more (layer 12 holds chunks and counts the read one).
    const declaring = main.filter((m) => isDeepStrictEqual(fixOf(m), fix));
    assert.equal(declaring.length, 1, `${layer.name}: ${declaring.length} main layers declare the same base-fix.json (of ${main.map((m) => m.name).join(', ')})`);
  }
});

test('make pr SERIES=fixes (dry run): plain stream: titles, every PR against main alone', () => {
  const s = readSeries('fixes');
  const out = tempDir('pr-fixes');
  const r = spawnSync(process.execPath, [join(ROOT, 'tools', 'node', 'pr.ts'), '--series', 'fixes', '--out', out, '--results', tempDir('results-fixes')], {
    encoding: 'utf8', env: { ...process.env, NODE_DIR: '', PR_BASE: '', PATCHES: '', GITHUB_TOKEN: '', SERIES: '' },
  });
  assert.equal(r.status, 0, r.stderr);
  const plan = JSON.parse(readFileSync(join(out, 'plan.json'), 'utf8'));
  assert.equal(plan.layers.length, s.layers.length);
  for (const l of plan.layers) {
    assert.equal(l.base, 'main', `${l.layer}: the fixes do not depend on each other`);
    assert.match(l.title, /^stream: /);
    assert.match(l.patch, /^patches-fixes\//);
  }
});

test("each fix's Node test fails on the base and passes with the fix", () => {
  const s = readSeries('fixes');
  const { base, states } = fixesStates(s);
  const libs = tempDir('fixes-states');
  // The lib after the first k fixes, as the series builds it.
  const stateLib = (k: number): Lib => {
    const dir = join(libs, `fixes-${k}`);
    if (!existsSync(dir)) {
      writeLibDir(dir, { nodeVersion: base.nodeVersion, origin: `${base.origin}, fixes 1..${k}`, layers: s.layers.slice(0, k).map((l) => l.name) },
        k === 0 ? base.modules : states[k - 1].modules);
    }
    return { name: `fixes-${k}`, dir };
  };
  // Next to the fixture's test/parallel, so that require('../common') finds test/common.
  const dir = join(NODE_FIXTURES, 'test', 'series-fixes-check');
  const run = (lib: Lib, file: string) => {
    const { command, args, env } = injectedNode(lib, [...flagsOf(readFileSync(file, 'utf8')), file]);
    return spawnSync(command, args, { cwd: NODE_FIXTURES, env: { ...env, NODE_TEST_DIR: tempDir('fixes-node-test') }, encoding: 'utf8', timeout: 60_000 });
  };
  try {
    for (const [i, layer] of s.layers.entries()) {
      const tests = join(layer.dir, 'node', 'test', 'parallel');
      const names = existsSync(tests) ? readdirSync(tests).filter((n) => n.endsWith('.js')) : [];
      assert.ok(names.length > 0, `${layer.name} ships no Node test`);
      const fixed = stateLib(i + 1);
      const before = stateLib(i);
      rmSync(dir, { recursive: true, force: true });
      mkdirSync(dir, { recursive: true });
      for (const name of names) {
        cpSync(join(tests, name), join(dir, name));
        const without = run(before, join(dir, name));
        assert.notEqual(without.status, 0, `${name} passes without ${layer.name}`);
        // On one of the test's assertions, or on the internal assertion that is the bug
        // (Node's test lint asks for plain code, not assert.doesNotThrow(), where a call must not throw).
        assert.match(without.stderr, /ERR_(INTERNAL_)?ASSERTION/, `${name} fails without ${layer.name}, but not on an assertion:\n${without.stderr}`);
        const withFix = run(fixed, join(dir, name));
        assert.equal(withFix.status, 0, `${name} fails with ${layer.name}:\n${withFix.stderr}`);
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
