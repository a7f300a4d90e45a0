// Pre-images and `make rebase`, with real git (merge-file, format-patch) and
// the real compiler: a change beneath a replaced declaration is merged into
// the layer or stops as a conflict, never reverted silently; an edit to an
// earlier layer's copy reaches the later copies the same way.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { listLayers } from '../../tools/lib/layers.ts';
import { readLibDir, writeLibDir, type Modules } from '../../tools/lib/libdir.ts';
import { libDir, LIB_OVERLAY, PATCHES, ROOT } from '../../tools/lib/paths.ts';
import { applyLayers } from '../../tools/overlay/apply.ts';
import { patchSeries } from '../../tools/overlay/patch-series.ts';
import { formatLock, parseLock, readLock, writeLock } from '../../tools/overlay/preimage.ts';
import { formatReport, rebaseLayers } from '../../tools/overlay/rebase.ts';
import { tempDir } from '../helpers/node-repo.ts';
import { overlayRoot } from '../helpers/overlay.ts';

const ID = 'internal/webstreams/readablestream';
const STEPS = (n: number[]) => `function steps(list) {\n${n.map((v) => `  ArrayPrototypePush(list, ${v});\n`).join('')}  return list;\n}\n`;
const moduleText = (n: number[]) => `'use strict';\n\nconst {\n  ArrayPrototypePush,\n} = primordials;\n\n${STEPS(n)}\nmodule.exports = {\n  steps,\n};\n`;
const modules = (n: number[]): Modules => new Map([[ID, moduleText(n)], ['internal/webstreams/util', "'use strict';\nmodule.exports = {};\n"]]);
const layerSteps = (n: number[]) => `function steps(list: number[]): number[] {\n${n.map((v) => `  list.push(${v});\n`).join('')}  return list;\n}\n`;
const OPTS = { checkDeclarations: false } as const;
const REBASE = { ...OPTS, baseVersion: 'v0.0.0-test', groundLabel: 'new ground' };

const BASE = [1, 2, 3, 4, 5, 6];
/** Layer 1 changes the second push, layer 2 (a copy of layer 1's) the sixth. */
function series() {
  const made = overlayRoot({
    '01-first': { 'readablestream.ts': layerSteps([1, 20, 3, 4, 5, 6]) },
    '02-second': { 'readablestream.ts': layerSteps([1, 20, 3, 4, 5, 60]) },
  });
  return locked(made);
}
/** The layers built on the base, each lock written as `make build` would. */
function locked<T extends { layers: Parameters<typeof applyLayers>[1] }>(made: T): T {
  const applied = applyLayers(modules(BASE), made.layers, OPTS);
  for (const l of applied.layers) writeLock(l.layer, { base: 'v0.0.0-test', entries: l.touched });
  return made;
}
const layerFile = (root: string, name: string) => join(root, name, 'readablestream.ts');

describe('pre-images', () => {
  it('the lock records what a layer replaced and round-trips', () => {
    const { layers } = series();
    const lock = readLock(layers[1])!;
    assert.equal(lock.entries.length, 1);
    assert.deepEqual({ ...lock.entries[0], text: undefined }, { action: 'replace', module: ID, target: 'steps', text: undefined });
    // Layer 2's pre-image is layer 1's output, not the base.
    assert.match(lock.entries[0].text, /ArrayPrototypePush\(list, 20\);/);
    assert.deepEqual(parseLock(formatLock(layers[1], lock), 'x'), lock);
    assert.throws(() => parseLock('base: v1\n|orphan\n', 'x.lock'), /x\.lock:2: a text line outside/);
    assert.throws(() => parseLock('@@ replace a b\n|x\n', 'x.lock'), /no 'base:' line/);
  });

  it('a change beneath a replaced function stops the build and names layer, module and declaration', () => {
    const { layers } = series();
    assert.throws(() => applyLayers(modules([1, 2, 3, 4, 50, 6]), layers, OPTS),
      /pre-images are stale[^]*layer 01-first: replaces internal\/webstreams\/readablestream steps, which changed beneath it[^]*make rebase/);
  });
});

