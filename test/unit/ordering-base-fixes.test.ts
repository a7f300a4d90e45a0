// A layer that fixes a bug of the base declares the fix (base-fix.json), and
// the differential suites put the same fix into their old side: the fixed
// bug is no difference to excuse, and the rest is judged as before. The fix
// must matter (its scenario differs between the base and the base with it)
// and must apply exactly (an anchor that is missing or not unique is refused).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { resolveLib } from '../../tools/lib/injected.ts';
import { listLayers, stateLibName } from '../../tools/lib/layers.ts';
import { LIB_OVERLAY, libDir } from '../../tools/lib/paths.ts';
import { applyBaseFixes, baseFixes, withBaseFixes, type BaseFix } from '../../tools/ordering/base-fixes.ts';
import { resolveSides } from '../../tools/ordering/sides.ts';
import { runSide, type SideResult } from '../../tools/ordering/side.ts';
import { tempDir } from '../helpers/node-repo.ts';

// The main layers that declare a base fix, in order.
const FIXING_LAYERS = ['12-pipe-sync-chain-pass', '14-pipe-erroring-destination', '21-writer-ready-after-erroring-close',
  '22-from-async-iterator-values', '23-writer-write-during-close', '24-byte-reads-from-queue', '25-tee-close-steps',
  '26-pipe-shutdown-after-failed-write'];

const FIX: BaseFix = { layer: '99-x', module: 'm', find: 'function f() {\n', replace: 'function f() {\n  check();\n', why: 'test', variant: 0 };

test('a fix is inserted after its anchor, which must occur exactly once', () => {
  const fixed = applyBaseFixes(new Map([['m', 'function f() {\n  run();\n}\n']]), [FIX], 'lib');
  assert.equal(fixed.get('m'), 'function f() {\n  check();\n  run();\n}\n');
  assert.throws(() => applyBaseFixes(new Map([['m', 'function g() {}\n']]), [FIX], 'lib'), /base fix of 99-x does not apply to lib: m: "function f\(\) \{\\n" occurs nowhere; update base-fix\.json/);
  assert.throws(() => applyBaseFixes(new Map([['m', 'function f() {\nfunction f() {\n']]), [FIX], 'lib'), /base fix of 99-x does not apply to lib: m: .* occurs more than once/);
  assert.throws(() => applyBaseFixes(new Map(), [FIX], 'lib'), /base fix of 99-x does not apply to lib: no module m;/);
  // A lib that already has the fix (its base took it upstream) is refused, not fixed twice.
  assert.throws(() => applyBaseFixes(new Map([['m', 'function f() {\n  check();\n}\n']]), [FIX], 'lib'), /lib already has the base fix of 99-x \(its base took the fix upstream\): remove the layer.s base-fix\.json/);
});

test('a fix in several places declares its insertions in order, and refuses a half-declared one', () => {
  const dir = tempDir('base-fix');
  const layer = (json: object) => {
    mkdirSync(join(dir, '01-x'), { recursive: true });
    writeFileSync(join(dir, '01-x', 'base-fix.json'), JSON.stringify(json));
    return [{ name: '01-x', dir: join(dir, '01-x') }] as unknown as Parameters<typeof baseFixes>[0];
  };
  const two = baseFixes(layer({ why: 'w', module: 'm', inserts: [{ after: 'a', insert: 'b' }, { after: 'c', insert: 'd' }] }));
  assert.deepEqual(two.map((f) => [f.layer, f.module, f.find, f.replace, f.why]), [['01-x', 'm', 'a', 'ab', 'w'], ['01-x', 'm', 'c', 'cd', 'w']]);
  // An entry may replace text instead (an expression the fix changes).
  const replaced = baseFixes(layer({ why: 'w', module: 'm', inserts: [{ replace: 'x ?? y', with: 'a ?? y' }, { after: 'tail();\n', insert: 'fix();\n' }] }));
  assert.equal(applyBaseFixes(new Map([['m', 'g = x ?? y;\ntail();\n']]), replaced, 'lib').get('m'), 'g = a ?? y;\ntail();\nfix();\n');
  assert.throws(() => baseFixes(layer({ why: 'w', module: 'm', inserts: [{ replace: 'x', with: 'y', after: 'a' }] })), /inserts\[0\]: give either "after" and "insert" or "replace" and "with", not both/);
  assert.throws(() => baseFixes(layer({ why: 'w', module: 'm', inserts: [{ replace: 'x' }] })), /inserts\[0\]: "with" must be a non-empty string/);
  assert.throws(() => baseFixes(layer({ why: 'w', module: 'm', inserts: [{ replace: 'x', with: 'x' }] })), /inserts\[0\]: "with" is the text it replaces/);
  assert.throws(() => baseFixes(layer({ why: 'w', module: 'm', after: 'a', insert: 'b', inserts: [] })), /give either "inserts" or "after" and "insert"/);
  assert.throws(() => baseFixes(layer({ why: 'w', module: 'm', inserts: [] })), /"inserts" must be a non-empty array/);
  assert.throws(() => baseFixes(layer({ why: 'w', module: 'm', inserts: [{ after: 'a' }] })), /inserts\[0\]: "insert" must be a non-empty string/);
});

