// A random program in which only the base lib hits an internal assertion
// (an unhandled ERR_INTERNAL_ASSERTION rejection: a bug in Node) passes as
// such when the rest of the two runs is alike, and fails like any other
// difference when it is not. The programs are ones `make fuzz` found on
// seed 1796120270, where the v26.12.1 base's pipeTo rejects internally.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { resolveLib } from '../../tools/lib/injected.ts';
import { generateProgram } from '../../tools/ordering/generate.ts';
import { baseAssertionOutcome, judgePrograms } from '../../tools/ordering/judge-programs.ts';
import { resolveSides } from '../../tools/ordering/sides.ts';

const SEED = 1796120270;
const FOUND = [4624, 2787, 3844];
const entries = FOUND.map((i) => ({ id: `fuzz/seed-${SEED}-${i}`, program: generateProgram(SEED, i) }));
// The series' old side: the base with the bugs layers fix (tools/ordering/base-fixes.ts).
const { oldLib } = resolveSides('base', 'patched', undefined);

test('only the base hits an internal assertion: counted as such, the rest compared', async () => {
  // The base as released: with the bugs layers fix in it, it asserts in none of them (next test).
  const { outcomes, logs } = await judgePrograms(resolveLib('base'), resolveLib('patched'), entries, new Map());
  entries.forEach((e, i) => {
    assert.ok(logs[0].get(e.id)!.some((l) => /unhandled rejection Error\[ERR_INTERNAL_ASSERTION\]/.test(l)), `${e.id}: the base no longer asserts`);
    assert.equal(outcomes[i].kind, 'base-assertion', `${e.id}: ${JSON.stringify(outcomes[i])}`);
  });
});

test('those assertions came from a chunk written through a released writer, which fix 2 drops: gone with the fixes', async () => {
  const { outcomes, logs } = await judgePrograms(oldLib, resolveLib('patched'), entries, new Map());
  entries.forEach((e, i) => {
    assert.ok(!logs[0].get(e.id)!.some((l) => /ERR_INTERNAL_ASSERTION/.test(l)), `${e.id}: base+fixes still asserts`);
    assert.equal(outcomes[i].kind, 'identical', `${e.id}: ${JSON.stringify(outcomes[i])}`);
  });
});

test('the assertion of program 9931 came from the bug layer 14 fixes: gone with the fix', async () => {
  const entry = { id: `fuzz/seed-${SEED}-9931`, program: generateProgram(SEED, 9931) };
  const asserts = (logs: Map<string, string[]>) => logs.get(entry.id)!.some((l) => /ERR_INTERNAL_ASSERTION/.test(l));
  const onBase = await judgePrograms(resolveLib('base'), resolveLib('patched'), [entry], new Map());
  assert.ok(asserts(onBase.logs[0]), 'the base no longer asserts');
  const onFixed = await judgePrograms(oldLib, resolveLib('patched'), [entry], new Map());
  assert.ok(!asserts(onFixed.logs[0]));
  assert.equal(onFixed.outcomes[0].kind, 'identical');
});

const ASSERTION = '3:0 unhandled rejection Error[ERR_INTERNAL_ASSERTION]("This is caused by either a bug in Node.js or incorrect usage of Node.js internal")';

test('an internal assertion on the base does not excuse any other difference', () => {
  const base = ['1:2 sink.write("c1")', '1:4 pipeTo#1 rejected Error("boom")', ASSERTION, '6:0 final r0 closed'];
  // Alike but for the assertion (the final lines come sooner without its turns).
  assert.deepEqual(baseAssertionOutcome(base, ['1:2 sink.write("c1")', '1:4 pipeTo#1 rejected Error("boom")', '4:0 final r0 closed'], []),
    { kind: 'base-assertion', found: 'turns' });
  // Another final state, a lost write, another settlement: compared, and failing.
  assert.equal(baseAssertionOutcome(base, ['1:2 sink.write("c1")', '1:4 pipeTo#1 rejected Error("boom")', '4:0 final r0 errored Error("boom")'], []), undefined);
  assert.equal(baseAssertionOutcome(base, ['1:4 pipeTo#1 rejected Error("boom")', '4:0 final r0 closed'], []), undefined);
  assert.equal(baseAssertionOutcome(base, ['1:2 sink.write("c1")', '1:4 pipeTo#1 fulfilled undefined', '4:0 final r0 closed'], []), undefined);
  // Both libs assert: an ordinary difference, judged as one.
  assert.equal(baseAssertionOutcome(base, [...base.slice(0, 3), '4:0 final r0 closed'], []), undefined);
});