describe('rebase', () => {
  it('carries a non-overlapping change into the layer, the patched lib and the regenerated patch', () => {
    const { root, layers } = series();
    const ground = modules([1, 2, 3, 40, 5, 6]);
    const report = rebaseLayers(ground, layers, REBASE);
    assert.ok(report.ok, JSON.stringify(report.layers.map((l) => [l.status, l.error])));
    assert.deepEqual(report.layers.map((l) => l.status), ['merged', 'merged']);
    // The merge runs in JS terms (the layer's idiomatic push() is not a change of its own); the merged
    // line is the new ground's JS, and the primordial it uses is bound in the layer file.
    const merged = (n: number[]) => `const { ArrayPrototypePush } = primordials;\n\n${layerSteps(n).replace('  list.push(40);', '  ArrayPrototypePush(list, 40);')}`;
    assert.equal(readFileSync(layerFile(root, '01-first'), 'utf8'), merged([1, 20, 3, 40, 5, 6]));
    assert.equal(readFileSync(layerFile(root, '02-second'), 'utf8'), merged([1, 20, 3, 40, 5, 60]));
    assert.match(report.layers[0].adopted!.join(), /01-first\/readablestream\.ts: ArrayPrototypePush \(primordials\)$/);
    assert.equal(readLock(layers[0])!.base, 'v0.0.0-test');
    const out = applyLayers(ground, layers, OPTS).modules.get(ID)!;
    assert.match(out, /ArrayPrototypePush\(list, 20\);\n {2}ArrayPrototypePush\(list, 3\);\n {2}ArrayPrototypePush\(list, 40\);\n {2}ArrayPrototypePush\(list, 5\);\n {2}ArrayPrototypePush\(list, 60\);/);
    const [p1] = patchSeries(ground, layers, 1, 1, OPTS);
    assert.match(p1.text, /^-  ArrayPrototypePush\(list, 2\);\n\+  ArrayPrototypePush\(list, 20\);$/m);
    assert.ok(!/^[-+] {2}ArrayPrototypePush\(list, 40\);/m.test(p1.text), 'the patch must not revert the change beneath it');
  });

  it('a layer whose change the new ground already has is reported EMPTY, and its patch refused', () => {
    const { layers } = series();
    // Upstream took layer 1's change (as a fix PR of the series would land first).
    const ground = modules([1, 20, 3, 4, 5, 6]);
    const report = rebaseLayers(ground, layers, REBASE);
    assert.equal(report.ok, false);
    assert.deepEqual(report.layers.map((l) => [l.status === 'conflict', l.empty ?? false]), [[false, true], [false, false]]);
    assert.match(formatReport(report, 'new ground'), /^ {2}01-first [^]*?\n {4}EMPTY {5}changes no module here: the new ground already has its change; drop the layer/m);
    assert.throws(() => patchSeries(ground, layers, 1, 2, OPTS), /01-first changes no module of the lib: its base already has its change \(make rebase says EMPTY\); drop the layer/);
  });

  it('treats adjacent changes as git does: a conflict', () => {
    const { layers } = series();
    const report = rebaseLayers(modules([1, 2, 3, 4, 50, 6]), layers, REBASE);
    assert.deepEqual(report.layers.map((l) => l.status), ['merged', 'conflict']);
  });

  it('stops at an overlapping change with conflict markers, and goes on once they are resolved', () => {
    const { root, layers } = series();
    const ground = modules([1, 22, 3, 4, 5, 6]);
    const report = rebaseLayers(ground, layers, REBASE);
    assert.equal(report.ok, false);
    assert.deepEqual(report.layers.map((l) => l.status), ['conflict', 'not reached']);
    assert.deepEqual(report.layers[0].outcomes.map((o) => [o.target, o.outcome]), [['steps', 'conflict']]);
    const text = readFileSync(layerFile(root, '01-first'), 'utf8');
    assert.match(text, /^<<<<<<< layer 01-first\n {2}list\.push\(20\);\n\|\|\|\|\|\|\| pre-image \(v0\.0\.0-test\)\n {2}ArrayPrototypePush\(list, 2\);\n=======\n {2}ArrayPrototypePush\(list, 22\);\n>>>>>>> new ground$/m);
    assert.throws(() => applyLayers(ground, layers, OPTS), /layer 01-first has unresolved conflicts from `make rebase` at .*readablestream\.ts:3/);
    // Resolved by hand: both changes.
    writeFileSync(layerFile(root, '01-first'), text.replace(/<<<<<<<[^]*>>>>>>> new ground\n/, '  list.push(220);\n'));
    const again = rebaseLayers(ground, layers, REBASE);
    assert.ok(again.ok, JSON.stringify(again.layers.map((l) => [l.status, l.error])));
    assert.deepEqual(again.layers.map((l) => l.status), ['clean', 'merged']);
    assert.match(applyLayers(ground, layers, OPTS).modules.get(ID)!, /ArrayPrototypePush\(list, 220\);/);
  });

  it("carries an edit of an earlier layer's copy into the later layers' copies", () => {
    const { root, layers } = series();
    writeFileSync(layerFile(root, '01-first'), layerSteps([1, 20, 30, 4, 5, 6]));
    assert.throws(() => applyLayers(modules(BASE), layers, OPTS), /layer 02-second: replaces internal\/webstreams\/readablestream steps, which changed beneath it/);
    const report = rebaseLayers(modules(BASE), layers, REBASE);
    assert.deepEqual(report.layers.map((l) => l.status), ['clean', 'merged']);
    // The line comes in as layer 01 wrote it, not as the JS it compiles to.
    assert.equal(readFileSync(layerFile(root, '02-second'), 'utf8'), layerSteps([1, 20, 30, 4, 5, 60]));
  });

  it("keeps the non-null assertion an earlier layer's edit wrote, so the later copy still type-checks", () => {
    const { root, layers } = series();
    // Between the two layers' changes, with one unchanged line on either side.
    const withLast = (n: number[]) => layerSteps(n).replace('  list.push(4);\n', '  list.push(4);\n  list.push(list.at(-1)! * 2);\n');
    writeFileSync(layerFile(root, '01-first'), withLast([1, 20, 3, 4, 5, 6]));
    const report = rebaseLayers(modules(BASE), layers, REBASE);
    assert.ok(report.ok, formatReport(report, 'new ground'));
    assert.deepEqual(report.layers.map((l) => l.status), ['clean', 'merged']);
    assert.equal(readFileSync(layerFile(root, '02-second'), 'utf8'), withLast([1, 20, 3, 4, 5, 60]));
  });

  it('maps the merge back line for line past a type that spans lines', () => {
    // The annotation compiles to nothing: the JS the merge runs on must keep
    // its lines, or every TypeScript line after it is put one line off.
    const hook = 'let hook: (\n  value: number,\n) => void;\n\n';
    const { root, layers } = locked(overlayRoot({ '01-first': { 'readablestream.ts': hook + layerSteps([1, 20, 3, 4, 5, 6]) } }));
    const report = rebaseLayers(modules([1, 2, 3, 40, 5, 6]), layers, REBASE);
    assert.deepEqual(report.layers.map((l) => l.status), ['merged']);
    assert.equal(readFileSync(layerFile(root, '01-first'), 'utf8'),
      `const { ArrayPrototypePush } = primordials;\n\n${hook}${layerSteps([1, 20, 3, 40, 5, 6]).replace('  list.push(40);', '  ArrayPrototypePush(list, 40);')}`);
  });

  it('a name the layer replaces that is gone, or one it adds that now exists, stops with a marker comment', () => {
    const { root, layers } = overlayRoot({
      '01-first': { 'readablestream.ts': `${layerSteps([1, 20, 3, 4, 5, 6])}\nexport function fresh(): number {\n  return 1;\n}\n` },
    });
    const applied = applyLayers(modules(BASE), layers, OPTS);
    writeLock(layers[0], { base: 'v0', entries: applied.layers[0].touched });
    const ground: Modules = new Map([[ID, moduleText(BASE).replace('function steps', 'function fresh() {}\n\nfunction renamed')]]);
    const report = rebaseLayers(ground, layers, REBASE);
    assert.deepEqual(report.layers[0].outcomes.map((o) => [o.target, o.outcome, o.note]), [
      ['steps', 'conflict', 'the code beneath no longer has steps, which this layer replaces'],
      ['fresh', 'conflict', 'the code beneath now has fresh too'],
    ]);
    const text = readFileSync(layerFile(root, '01-first'), 'utf8');
    assert.match(text, /^\/\/ <<<<<<< make rebase: the code beneath no longer has steps, which this layer replaces; resolve, then delete this line\nfunction steps/m);
    assert.match(text, /^\/\/ <<<<<<< make rebase: the code beneath now has fresh too; resolve, then delete this line\nexport function fresh/m);
  });
});

