// The race witness of an iteration's loop body (`<op>.body` in
// program.delay): the base runs the program again with an iterate op's body
// taking a few turns after each value, as a body with asynchronous work of
// its own would. Program 3151 of seed 2026 is the one `make fuzz` found: a
// pipe through a synchronous transform() closes the TransformStream's
// writable side before an iterator's return() cancels its readable side, on
// the series only; the base gets there too once the loop body takes a turn.
// The witness of two delays runs for a program no single one explains.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { resolveLib } from '../../tools/lib/injected.ts';
import { fuzzExemptions } from '../../tools/ordering/deviations.ts';
import { FEATURES, generateProgram } from '../../tools/ordering/generate.ts';
import { judgePrograms } from '../../tools/ordering/judge-programs.ts';
import { runSide } from '../../tools/ordering/side.ts';
import { resolveSides } from '../../tools/ordering/sides.ts';

const { oldLib, declared } = resolveSides('base', 'patched', undefined);

/** The fuzz judge's outcome for program `index` of `seed`, base+fixes against the series. */
async function judgeOne(seed: number, index: number) {
  const entry = { id: `fuzz/seed-${seed}-${index}`, program: generateProgram(seed, index) };
  const { exempt } = fuzzExemptions(declared, FEATURES);
  return (await judgePrograms(oldLib, resolveLib('patched'), [entry], exempt)).outcomes[0];
}

/** The turn of each value an iterator logged (`1:7 iter#1 value "c2"` → 7). */
function valueTurns(lines: readonly string[]): number[] {
  return lines.flatMap((l) => {
    const m = /^\d+:(\d+) iter#\d+ value /.exec(l);
    return m ? [Number(m[1])] : [];
  });
}

test('program.delay `<op>.body` makes the loop body take that many turns after each value', async () => {
  const program = {
    source: { type: 'default', start: 'sync', startEnqueue: 3, startClose: true },
    ops: [{ op: 'iterate', r: 0, n: 3, exit: 'end' }],
  };
  const { logs } = await runSide(oldLib, {
    kind: 'programs',
    programs: [{ id: 'plain', program }, { id: 'slow', program: { ...program, delay: { '0.body': 5 } } }],
  });
  const gaps = (id: string) => {
    const turns = valueTurns(logs.get(id)!);
    assert.equal(turns.length, 3, logs.get(id)!.join('\n'));
    return turns.slice(1).map((t, i) => t - turns[i]);
  };
  assert.ok(gaps('plain').every((g) => g < 5), `plain: ${gaps('plain')}`);
  assert.ok(gaps('slow').every((g) => g >= 5), `slow: ${gaps('slow')}`);
});

test('seed 2026 #3151 is a race the base runs with a slower loop body', async () => {
  const o = await judgeOne(2026, 3151);
  assert.equal(o.kind, 'raced', JSON.stringify(o));
  assert.ok(o.kind === 'raced' && Object.keys(o.delay).length === 1 && Object.keys(o.delay)[0].endsWith('.body'), JSON.stringify(o));
});

// Seed 1 #1893: the series' pipe reads a byte source's last chunk before the
// pull's rejection errors the source, and the program's enqueue op then
// throws. The base gets there with the op later and the rejection later
// (doc/testing.md), neither alone.
test('seed 1 #1893 is a race the base runs with two things later, and with no single one', async () => {
  const o = await judgeOne(1, 1893);
  assert.equal(o.kind, 'raced', JSON.stringify(o));
  assert.ok(o.kind === 'raced' && Object.keys(o.delay).length === 2, JSON.stringify(o));
});