test('a fix may give alternatives for states of the lib earlier layers rewrote; the first that fits is applied', () => {
  const dir = tempDir('base-fix-alternatives');
  mkdirSync(join(dir, '01-x'), { recursive: true });
  writeFileSync(join(dir, '01-x', 'base-fix.json'), JSON.stringify({
    why: 'w', module: 'm', inserts: [{ after: 'base();\n', insert: 'fixA();\n' }, { after: 'tail();\n', insert: 'fixB();\n' }],
    alternatives: [{ for: 'rewritten', inserts: [{ after: 'rewritten();\n', insert: 'fixC();\n' }] }],
  }));
  const fixes = baseFixes([{ name: '01-x', dir: join(dir, '01-x') }] as unknown as Parameters<typeof baseFixes>[0]);
  assert.deepEqual(fixes.map((f) => f.variant), [0, 0, 1]);
  const apply = (text: string) => applyBaseFixes(new Map([['m', text]]), fixes, 'lib').get('m');
  assert.equal(apply('base();\ntail();\n'), 'base();\nfixA();\ntail();\nfixB();\n');
  assert.equal(apply('rewritten();\n'), 'rewritten();\nfixC();\n');
  // The base's insertions fit only half: none of them is kept.
  assert.equal(apply('base();\nrewritten();\n'), 'base();\nrewritten();\nfixC();\n');
  assert.throws(() => apply('other();\n'), /base fix of 01-x does not apply to lib: m: "base\(\);\\n" occurs nowhere \(nor does any of its 1 alternatives\)/);
  writeFileSync(join(dir, '01-x', 'base-fix.json'), JSON.stringify({ why: 'w', module: 'm', after: 'a', insert: 'b', alternatives: [{ inserts: [{ after: 'c', insert: 'd' }] }] }));
  assert.throws(() => baseFixes([{ name: '01-x', dir: join(dir, '01-x') }] as unknown as Parameters<typeof baseFixes>[0]), /alternatives\[0\]: "for" must be a non-empty string/);
});

test('a layer range that starts later judges against its old side with the fix', () => {
  // The old side of LAYERS=a..b is the state after layer a-1: every state
  // before a layer that declares a fix must take the fix (its base
  // insertions or an alternative), or that layer cannot be judged alone.
  const layers = listLayers();
  for (const [i, layer] of layers.entries()) {
    const fix = baseFixes([layer]);
    if (fix.length === 0) continue;
    for (let a = 1; a <= i + 1; a++) {
      const old = resolveLib(libDir(stateLibName(a - 1, layers.length)));
      assert.doesNotThrow(() => withBaseFixes(old, fix), `${layer.name} judged from layer ${a} on`);
    }
  }
});

test('the series declares its base fixes, and the suites compare against the base with them', () => {
  const fixes = baseFixes(listLayers());
  assert.deepEqual(fixes.filter((f) => f.variant === 0).map((f) => f.layer), ['12-pipe-sync-chain-pass', '12-pipe-sync-chain-pass', '12-pipe-sync-chain-pass', '14-pipe-erroring-destination', '21-writer-ready-after-erroring-close', '22-from-async-iterator-values', '22-from-async-iterator-values', '23-writer-write-during-close', '24-byte-reads-from-queue', '24-byte-reads-from-queue',
    ...Array(4).fill('25-tee-close-steps'), ...Array(4).fill('26-pipe-shutdown-after-failed-write')]);
  const sides = resolveSides('base', 'patched', undefined);
  assert.equal(sides.oldLib.name, 'base+fixes');
  // The old side named by its directory, as tools/series/check.ts does, gets the same fix.
  const byDir = resolveSides(resolveLib('base').dir, 'patched', undefined);
  assert.equal(byDir.oldLib.dir, sides.oldLib.dir);
});

