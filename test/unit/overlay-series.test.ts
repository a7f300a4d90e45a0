// The whole chain on the real base: empty-stack round trip, the sample
// overlay (type check → JS → WPT on node-patched-style injection), and its
// patch series applied with git onto a repository built from the base.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { listLayers } from '../../tools/lib/layers.ts';
import { readLibDir, writeLibDir } from '../../tools/lib/libdir.ts';
import { libDir, LIB_OVERLAY, ROOT } from '../../tools/lib/paths.ts';
import { applyLayers } from '../../tools/overlay/apply.ts';
import { baseRepo, git, patchSeries, treePathOf } from '../../tools/overlay/patch-series.ts';
import { NODE_TYPINGS } from '../../tools/lib/fixture-paths.ts';
import { createOverlayProgram } from '../../tools/overlay/program.ts';
import { layerOrder, typeSources, writeView } from '../../tools/overlay/views.ts';
import { readSeries } from '../../tools/series/config.ts';

const SAMPLE = join(ROOT, 'test', 'overlay-fixtures', 'sample');
const base = readLibDir(libDir('base'));

describe('overlay series on the real base', () => {
  it('an empty layer stack reproduces every base module byte for byte', () => {
    const { modules } = applyLayers(base.modules, []);
    assert.equal(modules.size, base.modules.size);
    for (const [id, text] of base.modules) assert.equal(modules.get(id), text, id);
    // Through the build too: out/lib/patched with an empty lib-overlay/ is the base.
    const dir = mkdtempSync(join(tmpdir(), 'overlay-empty-'));
    const r = spawnSync(process.execPath, [join(ROOT, 'tools', 'build.ts'), '--overlay', join(dir, 'none'), '--out', join(dir, 'lib')], { encoding: 'utf8' });
    assert.equal(r.status, 0, r.stderr);
    for (const [id, text] of base.modules) assert.equal(readFileSync(join(dir, 'lib', `${id}.js`), 'utf8'), text, id);
    rmSync(dir, { recursive: true, force: true });
  });

  it('the sample overlay compiles and passes WPT (readable streams) injected into the pinned Node', () => {
    const { modules, layers } = applyLayers(base.modules, listLayers(SAMPLE));
    assert.deepEqual(layers.map((l) => l.changed), [['internal/webstreams/readablestream'], ['internal/webstreams/util']]);
    const dir = mkdtempSync(join(tmpdir(), 'overlay-sample-'));
    writeLibDir(dir, { ...base.manifest, layers: layers.map((l) => l.layer.name) }, modules);
    const r = spawnSync(process.execPath, [join(ROOT, 'tools', 'wpt.ts'), '--lib', 'base', '--lib', dir, '--filter', 'readable-', '--quiet'],
      { encoding: 'utf8', env: { ...process.env, TEST_SUMMARY_DIR: '' }, timeout: 300_000 });
    rmSync(dir, { recursive: true, force: true });
    assert.equal(r.status, 0, `${r.stdout}\n${r.stderr}`);
    assert.match(r.stdout, /overlay-sample-\w+: \d+ passed, 7 expected failures, 0 unexpected failures/);
  });

  it('the sample patch series applies to the base, patch by patch, and reproduces the build', () => {
    const layers = listLayers(SAMPLE);
    const patches = patchSeries(base.modules, layers);
    assert.deepEqual(patches.map((p) => p.name), ['0001-cancel-steps.patch', '0002-queue-grow.patch']);
    assert.match(patches[0].text, /^From 0{40} Mon Sep 17 00:00:00 2001\nFrom: .*\nDate: Thu, 1 Jan 2026 00:00:00 \+0000\nSubject: \[PATCH\] stream: avoid a closure per ReadableStream cancel\n/);
    assert.match(patches[0].text, /^diff --git a\/lib\/internal\/webstreams\/readablestream\.js b\/lib\/internal\/webstreams\/readablestream\.js$/m);
    assert.match(patches[1].text, /^diff --git a\/benchmark\/webstreams\/queue-grow\.js b\/benchmark\/webstreams\/queue-grow\.js$/m);
    assert.ok(!patches[1].text.includes('readablestream.js'), 'patch 2 holds only its own change');

    const repo = baseRepo(base.modules);
    try {
      patches.forEach((p, i) => {
        const file = join(repo, `${i}.patch`);
        writeFileSync(file, p.text);
        git(repo, ['apply', '--check', file]);
        git(repo, ['am', '-q', file]);
        rmSync(file);
      });
      const { modules } = applyLayers(base.modules, layers);
      for (const [id, text] of modules) assert.equal(readFileSync(join(repo, treePathOf(id)), 'utf8'), text, id);
      assert.match(git(repo, ['log', '--format=%s', '-2']), /^stream: grow the webstreams queue with slice and push\nstream: avoid a closure/);
    } finally {
      rmSync(repo, { recursive: true, force: true });
    }
  });

  it('regenerating is byte-identical, and a LAYERS range gives the same files', () => {
    const layers = listLayers(SAMPLE);
    const a = patchSeries(base.modules, layers);
    const b = patchSeries(base.modules, layers);
    assert.deepEqual(b, a);
    const only2 = patchSeries(base.modules, layers, 2, 2);
    assert.equal(only2.length, 1);
    assert.equal(only2[0].text, a[1].text);
  });

  it('make patches (tools/patches.ts) writes the files and --check accepts them', () => {
    const out = mkdtempSync(join(tmpdir(), 'overlay-patches-'));
    const run = (...args: string[]) => spawnSync(process.execPath, [join(ROOT, 'tools', 'patches.ts'), '--overlay', SAMPLE, '--out', out, ...args], { encoding: 'utf8' });
    assert.equal(run().status, 0);
    assert.equal(run('--check').status, 0);
    writeFileSync(join(out, '0001-cancel-steps.patch'), 'stale');
    const r = run('--check');
    assert.equal(r.status, 1);
    assert.match(r.stderr, /out of date: .*0001-cancel-steps\.patch/);
    rmSync(out, { recursive: true, force: true });
  });

  it('tools/patches.ts without --out: a series writes to its own patches dir, any other overlay is refused', () => {
    const patches = (args: string[], env: NodeJS.ProcessEnv = {}) =>
      spawnSync(process.execPath, [join(ROOT, 'tools', 'patches.ts'), ...args], { encoding: 'utf8', env: { ...process.env, OVERLAY_DIR: '', ...env } });
    const fixes = readSeries('fixes');
    const series = patches(['--check'], { OVERLAY_DIR: fixes.root });
    assert.equal(series.status, 0, series.stderr);
    assert.match(series.stdout, new RegExp(`up to date \\(${fixes.layers.length} patches\\)`));
    const other = patches(['--overlay', SAMPLE]);
    assert.equal(other.status, 1);
    assert.match(other.stderr, /is not lib-overlay\/ or a series' lib-overlay-<name>\/: pass --out DIR/);
  });

  it("every layer's view of the declarations type-checks (strictly, lib checks on)", () => {
    const layers = listLayers();
    const { layers: states } = applyLayers(base.modules, layers);
    const sources = typeSources(LIB_OVERLAY);
    const dir = mkdtempSync(join(tmpdir(), 'overlay-views-'));
    try {
      [base.modules, ...states.map((s) => s.modules)].forEach((beneath, k) => {
        const view = writeView(join(dir, String(k)), sources, layerOrder(layers), k, beneath);
        const p = createOverlayProgram([], { view, typings: NODE_TYPINGS }, { checkDeclarations: true });
        const errors = p.program.getSourceFiles()
          .filter((sf) => sf.fileName.startsWith(view.dir))
          .flatMap((sf) => [...p.program.getSyntacticDiagnostics(sf), ...p.program.getSemanticDiagnostics(sf)]);
        assert.deepEqual(errors.map((d) => `view ${k}: ${d.file?.fileName}: ${typeof d.messageText === 'string' ? d.messageText : d.messageText.messageText}`), []);
      });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
