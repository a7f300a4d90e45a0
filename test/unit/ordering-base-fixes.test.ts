// A layer that fixes a bug of the base declares the fix (base-fix.json), and
// the differential suites put the same fix into their old side: the fixed
// bug is no difference to excuse, and the rest is judged as before. The fix
// must matter (its scenario differs between the base and the base with it)
// and must apply exactly (an anchor that is missing or not unique is refused).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { resolveLib } from '../../tools/lib/injected.ts';
import { listLayers } from '../../tools/lib/layers.ts';
import { applyBaseFixes, baseFixes, withBaseFixes, type BaseFix } from '../../tools/ordering/base-fixes.ts';
import { resolveSides } from '../../tools/ordering/sides.ts';
import { runSide } from '../../tools/ordering/side.ts';

const FIX: BaseFix = { layer: '99-x', module: 'm', after: 'function f() {\n', insert: '  check();\n', why: 'test' };

test('a fix is inserted after its anchor, which must occur exactly once', () => {
  const fixed = applyBaseFixes(new Map([['m', 'function f() {\n  run();\n}\n']]), [FIX], 'lib');
  assert.equal(fixed.get('m'), 'function f() {\n  check();\n  run();\n}\n');
  assert.throws(() => applyBaseFixes(new Map([['m', 'function g() {}\n']]), [FIX], 'lib'), /base fix of 99-x does not apply to lib: m: "function f\(\) \{\\n" occurs nowhere; update base-fix\.json/);
  assert.throws(() => applyBaseFixes(new Map([['m', 'function f() {\nfunction f() {\n']]), [FIX], 'lib'), /base fix of 99-x does not apply to lib: m: .* occurs more than once/);
  assert.throws(() => applyBaseFixes(new Map(), [FIX], 'lib'), /base fix of 99-x does not apply to lib: no module m;/);
});

test('the series declares the pipe fix, and the suites compare against the base with it', () => {
  const fixes = baseFixes(listLayers());
  assert.deepEqual(fixes.map((f) => f.layer), ['14-pipe-erroring-destination']);
  const sides = resolveSides('base', 'patched', undefined);
  assert.equal(sides.oldLib.name, 'base+fixes');
  // The old side named by its directory, as tools/series/check.ts does, gets the same fix.
  const byDir = resolveSides(resolveLib('base').dir, 'patched', undefined);
  assert.equal(byDir.oldLib.dir, sides.oldLib.dir);
});

test('the fix matters: on the base the pipe drains the source into the erroring sink', async () => {
  const base = resolveLib('base');
  const fixed = withBaseFixes(base, baseFixes(listLayers()));
  const batch = { kind: 'corpus' as const, filter: 'dest-erroring-keeps-source' };
  const [a, b] = await Promise.all([runSide(base, batch), runSide(fixed, batch)]);
  const reads = (log: string[]) => log.filter((l) => / read#\d+ fulfilled \{done:false/.test(l)).length;
  assert.equal(reads(a.logs.get('pipe/dest-erroring-keeps-source')!), 0);
  assert.equal(reads(b.logs.get('pipe/dest-erroring-keeps-source')!), 4);
});