test('an old side that already has a layer takes none of its base fix', () => {
  // `--old patched --new <hand-edited copy>`: patched has every layer's
  // fix in its own code, where the base's anchors no longer occur.
  const sides = resolveSides('patched', 'patched', undefined);
  assert.deepEqual(sides.fixes, []);
  assert.equal(sides.oldLib.name, 'patched');
  const n = listLayers().length;
  const fromEleven = resolveSides(libDir(stateLibName(11, n)), 'patched', undefined);
  assert.deepEqual([...new Set(fromEleven.fixes.map((f) => f.layer))], FIXING_LAYERS);
  const fromThirteen = resolveSides(libDir(stateLibName(13, n)), 'patched', undefined);
  assert.deepEqual([...new Set(fromThirteen.fixes.map((f) => f.layer))], FIXING_LAYERS.slice(1));
});

/** The corpus scenarios `filter` selects, run on the base and on the base with the series' fixes. */
function onBaseAndFixed(filter: string) {
  const base = resolveLib('base');
  const fixed = withBaseFixes(base, baseFixes(listLayers()));
  const batch = { kind: 'corpus' as const, filter };
  return Promise.all([runSide(base, batch), runSide(fixed, batch)]);
}

/** The lines of scenario `id`'s log on one side that match `pattern`, without their turn. */
function eventsOf(side: SideResult, id: string, pattern: RegExp): string[] {
  return side.logs.get(id)!.filter((l) => pattern.test(l)).map((l) => l.replace(/^\S+ /, ''));
}