describe('rebase onto ground that took a layer\'s change', () => {
  const FRESH = 'function fresh(list: number[]): number[] {\n  list.push(7);\n  return list;\n}\n';
  const freshJs = (comment: string) => `${comment}function fresh(list) {\n  ArrayPrototypePush(list, 7);\n  return list;\n}\n\n`;
  const groundWith = (n: number[], js: string) => new Map([...modules(n)].map(([id, t]) => [id, id === ID ? t.replace('function steps', `${js}function steps`) : t]));

  it('an addition the new ground has as the same code (comments aside) is absorbed: removed from the layer, the rest kept', () => {
    const { root, layers } = locked(overlayRoot({
      '01-first': { 'readablestream.ts': `${layerSteps([1, 20, 3, 4, 5, 6])}\n// Ours.\n// @overlay-after steps\n${FRESH}` },
    }));
    const ground = groundWith(BASE, freshJs('// Upstream\'s wording.\n'));
    const report = rebaseLayers(ground, layers, REBASE);
    assert.ok(report.ok, formatReport(report, 'new ground'));
    assert.deepEqual(report.layers[0].outcomes.map((o) => [o.target, o.outcome]), [['steps', 'unchanged'], ['fresh', 'absorbed']]);
    assert.match(formatReport(report, 'new ground'), /merged 0, conflicting 0, absorbed 1\n {4}absorbed  internal\/webstreams\/readablestream fresh \(.*\): the new ground has the same code; removed from the layer/);
    // The layer keeps its own replacement, and its comments and directive went with the copy.
    assert.equal(readFileSync(layerFile(root, '01-first'), 'utf8'), `${layerSteps([1, 20, 3, 4, 5, 6])}`);
    const out = applyLayers(ground, layers, OPTS).modules.get(ID)!;
    assert.match(out, /Upstream's wording\.\nfunction fresh/);
    assert.match(out, /ArrayPrototypePush\(list, 20\);/);
  });

  it('a layer left with nothing once its additions are absorbed is EMPTY; different code still conflicts', () => {
    const only = () => locked(overlayRoot({ '01-first': { 'readablestream.ts': `${layerSteps(BASE)}\n// @overlay-after steps\n${FRESH}` } }));
    const same = rebaseLayers(groundWith(BASE, freshJs('')), only().layers, REBASE);
    assert.equal(same.layers[0].empty, true, formatReport(same, 'new ground'));
    const other = rebaseLayers(groundWith(BASE, freshJs('').replace('list, 7', 'list, 8')), only().layers, REBASE);
    assert.deepEqual(other.layers[0].outcomes.map((o) => [o.target, o.outcome]), [['steps', 'unchanged'], ['fresh', 'conflict']]);
    // Nor is an exported addition absorbed: its export would go with it.
    const exported = locked(overlayRoot({ '01-first': { 'readablestream.ts': `${layerSteps(BASE)}\n// @overlay-after steps\nexport ${FRESH}` } }));
    const kept = rebaseLayers(groundWith(BASE, freshJs('')), exported.layers, REBASE);
    assert.deepEqual(kept.layers[0].outcomes.map((o) => [o.target, o.outcome]), [['steps', 'unchanged'], ['fresh', 'conflict']]);
  });

  it('names merged lines use are bound on the run after a conflict is resolved', () => {
    const { root, layers } = series();
    // Upstream changed the second push (overlapping layer 1) and the fourth, through a new helper.
    const ground = groundWith([1, 22, 3, 4, 5, 6], 'function four() {\n  return 40;\n}\n\n');
    ground.set(ID, ground.get(ID)!.replace('ArrayPrototypePush(list, 4);', 'ArrayPrototypePush(list, four());'));
    const first = rebaseLayers(ground, layers, REBASE);
    assert.deepEqual(first.layers.map((l) => l.status), ['conflict', 'not reached']);
    const text = readFileSync(layerFile(root, '01-first'), 'utf8');
    assert.match(text, /ArrayPrototypePush\(list, four\(\)\);/);
    writeFileSync(layerFile(root, '01-first'), text.replace(/<<<<<<<[^]*>>>>>>> new ground\n/, '  list.push(220);\n'));
    const again = rebaseLayers(ground, layers, REBASE);
    assert.ok(again.ok, formatReport(again, 'new ground'));
    assert.match(again.layers[0].adopted!.join(), /01-first\/readablestream\.ts: four \(internal\/webstreams\/readablestream\)/);
    assert.match(readFileSync(layerFile(root, '01-first'), 'utf8'), /^import \{ four \} from 'internal\/webstreams\/readablestream';$/m);
  });
});

describe('rebase of the real series', () => {
  const base = readLibDir(libDir('base'));
  /** A copy of lib-overlay/ and a lib directory: the real base with `edit` applied to readableStreamPipeTo. */
  function fixture(edit: (pipeTo: string) => string) {
    const dir = tempDir('rebase-real');
    const overlay = join(dir, 'overlay');
    cpSync(LIB_OVERLAY, overlay, { recursive: true });
    const mods = new Map(base.modules);
    const text = mods.get(ID)!;
    const fn = /\nfunction readableStreamPipeTo\([^]*?\n\}\n/.exec(text)![0];
    const changed = edit(fn);
    assert.notEqual(changed, fn, 'the edit applies');
    mods.set(ID, text.replace(fn, changed));
    const lib = join(dir, 'base');
    writeLibDir(lib, { ...base.manifest, origin: 'test: an upstream edit' }, mods);
    return { dir, overlay, lib };
  }
  const tool = (name: string, ...args: string[]) =>
    spawnSync(process.execPath, [join(ROOT, 'tools', name), ...args], { encoding: 'utf8', env: { ...process.env, LAYERS: '' } });

  it('an upstream edit inside a function layer 03 replaces reaches the patched lib and patch 0003, and rebasing back gives patches/', () => {
    const f = fixture((fn) => fn.replace("'Destination WritableStream is closed'", "'Destination WritableStream is already closed'"));
    writeFileSync(join(f.overlay, 'series.json'), `${JSON.stringify({ base: f.lib })}\n`);
    const refused = tool('build.ts', '--overlay', f.overlay, '--out', join(f.dir, 'lib'));
    assert.equal(refused.status, 1, refused.stdout);
    assert.match(refused.stderr, /layer 03-pipe-pass-through: replaces internal\/webstreams\/readablestream readableStreamPipeTo, which changed beneath it/);
    const r = tool('rebase.ts', '--overlay', f.overlay);
    assert.equal(r.status, 0, `${r.stdout}\n${r.stderr}`);
    assert.match(r.stdout, /03-pipe-pass-through +merged +unchanged \d+, new 0, merged 1, conflicting 0/);
    assert.match(readFileSync(join(f.overlay, '03-pipe-pass-through', 'readablestream.ts'), 'utf8'), /'Destination WritableStream is already closed'/);
    const built = tool('build.ts', '--overlay', f.overlay, '--out', join(f.dir, 'lib'));
    assert.equal(built.status, 0, built.stderr);
    assert.match(readFileSync(join(f.dir, 'lib', `${ID}.js`), 'utf8'), /'Destination WritableStream is already closed'/);
    const patches = tool('patches.ts', '--overlay', f.overlay, '--out', join(f.dir, 'patches'));
    assert.equal(patches.status, 0, patches.stderr);
    const p3 = readFileSync(join(f.dir, 'patches', '0003-pipe-pass-through.patch'), 'utf8');
    assert.ok(!p3.includes('is already closed'), 'patch 0003 neither reverts nor repeats the upstream edit');
    // And back onto the pinned base: the committed series, byte for byte.
    rmSync(join(f.overlay, 'series.json'));
    const back = tool('rebase.ts', '--overlay', f.overlay);
    assert.equal(back.status, 0, `${back.stdout}\n${back.stderr}`);
    assert.equal(tool('patches.ts', '--overlay', f.overlay, '--out', join(f.dir, 'back')).status, 0);
    for (const name of readdirSync(PATCHES).filter((n) => n.endsWith('.patch'))) {
      assert.equal(readFileSync(join(f.dir, 'back', name), 'utf8'), readFileSync(join(PATCHES, name), 'utf8'), name);
    }
    for (const layer of listLayers(LIB_OVERLAY)) {
      for (const name of readdirSync(layer.dir).filter((n) => n.endsWith('.ts') || n.endsWith('.lock'))) {
        assert.equal(readFileSync(join(f.overlay, layer.name, name), 'utf8'), readFileSync(join(layer.dir, name), 'utf8'), `${layer.name}/${name}`);
      }
    }
  });

  it('an overlapping upstream edit stops with markers in layer 03, a report and exit 1', () => {
    const f = fixture((fn) => fn.replace('writableStreamDefaultWriterWriteWithRequest(writer, chunk, writeTracker);',
      'writableStreamDefaultWriterWriteWithRequest(writer, chunk, writeTracker); // upstream'));
    writeFileSync(join(f.overlay, 'series.json'), `${JSON.stringify({ base: f.lib })}\n`);
    const r = tool('rebase.ts', '--overlay', f.overlay);
    assert.equal(r.status, 1, r.stdout);
    assert.match(r.stdout, /03-pipe-pass-through +conflict[^]*CONFLICT {2}internal\/webstreams\/readablestream readableStreamPipeTo \(.*03-pipe-pass-through\/readablestream\.ts:\d+\): 1 conflicting hunk/);
    assert.match(r.stdout, /04-pipe-sync-transforms +not reached/);
    assert.match(r.stdout, /stopped at 03-pipe-pass-through/);
    const text = readFileSync(join(f.overlay, '03-pipe-pass-through', 'readablestream.ts'), 'utf8');
    assert.match(text, /^<<<<<<< layer 03-pipe-pass-through$[^]*^>>>>>>> v26\.\d+\.\d+$/m);
    const refused = tool('build.ts', '--overlay', f.overlay, '--out', join(f.dir, 'lib'));
    assert.equal(refused.status, 1);
    assert.match(refused.stderr, /unresolved conflicts from `make rebase`/);
  });

  it("an edit to layer 08's copy of setupWritableStreamDefaultController reaches layers 09 and 10", () => {
    const dir = tempDir('rebase-layers');
    const overlay = join(dir, 'overlay');
    cpSync(LIB_OVERLAY, overlay, { recursive: true });
    const comment = "// A TransformStream's side: it runs the post-start step itself.";
    const edited = '// A TransformStream side runs its post-start step itself.';
    const file = (layer: string) => join(overlay, layer, 'writablestream.ts');
    writeFileSync(file('08-writable-direct-write'), readFileSync(file('08-writable-direct-write'), 'utf8').replace(comment, edited));
    const r = tool('rebase.ts', '--overlay', overlay);
    assert.equal(r.status, 0, `${r.stdout}\n${r.stderr}`);
    assert.match(r.stdout, /09-shared-sink-algorithms +merged[^]*10-writable-one-state-record +merged/);
    for (const layer of ['09-shared-sink-algorithms', '10-writable-one-state-record']) {
      const text = readFileSync(file(layer), 'utf8');
      assert.ok(text.includes(edited) && !text.includes(comment), layer);
    }
    assert.equal(listLayers(overlay).length, listLayers(LIB_OVERLAY).length);
  });
});
