// The race witness of an iteration's loop body (`<op>.body` in
// program.delay): the base runs the program again with an iterate op's body
// taking a few turns after each value, as a body with asynchronous work of
// its own would. Program 3151 of seed 2026 is the one `make fuzz` found: a
// pipe through a synchronous transform() closes the TransformStream's
// writable side before an iterator's return() cancels its readable side, on
// the series only; the base gets there too once the loop body takes a turn.
// The witness of two delays runs for a program no single one explains, and
// a synchronous callback's result can be delayed like an asynchronous one's.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { resolveLib } from '../../tools/lib/injected.ts';
import { fuzzExemptions } from '../../tools/ordering/deviations.ts';
import { FEATURES, generateProgram, programName, type Program } from '../../tools/ordering/generate.ts';
import { judgePrograms, restoredToBase, type Outcome } from '../../tools/ordering/judge-programs.ts';
import { runSide } from '../../tools/ordering/side.ts';
import { resolveSides } from '../../tools/ordering/sides.ts';

const { oldLib, declared } = resolveSides('base', 'patched', undefined);

/** The fuzz judge's outcome for `program`, base+fixes against the series, with `triples` programs given witnesses of three. */
async function judgeProgram(id: string, program: Program, triples = 0) {
  const { exempt } = fuzzExemptions(declared, FEATURES);
  return (await judgePrograms(oldLib, resolveLib('patched'), [{ id, program }], exempt, { triples })).outcomes[0];
}

/** The same for program `index` of `seed`. */
function judgeOne(seed: number, index: number, drops = false) {
  return judgeProgram(`fuzz/${programName(seed, index, { drops })}`, generateProgram(seed, index, { drops }));
}

/** The turn of each line matching `what` (`1:7 iter#1 value "c2"` → 7). */
function turnsOf(lines: readonly string[], what: RegExp): number[] {
  return lines.flatMap((l) => {
    const m = /^\d+:(\d+) (.*)$/.exec(l);
    return m && what.test(m[2]) ? [Number(m[1])] : [];
  });
}