test('the fix matters: on the base the pipe drains the source into the erroring sink', async () => {
  const [a, b] = await onBaseAndFixed('dest-erroring-keeps-source');
  const reads = (log: string[]) => log.filter((l) => / read#\d+ fulfilled \{done:false/.test(l)).length;
  assert.equal(reads(a.logs.get('pipe/dest-erroring-keeps-source')!), 0);
  assert.equal(reads(b.logs.get('pipe/dest-erroring-keeps-source')!), 4);
});

test('the fix matters: on the base a pipe releases both streams while a chunk it read is still being written', async () => {
  const [a, b] = await onBaseAndFixed('pipe-waits-for-read-chunk');
  const finalOfSource = (side: typeof a) => eventsOf(side, 'fuzz-found/pipe-waits-for-read-chunk', / final r0 /);
  assert.deepEqual(finalOfSource(a), ['final r0 closed']);
  assert.deepEqual(finalOfSource(b), ['final r0 closed locked']);
});

test('the fix matters: on the base a writer reading ready after an erroring close finds it fulfilled', async () => {
  const [a, b] = await onBaseAndFixed('then-ready');
  const ready = (side: typeof a, id: string) => eventsOf(side, id, / ready (fulfilled|rejected)/);
  for (const id of ['writable/erroring-close-then-ready', 'transform/flush-terminates-then-ready']) {
    assert.match(ready(a, id).join('\n'), /^ready fulfilled/, `${id} on the base`);
    assert.match(ready(b, id).join('\n'), /^ready rejected/, `${id} with the fix`);
  }
});

test('the fix matters: on the base from() awaits the promises and thenables an async iterator yields', async () => {
  const [a, b] = await onBaseAndFixed('async-iterator-thenable-values');
  const events = (side: typeof a) => eventsOf(side, 'from/async-iterator-thenable-values', / (read#\d+ fulfilled|thenable\.then)/);
  assert.deepEqual(events(a), ['read#1 fulfilled {done:false,value:"p1"}', 'thenable.then', 'read#2 fulfilled {done:false,value:"from then"}', 'read#3 fulfilled {done:true,value:undefined}']);
  assert.deepEqual(events(b), ['read#1 fulfilled {done:false,value:Promise}', 'read#2 fulfilled {done:false,value:{then:fn:then}}', 'read#3 fulfilled {done:true,value:undefined}']);
});

test('the fix matters: on the base a write during an in-flight close throws an internal assertion', async () => {
  const [a, b] = await onBaseAndFixed('write-during-close-in-flight');
  const write = (side: typeof a) => eventsOf(side, 'writable/write-during-close-in-flight', / write (threw|rejected|fulfilled)/)
    .map((l) => l.replace(/\(.*$/, ''));
  assert.deepEqual(write(a), ['write threw Error[ERR_INTERNAL_ASSERTION]']);
  assert.deepEqual(write(b), ['write rejected TypeError[ERR_INVALID_STATE]']);
});

test('the fix matters: on the base enqueue() serving queued bytes to waiting reads throws an internal assertion and loses a read', async () => {
  const [a, b] = await onBaseAndFixed('released-pull-into-queue-serves-reads');
  const events = (side: typeof a) => eventsOf(side, 'bytes/released-pull-into-queue-serves-reads', / (enqueue|read#\d+) /)
    .map((l) => l.replace(/\(".*$/, ''));
  assert.deepEqual(events(a), ['enqueue threw Error[ERR_INTERNAL_ASSERTION]', 'read#1 fulfilled {done:false,value:Uint8Array(0+2/2)[1,1]}',
    'enqueue = undefined', 'read#3 fulfilled {done:false,value:Uint8Array(0+3/3)[3,3,3]}', 'read#4 fulfilled {done:true,value:undefined}']);
  assert.deepEqual(events(b), ['enqueue = undefined', 'read#1 fulfilled {done:false,value:Uint8Array(0+2/2)[1,1]}',
    'read#2 fulfilled {done:false,value:Uint8Array(0+2/2)[2,2]}', 'enqueue = undefined',
    'read#3 fulfilled {done:false,value:Uint8Array(0+3/3)[3,3,3]}', 'read#4 fulfilled {done:true,value:undefined}']);
});

test('a layer range that starts later gets the fixed base as its reference; the whole series does not need one', () => {
  assert.equal(resolveSides('base', 'patched', undefined).baseRef, undefined);
  const saved = process.env.LAYERS;
  try {
    process.env.LAYERS = '12..12';
    const sides = resolveSides('base', 'patched', undefined);
    assert.equal(sides.oldLib.name, 'layers-11+fixes');
    assert.equal(sides.baseRef?.name, 'base+fixes');
    process.env.LAYERS = '1..12';
    assert.equal(resolveSides('base', 'patched', undefined).baseRef, undefined);
  } finally {
    if (saved === undefined) delete process.env.LAYERS;
    else process.env.LAYERS = saved;
  }
});

test('a layer range named by its states\' directories gets the later layers\' fixes on both sides, as with `patched`', () => {
  const saved = process.env.LAYERS;
  try {
    process.env.LAYERS = '3..3';
    const n = listLayers().length;
    const later = (sides: ReturnType<typeof resolveSides>) => [...new Set(sides.laterFixes.map((f) => f.layer))];
    const byName = resolveSides('base', 'patched', undefined);
    assert.deepEqual(later(byName), FIXING_LAYERS);
    // tools/series/check.ts passes each state's directory and the overlay.
    const byDir = resolveSides(libDir(stateLibName(2, n)), libDir(stateLibName(3, n)), LIB_OVERLAY);
    assert.deepEqual(later(byDir), later(byName));
    assert.equal(byDir.oldLib.dir, byName.oldLib.dir);
    assert.equal(byDir.newLib.dir, byName.newLib.dir);
    // Without the overlay a directory says nothing about which state it is.
    assert.deepEqual(resolveSides(libDir(stateLibName(2, n)), libDir(stateLibName(3, n)), undefined).laterFixes, []);
  } finally {
    if (saved === undefined) delete process.env.LAYERS;
    else process.env.LAYERS = saved;
  }
});

test('the fix matters: on the base a tee branch closes only after the microtask queue drains', async () => {
  const [a, b] = await onBaseAndFixed('default-pipe-branches');
  // `<macrotask>:<turn>`: the harness's first number counts the times the queue drained.
  const settled = (side: typeof a) => side.logs.get('tee/default-pipe-branches')!
    .filter((l) => /close\(\)|pipeTo fulfilled/.test(l)).map((l) => l.replace(/:\d+ /, ' '));
  assert.deepEqual(settled(a), ['2 wa.close()', '2 wb.close()', '2 a.pipeTo fulfilled undefined', '2 b.pipeTo fulfilled undefined']);
  assert.deepEqual(settled(b), ['1 wb.close()', '1 wa.close()', '1 b.pipeTo fulfilled undefined', '1 a.pipeTo fulfilled undefined']);
});

test('the fix matters: on the base a pipe whose pending write fails at shutdown skips its action', async () => {
  const [a, b] = await onBaseAndFixed('while-write-fails');
  const outcome = (side: typeof a, id: string) => eventsOf(side, `pipe/${id}-while-write-fails`, /source\.cancel\(|pipeTo /);
  assert.deepEqual(outcome(a, 'signal-abort'), ['pipeTo rejected Error("sink write fails")']);
  assert.deepEqual(outcome(b, 'signal-abort'), ['source.cancel(Error("user abort"))', 'pipeTo rejected Error("user abort")']);
  assert.deepEqual(outcome(a, 'source-errors'), ['pipeTo rejected Error("sink write fails")']);
  assert.deepEqual(outcome(b, 'source-errors'), ['pipeTo rejected Error("source error")']);
  assert.deepEqual(outcome(a, 'source-closes-prevent-close'), ['pipeTo rejected Error("sink write fails")']);
  assert.deepEqual(outcome(b, 'source-closes-prevent-close'), ['pipeTo fulfilled undefined']);
});