/** The gaps in turns between consecutive lines matching `what`; `count` of them are expected. */
function gaps(lines: readonly string[], what: RegExp, count: number): number[] {
  const turns = turnsOf(lines, what);
  assert.equal(turns.length, count, lines.join('\n'));
  return turns.slice(1).map((t, i) => t - turns[i]);
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
  const values = /^iter#\d+ value /;
  assert.ok(gaps(logs.get('plain')!, values, 3).every((g) => g < 5), logs.get('plain')!.join('\n'));
  assert.ok(gaps(logs.get('slow')!, values, 3).every((g) => g >= 5), logs.get('slow')!.join('\n'));
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

// A synchronous callback's result can settle later too: it returns a promise
// then, as a slower callback would. Seed 7 #1901 needs it: the series' first
// pipe closes a TransformStream's writable side before a signal's abort
// reaches it, while the second pipe has written two of three chunks; the
// base gets there with a sink whose write takes a turn (and an op later).
test('program.delay on a synchronous callback makes its result settle that many turns later', async () => {
  const program = {
    source: { type: 'default', start: 'sync', startEnqueue: 3, startClose: true },
    ops: [{ op: 'pipeTo', r: 0, sink: { write: 'sync' } }],
  };
  const { logs } = await runSide(oldLib, {
    kind: 'programs',
    programs: [{ id: 'plain', program }, { id: 'slow', program: { ...program, delay: { 'w0.write': 4 } } }],
  });
  const writes = /^w0\.write\(/;
  assert.ok(gaps(logs.get('plain')!, writes, 3).every((g) => g < 4), logs.get('plain')!.join('\n'));
  assert.ok(gaps(logs.get('slow')!, writes, 3).every((g) => g >= 4), logs.get('slow')!.join('\n'));
});

test('seed 7 #1901 is a race the base runs with a synchronous sink write settling later', async () => {
  const o = await judgeOne(7, 1901);
  assert.equal(o.kind, 'raced', JSON.stringify(o));
});

// Seed 19 #2300: a byte source closes itself after five pulls; the series'
// pipe pulls every 2-3 turns where the base's pulls every 6, so the
// program's third enqueue op finds the source closed on the series only.
// The base gets there with that op 34 turns later, no sooner.
test('seed 19 #2300 is a race the base runs only with an op more than 21 turns later', async () => {
  const o = await judgeOne(19, 2300);
  assert.equal(o.kind, 'raced', JSON.stringify(o));
  assert.ok(o.kind === 'raced' && Object.values(o.delay).some((turns) => turns > 21), JSON.stringify(o));
});

test('a layer range that brings a program back to the base passes on the base itself, and only with its events', async () => {
  // Seed 12 #1959, the program that layer 04 alone changes (its pipe drains
  // the source before the source's close()) and layer 12 alone brings back.
  const entry = { id: 'fuzz/seed-12-1959', program: generateProgram(12, 1959) };
  const base = oldLib;
  const run = await runSide(base, { kind: 'programs', programs: [entry] });
  const own = run.logs.get(entry.id)!;
  const judged = async (lines: string[]) => {
    const outcomes: Outcome[] = [{ kind: 'undeclared', found: 'beyond' }];
    const n = await restoredToBase(base, [entry], outcomes, new Map([[entry.id, lines]]));
    return [n, outcomes[0].kind];
  };
  // The base's own run, and the same events a turn later each: restored.
  assert.deepEqual(await judged(own), [1, 'restored']);
  assert.deepEqual(await judged(own.map((l) => l.replace(/^(\d+):(\d+) /, (_, p, t) => `${p}:${Number(t) + 1} `))), [1, 'restored']);
  // Any event missing (here the source's pull): still failing.
  const pull = own.findIndex((l) => / source\.pull\(/.test(l));
  assert.ok(pull >= 0, own.join('\n'));
  assert.deepEqual(await judged(own.filter((_, i) => i !== pull)), [0, 'undeclared']);
});

// Seed 20261203 #2470: an async generator's one value piped through a
// pass-through TransformStream (flush() and cancel()) into a sink whose
// write() rejects. The series' chunk reaches the sink a turn sooner, so the
// sink's error cancels the TransformStream (cancel()) before the
// generator's end closes it (flush()); the base closes it first. The base
// gets there with a slower generator.
test('program.delay `source.next` makes an async generator source take that many turns before each step', async () => {
  const program = {
    source: { type: 'from', fromKind: 'async-generator', count: 3 },
    ops: [{ op: 'iterate', r: 0, n: 4, exit: 'end' }],
  };
  const { logs } = await runSide(oldLib, {
    kind: 'programs',
    programs: [{ id: 'plain', program }, { id: 'slow', program: { ...program, delay: { 'source.next': 10 } } }],
  });
  const steps = /^async generator next$/;
  const end = /^iterate#1 fulfilled 3$/;
  for (const [id, fast] of [['plain', true], ['slow', false]] as const) {
    const lines = logs.get(id)!;
    const starts = turnsOf(lines, steps);
    const stepGaps = gaps(lines, steps, 3);
    const [done] = turnsOf(lines, end);
    // Each step, and the end after the last one, is 10 turns later or more on the slow generator only.
    assert.equal(starts[0] >= 10, !fast, lines.join('\n'));
    assert.equal(stepGaps.every((g) => g >= 10), !fast, lines.join('\n'));
    assert.equal(done - starts[2] >= 10, !fast, lines.join('\n'));
  }
});

test('seed 20261203 #2470 is a race the base runs with a slower async generator', async () => {
  const o = await judgeOne(20261203, 2470);
  assert.equal(o.kind, 'raced', JSON.stringify(o));
  assert.ok(o.kind === 'raced' && Object.keys(o.delay).includes('source.next'), JSON.stringify(o));
});

// `<op>.late`: a slower producer. Seed 3 #12077 with drops (fuzz --drops):
// after a synchronous TransformStream's held chunk is written, the series'
// pipe into it reads the next chunk in the same step, where the base's
// reads it a few microtasks later; the source's error comes in between, so
// the series' pipe holds a chunk whose write waits on backpressure nothing
// clears and never settles, while the base's errors the chain. The base
// gets there when the error comes after the program's next read
// (tools/probe/pipe-held-chunk-on-error.cjs): no op later, which delays
// that read too, but the source's own call later.
test('program.delay `<op>.late` makes the source\'s calls from that op on come later, in order, and no other op', async () => {
  const program = {
    source: { type: 'default', start: 'sync' },
    ops: [{ op: 'getReader', r: 0 }, { op: 'read', r: 0 }, { op: 'read', r: 0 }, { op: 'enqueue' }, { op: 'enqueue' }, { op: 'makeWritable' }],
  };
  const { logs } = await runSide(oldLib, {
    kind: 'programs',
    programs: [{ id: 'plain', program }, { id: 'slow', program: { ...program, delay: { '3.late': 6 } } }],
  });
  for (const [id, late] of [['plain', false], ['slow', true]] as const) {
    const lines = logs.get(id)!;
    const [reads] = turnsOf(lines, /^op5 makeWritable$/);
    const fulfilled = turnsOf(lines, /^r0\.read#[12] fulfilled /);
    assert.equal(reads, 0, lines.join('\n'));
    assert.deepEqual(fulfilled.map((turn) => turn >= 6), [late, late], lines.join('\n'));
    // The two enqueues keep their order: the first read gets the first chunk.
    assert.ok(lines.some((l) => /r0\.read#1 fulfilled \{done:false,value:"c1"\}/.test(l)), lines.join('\n'));
    assert.ok(lines.some((l) => /r0\.read#2 fulfilled \{done:false,value:"c2"\}/.test(l)), lines.join('\n'));
    assert.ok(!lines.some((l) => /crosses/.test(l)), lines.join('\n'));
  }
});

test('seed 3 #12077 with drops is a race the base runs with the source\'s error later', async () => {
  const o = await judgeOne(3, 12077, true);
  assert.equal(o.kind, 'raced', JSON.stringify(o));
  assert.ok(o.kind === 'raced' && Object.keys(o.delay).some((what) => what.endsWith('.late')), JSON.stringify(o));
});

/** `program` is a race the base runs with three things later, and with no one or two (beyond without witnesses of three). */
async function assertRaceOfThreeOnly(id: string, program: Program) {
  const o = await judgeProgram(id, program, 1);
  assert.equal(o.kind, 'raced', JSON.stringify(o));
  assert.ok(o.kind === 'raced' && Object.keys(o.delay).length === 3, JSON.stringify(o));
  const without = await judgeProgram(id, program);
  assert.ok(without.kind === 'beyond' && without.raced && !without.triples, JSON.stringify(without));
}

// Three things later. Seed 2 #10939 with drops, minimized: a byte source
// whose pull() enqueues twice and closes it, piped (preventClose) through
// a synchronous TransformStream into an async iterator that breaks after
// three values. The series' pipe reads the source's last chunk before the
// iterator's cancel reaches it and before the pull's rejection arrives, so
// the source ends closed with cancel() never called; the base calls
// cancel(). The base gets there with the program's enqueues later, the
// loop body slower and the pull's result later, and with no two of those.
const THREE_LATER: Program = {"source": {"type": "bytes", "start": "async", "pull": "thenable-reject", "cancel": "thenable", "pullEnqueue": 2, "pullCloseAfter": 1}, "ops": [{"op": "pipeThrough", "r": 0, "transform": {"transform": "sync", "flush": "thenable", "enqueue": 1}, "preventClose": true}, {"op": "enqueue", "respond": true}, {"op": "iterate", "r": 1, "n": 3, "exit": "break"}, {"op": "enqueue"}, {"op": "wait", "n": 1}, {"op": "wait", "n": 5}, {"op": "enqueue"}]};

test('a byte source closed by a pull the series makes sooner is a race the base runs with three things later', async () => {
  await assertRaceOfThreeOnly('three-later', THREE_LATER);
});

// Seed 40007 #19191, minimized: a source with three chunks, a synchronous
// transform() that enqueues each twice, an iterator that returns after
// four values, and the source's error five turns in. The series' pipe has
// read the second chunk when the error comes, so it writes it (the spec's
// shutdown writes every chunk read) and aborts the TransformStream before
// the iterator's return() cancels it: the iterator gets four values and
// its return() rejects with the error. The base gets there with the error
// 2 turns later, the loop body 1 turn slower and transform()'s result 1
// turn later, and with no two of those.
const ERROR_AFTER_HELD_CHUNK: Program = {
  source: { type: 'default', start: 'sync', startEnqueue: 3 },
  ops: [
    { op: 'pipeThrough', r: 0, transform: { transform: 'sync', enqueue: 2 } },
    { op: 'iterate', r: 1, n: 4, exit: 'return' },
    { op: 'wait', n: 5 },
    { op: 'error' },
  ],
};

test('an error after the series\' pipe has read a chunk sooner is a race the base runs with three things later', async () => {
  await assertRaceOfThreeOnly('held', ERROR_AFTER_HELD_CHUNK);
});

// `<op>.early`: a faster producer. Seed 40014 #6144: two TransformStreams
// in a chain from a source that closes itself on its sixth pull; after a
// macrotask the program cancels the last readable, then enqueues. The
// series' pipes pull sooner, so the source closes the first
// TransformStream (flush()) before the cancel reaches it; the base's
// cancel gets there first. The base gets there with the enqueue before
// the macrotask; no op later can show that.
test('program.delay `<op>.early` runs the source\'s call that many ops sooner, never before its previous call', async () => {
  const program = {
    source: { type: 'default', start: 'sync' },
    ops: [{ op: 'getReader', r: 0 }, { op: 'enqueue' }, { op: 'read', r: 0 }, { op: 'read', r: 0 }, { op: 'macrotask' }, { op: 'close' }],
  };
  const { logs } = await runSide(oldLib, {
    kind: 'programs',
    programs: [{ id: 'plain', program }, { id: 'sooner', program: { ...program, delay: { '5.early': 1 } } },
      { id: 'bounded', program: { ...program, delay: { '5.early': 8 } } }],
  });
  const done = (id: string) => logs.get(id)!.find((l) => /r0\.read#2 fulfilled \{done:true/.test(l)) ?? logs.get(id)!.join('\n');
  // The second read ends with the close: after the macrotask as written,
  // before it when the close runs one op sooner.
  assert.match(done('plain'), /^3:/);
  assert.match(done('sooner'), /^1:/);
  // Eight ops sooner stops after the source's previous call (op 1): the
  // enqueue still succeeds and the first read gets its chunk.
  const bounded = logs.get('bounded')!;
  assert.match(done('bounded'), /^1:/);
  assert.ok(bounded.some((l) => /r0\.read#1 fulfilled \{done:false,value:"c1"\}/.test(l)), bounded.join('\n'));
  assert.ok(!bounded.some((l) => /threw/.test(l)), bounded.join('\n'));
});

test('seed 40014 #6144 is a race the base runs with the source\'s enqueue sooner', async () => {
  const o = await judgeOne(40014, 6144);
  assert.equal(o.kind, 'raced', JSON.stringify(o));
  assert.ok(o.kind === 'raced' && Object.keys(o.delay).some((what) => what.endsWith('.early')), JSON.stringify(o));
});

// A source call moved past an op on the source's own stream reorders what
// the spec orders: error() then read() of the same stream rejects the
// read at any timing. Such a witness logs the crossing, so it fits no run.
test('a source call moved late or early past an op on the source\'s own stream marks the witness', async () => {
  const program = {
    source: { type: 'default', start: 'sync', startEnqueue: 1 },
    ops: [{ op: 'getReader', r: 0 }, { op: 'error' }, { op: 'read', r: 0 }, { op: 'wait', n: 3 }, { op: 'enqueue' }],
  };
  const { logs } = await runSide(oldLib, {
    kind: 'programs',
    programs: [{ id: 'plain', program }, { id: 'late', program: { ...program, delay: { '1.late': 3 } } },
      { id: 'early', program: { ...program, delay: { '4.early': 3 } } }, { id: 'past-wait', program: { ...program, delay: { '4.early': 1 } } }],
  });
  const crosses = (id: string) => logs.get(id)!.some((l) => / \(a moved source call crosses op2 on r0\)$/.test(l));
  assert.equal(crosses('plain'), false);
  assert.equal(crosses('late'), true, logs.get('late')!.join('\n'));
  // The enqueue moved before the read of r0; moved only before the wait, it crosses nothing.
  assert.equal(crosses('early'), true, logs.get('early')!.join('\n'));
  assert.ok(!logs.get('past-wait')!.some((l) => /crosses/.test(l)), logs.get('past-wait')!.join('\n'));
});
