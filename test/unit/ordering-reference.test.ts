// The comparison with the reference implementation (tools/ordering/reference.ts):
// what it normalizes, how it judges a corpus, and, on real runs, that it
// finds the base's fixed bugs and explains a race.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { resolveLib } from '../../tools/lib/injected.ts';
import { PINNED_NODE, ROOT } from '../../tools/lib/paths.ts';
import { listLayers } from '../../tools/lib/layers.ts';
import { baseFixes, fixedBase, referenceFixes, withBaseFixes } from '../../tools/ordering/base-fixes.ts';
import { generateProgram, type Program } from '../../tools/ordering/generate.ts';
import {
  asBase, asBaseWitnesses, asFix, checkFixReasons, codingPrograms, judgeAgainstReference, normalizeLine, pipeManner, raceWitnesses, readReferenceDifferences, referenceDiffs,
  type ReferenceDifference,
} from '../../tools/ordering/reference.ts';
import { REFERENCE, runSide } from '../../tools/ordering/side.ts';
import { readSeries } from '../../tools/series/config.ts';

test('error texts, error codes and read results\' key order are presentation, not behaviour', () => {
  assert.equal(normalizeLine('1:2 w.write#1 rejected TypeError[ERR_INVALID_STATE]("Invalid state: closed")'), '1:2 w.write#1 rejected TypeError(…)');
  assert.equal(normalizeLine('1:2 read#1 fulfilled {value:"a,b",done:false}'), '1:2 read#1 fulfilled {done:false,value:"a,b"}');
  assert.equal(normalizeLine('1:3 pipeTo#1 rejected "Parameter 1 is required in \'pipeTo\'."'), '1:3 pipeTo#1 rejected TypeError(…)');
  // What a chunk is stays: a different value is a difference.
  assert.deepEqual(referenceDiffs(['1:1 read#1 fulfilled {done:false,value:"a"}'], ['1:1 read#1 fulfilled {value:"b",done:false}'])
    .map((d) => `${d.projection} ${d.key}`), ['chunks read', 'settlements read#1']);
  // Turns are not compared.
  assert.deepEqual(referenceDiffs(['1:1 read#1 fulfilled {done:false,value:"a"}'], ['1:4 read#1 fulfilled {value:"a",done:false}']), []);
});

test('a corpus run: declared differences pass in their projections only; stale and unknown declarations fail', () => {
  const settle = (value: string) => [`1:1 read#1 fulfilled {done:false,value:${value}}`];
  const lib = new Map([['same', settle('1')], ['declared', settle('1')], ['beyond', settle('1')], ['stale', settle('1')]]);
  const ref = new Map([['same', settle('1')], ['declared', settle('2')], ['beyond', settle('2')], ['stale', settle('1')]]);
  const declared = new Map<string, ReferenceDifference>([
    ['declared', { projections: ['settlements', 'chunks'], why: 'w' }],
    ['beyond', { projections: ['callbacks'], why: 'w' }],
    ['stale', { projections: ['settlements'], why: 'w' }],
    ['gone', { projections: ['settlements'], why: 'w' }],
  ]);
  const v = judgeAgainstReference(lib, ref, declared);
  assert.deepEqual(v.agree, ['same']);
  assert.deepEqual(v.declared, ['declared']);
  assert.deepEqual([...v.undeclared.keys()], ['beyond']);
  assert.deepEqual(v.undeclared.get('beyond')!.map((d) => d.projection), ['chunks', 'settlements']);
  assert.deepEqual(v.stale, ['stale']);
  assert.deepEqual(v.unknown, ['gone']);
});

const piping: Program = { source: { type: 'default' }, ops: [{ op: 'pipeTo', r: 0 }] };
const reading: Program = { source: { type: 'default' }, ops: [{ op: 'read', r: 0 }] };
const pull = (t: string, size: number) => `${t} source.pull(ReadableStreamDefaultController{desiredSize:${size}})`;
const write = (t: string, chunk: string, size: number) => `${t} w0.write(${chunk}, WritableStreamDefaultController{aborted:false,desiredSize:${size}})`;

test('a pipe\'s manner: a program that pipes may differ from the reference in desiredSize and in its last pulls only', () => {
  const ref = [pull('1:1', 1), write('1:2', '"c1"', 3), pull('1:3', 1), pull('1:4', 1), '2:0 final r0 readable'];
  // One pull fewer at the end (a pipe that read less far ahead) and another desiredSize at a write.
  const lib = [pull('1:1', 1), write('1:2', '"c1"', 1), pull('1:3', 1), '2:0 final r0 readable'];
  assert.notDeepEqual(referenceDiffs(lib, ref), []);
  assert.equal(pipeManner(piping, lib, ref), true);
  // Without a pipe, neither is latitude the spec gives.
  assert.equal(pipeManner(reading, lib, ref), false);
  // A chunk the sink did not get, or got in another order, is beyond a pipe's manner.
  const lost = [pull('1:1', 1), pull('1:3', 1), '2:0 final r0 readable'];
  assert.equal(pipeManner(piping, lost, ref), false);
  const other = [pull('1:1', 1), write('1:2', '"c2"', 3), pull('1:3', 1), '2:0 final r0 readable'];
  assert.equal(pipeManner(piping, other, ref), false);
  // So is another final state.
  assert.equal(pipeManner(piping, [...lib.slice(0, 3), '2:0 final r0 closed'], ref), false);
  // A sink aborted on both sides may have written fewer of its last chunks first (how many the pipe had read), not others.
  const aborted = (...writes: string[]) => [...writes, '1:5 w0.abort(Error("signal abort"))', '2:0 final w0 errored Error("signal abort")'];
  const both = aborted(write('1:2', '"c1"', 3), write('1:3', '"c2"', 2));
  assert.equal(pipeManner(piping, aborted(write('1:2', '"c1"', 3)), both), true);
  assert.equal(pipeManner(piping, aborted(write('1:2', '"c2"', 3)), both), false);
});

test('as the base: a difference from the reference in which the lib does what the base does is the base\'s', () => {
  const ref = ['1:1 pipeTo#1 rejected Error("sink")', '2:0 final w0 errored Error("sink")'];
  const base = ['1:1 pipeTo#1 rejected Error("source")', '2:0 final w0 errored Error("sink")'];
  assert.equal(asBase(reading, base, base, ref), true);
  // The same difference with another error text is still the base's: texts are presentation.
  assert.equal(asBase(reading, ['1:1 pipeTo#1 rejected TypeError[ERR_X]("source")', base[1]], ['1:1 pipeTo#1 rejected TypeError("other")', base[1]], ref), true);
  // The lib differing from the reference where the base does not, or otherwise than the base, is the lib's own.
  assert.equal(asBase(reading, base, ref, ref), false);
  assert.equal(asBase(reading, ['1:1 pipeTo#1 fulfilled undefined', base[1]], base, ref), false);
  // A lib that agrees with the reference passes whatever the base does.
  assert.equal(asBase(reading, ref, base, ref), true);
});

test('as the base, entry by entry: one key\'s list holds several ops\' settlements, and the base may share the lib\'s difference in one only', () => {
  const got = '1:1 getReader = ReadableStreamDefaultReader';
  const threw = '1:1 getReader threw TypeError[ERR_INVALID_STATE]("locked")';
  const ref = [got, got, got];
  const lib = [got, got, threw];
  // The base also threw at the third getReader(), and at the second, where lib and reference agree.
  assert.equal(asBase(reading, lib, [got, threw, threw], ref), true);
  // Where lib and reference differ, the base must have the lib's entry.
  assert.equal(asBase(reading, lib, [got, threw, got], ref), false);
  assert.equal(asBase(reading, [...lib, got], [got, got, threw], ref), false, 'an entry the base does not have');
});

test('as the base, a consumer\'s chunks: the base must have received the lib\'s whole list, not only its entries where lib and reference differ', () => {
  const w = (t: string, chunk: string) => write(t, `"${chunk}"`, 0);
  const ref = [w('1:1', 'c1'), w('1:2', 'c2'), w('1:3', 'c3')];
  const lib = [w('1:1', 'c1'), w('1:2', 'c2')];
  assert.equal(asBase(reading, lib, lib, ref), true, 'the base lost c3 too');
  // A run whose sink received nothing lacks c3 as the lib does, entry by entry (seed 1 #196 of a lib that drops every fifth chunk of a stream).
  assert.equal(asBase(reading, lib, [], ref), false);
  assert.equal(asBase(reading, lib, [w('1:1', 'c1')], ref), false);
  assert.equal(asBase(reading, lib, [...lib, w('1:4', 'c4')], ref), false);
});

test('as the base, in a program that pipes: the desiredSize a callback saw does not count', () => {
  // The base pulls once more than the reference; the lib does too, at another desiredSize.
  const ref = [pull('1:1', 2)];
  const base = [pull('1:1', 2), pull('1:2', 1)];
  const lib = [pull('1:1', 2), pull('1:2', 0)];
  assert.equal(asBase(piping, lib, base, ref), true);
  assert.equal(asBase(reading, lib, base, ref), false);
  // A write the base does not make is still the lib's own.
  assert.equal(asBase(piping, [...lib, write('1:3', '"c1"', 0)], base, ref), false);
});

test('as the base, in a program that pipes: the lib may have run its feeding callbacks further than the base (read-ahead), on top of the base\'s own difference', () => {
  // Seed 18 #2144, shortened: the base and the lib cancel the source where
  // the reference does not, and the lib's pipe has pulled and transformed
  // one chunk more before that.
  const transform = (t: string, chunk: string) => `${t} ts1.transform(${chunk}, TransformStreamDefaultController{desiredSize:4})`;
  const ref = [pull('1:1', 0), transform('1:4', '"c1"'), pull('1:8', 0), '1:12 source.pull closed r0', '4:0 final r0 closed'];
  const base = [pull('1:1', 0), transform('1:4', '"c1"'), '1:9 source.cancel(undefined)', '4:0 final r0 closed'];
  const lib = [pull('1:1', 0), transform('1:4', '"c1"'), pull('1:5', 0), transform('1:6', '"c2"'), '1:9 source.cancel(undefined)', '4:0 final r0 closed'];
  assert.equal(asBase(piping, lib, base, ref), true);
  // Without a pipe there is no read-ahead.
  assert.equal(asBase(reading, lib, base, ref), false);
  // Only the last feeding callbacks go: another chunk in the middle stays the lib's own.
  const swapped = [pull('1:1', 0), transform('1:4', '"c2"'), pull('1:5', 0), transform('1:6', '"c1"'), '1:9 source.cancel(undefined)', '4:0 final r0 closed'];
  assert.equal(asBase(piping, swapped, base, ref), false);
  // And what is not a feeding callback is compared as before: a cancel the base does not make.
  assert.equal(asBase(piping, lib, [...base.slice(0, 2), '4:0 final r0 closed'], ref), false);
});

test('as one fix does: the lib does what the base with the fix does, where the base alone does not', () => {
  const ref = ['1:1 pipeTo#1 fulfilled undefined', '2:0 final r0 closed'];
  const fixed = ['1:1 pipeTo#1 rejected Error("dest")', '2:0 final r0 readable'];
  assert.equal(asFix(reading, fixed, ref, fixed, ref), true);
  // A difference the fixed base does not make is the lib's own.
  assert.equal(asFix(reading, [fixed[0], '2:0 final r0 errored Error("x")'], ref, fixed, ref), false);
  // The base's own difference with the fix's on top: the whole difference is the fixed base's.
  const base = ['1:1 pipeTo#1 fulfilled undefined', '2:0 final r0 readable'];
  assert.equal(asFix(reading, fixed, base, fixed, ref), true);
  // Where the base without the fix does the same, it is asBase's, not the fix's.
  assert.equal(asFix(reading, fixed, fixed, fixed, ref), false);
  // A lib that agrees with the reference owes nothing to a fix.
  assert.equal(asFix(reading, ref, ref, fixed, ref), false);
});

test('a fix that declares a reference difference names a defined reason, in every series', () => {
  for (const [name, layers, file] of [['main', listLayers(), undefined], ...['v24', 'fixes'].map((n) => {
    const s = readSeries(n);
    return [n, s.layers, join(s.root, 'reference-differences.json')] as const;
  })] as const) {
    const fixes = referenceFixes(baseFixes(layers));
    assert.ok(fixes.length > 0, `${name}: no fix declares a reference reason`);
    assert.doesNotThrow(() => checkFixReasons(fixes, file), name);
  }
  assert.throws(() => checkFixReasons([{ layer: '01-x', reason: 'nowhere' }]), /01-x: base-fix\.json names reference reason 'nowhere', which .*reference-differences\.json does not define/);
});

test('saved programs with encoding streams are found by id, so the reference suite lists them instead of judging them', () => {
  const dir = mkdtempSync(join(tmpdir(), 'coding-corpus-'));
  try {
    mkdirSync(join(dir, 'fuzz-found'));
    const save = (name: string, ops: object[]) => writeFileSync(join(dir, 'fuzz-found', name), JSON.stringify({ source: { type: 'default' }, ops }));
    save('decoder.json', [{ op: 'pipeThrough', r: 0, coding: 'decode' }]);
    save('plain.json', [{ op: 'pipeThrough', r: 0, transform: {} }]);
    writeFileSync(join(dir, 'named.js'), 'export default {};\n');
    assert.deepEqual([...codingPrograms(dir)], ['fuzz-found/decoder']);
    // The real corpus has none today: every scenario is judged.
    assert.deepEqual([...codingPrograms()], []);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('the declarations file: each entry names projections and a defined reason', () => {
  const dir = mkdtempSync(join(tmpdir(), 'reference-differences-'));
  try {
    const file = join(dir, 'd.json');
    const write = (scenarios: unknown) => writeFileSync(file, JSON.stringify({ reasons: { r: 'because' }, scenarios }));
    write({ a: { reason: 'r', projections: ['finals'] } });
    assert.deepEqual(readReferenceDifferences(file).get('a'), { projections: ['finals'], why: 'because' });
    write({ a: { reason: 'r', projections: ['events'] } });
    assert.throws(() => readReferenceDifferences(file), /'a' must name one or more of callbacks, chunks, settlements, finals.*not 'events'/);
    write({ a: { reason: 'r', projections: [] } });
    assert.throws(() => readReferenceDifferences(file), /'a' must name one or more/);
    write({ a: { reason: 'other', projections: ['finals'] } });
    assert.throws(() => readReferenceDifferences(file), /'a' names reason 'other', which "reasons" does not define/);
    // A series' own file may name the shared reasons without repeating them.
    write({ a: { reason: 'pipe-manner', projections: ['chunks'] } });
    assert.match(readReferenceDifferences(file).get('a')!.why, /the exact manner in which this happens/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  // The repository's own file reads.
  assert.ok(readReferenceDifferences().size > 0);
});

// Scenarios of the base's bugs the series fixes (lib-overlay-fixes/): the
// reference settles them as the series does, not as the released base.
const FIXED_ON_THE_SERIES = [
  'writable/erroring-close-then-ready',
  'transform/flush-terminates-then-ready',
  'from/async-iterator-thenable-values',
  'writable/write-during-close-in-flight',
  'bytes/released-pull-into-queue-serves-reads',
  'pipe/signal-abort-while-write-fails',
  'pipe/source-errors-while-write-fails',
  'pipe/source-closes-prevent-close-while-write-fails',
];

test('the reference finds the bugs of the base the series fixes, and agrees with the series there', async () => {
  const batch = { kind: 'corpus' as const };
  const [base, patched, ref] = await Promise.all([runSide(resolveLib('base'), batch), runSide(resolveLib('patched'), batch), runSide(REFERENCE, batch)]);
  for (const id of FIXED_ON_THE_SERIES) {
    assert.ok(ref.logs.has(id), `${id} is no scenario of the corpus`);
    const onBase = referenceDiffs(base.logs.get(id)!, ref.logs.get(id)!);
    assert.ok(onBase.some((d) => d.projection === 'settlements'), `${id}: the base settles as the reference does`);
    assert.deepEqual(referenceDiffs(patched.logs.get(id)!, ref.logs.get(id)!), [], `${id}: the series differs from the reference`);
  }
});

// Seed 1, program 1721 of the fuzz generator: an asynchronous pull() whose
// promise Node reacts to a turn sooner than WebIDL's steps, so an error op
// finds one more chunk read on the base than on the reference.
const PULL_RACE = {
  source: { type: 'default', hwm: 2, pull: 'async', pullEnqueue: 1, pullCloseAfter: 4, chunks: 'u8' },
  ops: [
    { op: 'getReader', r: 0 }, { op: 'read', r: 0 }, { op: 'wait', n: 2 }, { op: 'read', r: 0 },
    { op: 'error' }, { op: 'releaseLock', r: 0 }, { op: 'getReader', r: 0 },
  ],
};

test('a race explains a program that differs only in when a pull() settles', async () => {
  const lib = resolveLib('patched');
  const entries = [{ id: 'pull-race', program: PULL_RACE as never }];
  const batch = { kind: 'programs' as const, programs: entries };
  const [mine, ref] = await Promise.all([runSide(lib, batch), runSide(REFERENCE, batch)]);
  const diffs = referenceDiffs(mine.logs.get('pull-race')!, ref.logs.get('pull-race')!);
  assert.ok(diffs.some((d) => d.projection === 'settlements'), 'the program no longer differs from the reference');
  const witnesses = await raceWitnesses(lib, entries, mine.logs, ref.logs);
  assert.deepEqual(witnesses.get('pull-race'), { side: 'lib', delay: { 'source.pull': 1 } });
});

// Seed 1, program 3398 of the fuzz generator: a tee of a canceled stream.
// The base closes the branches a process.nextTick() late (fixes series 9),
// so a reader released in between sees its closed promise reject, and no
// run with one thing later brings the base to the reference's settlements:
// the random programs with tees would fail on the base.
const TEE_OF_CANCELED = {
  source: {
    type: 'default', hwm: 2, start: 'sync', pull: 'throw', cancel: 'async', startEnqueue: 1, pullEnqueue: 1,
    pullCloseAfter: 1, chunks: 'number',
  },
  ops: [
    { op: 'cancel', r: 0, via: 'stream' }, { op: 'cancel', r: 0, via: 'reader' }, { op: 'tee', r: 0 },
    { op: 'enqueue', respond: true }, { op: 'wait', n: 1 }, { op: 'wait', n: 2 }, { op: 'getReader', r: 2 },
    { op: 'read', r: 0 }, { op: 'enqueue' }, { op: 'cancel', r: 1, via: 'reader' }, { op: 'releaseLock', r: 2 },
    { op: 'wait', n: 8 }, { op: 'cancel', r: 1, via: 'stream' }, { op: 'wait', n: 1 },
  ],
};

test('random programs with tees find the base\'s late tee close, which the series fixes', async () => {
  const entries = [{ id: 'tee-of-canceled', program: TEE_OF_CANCELED as never }];
  const batch = { kind: 'programs' as const, programs: entries };
  const base = resolveLib('base');
  const [onBase, patched, ref] = await Promise.all([runSide(base, batch), runSide(resolveLib('patched'), batch), runSide(REFERENCE, batch)]);
  const diffs = referenceDiffs(onBase.logs.get('tee-of-canceled')!, ref.logs.get('tee-of-canceled')!);
  assert.ok(diffs.some((d) => d.projection === 'settlements' && d.key === 'r2.closed#1'), 'the base settles r2.closed as the reference does');
  assert.equal((await raceWitnesses(base, entries, onBase.logs, ref.logs)).size, 0, 'a race explains the base\'s difference');
  assert.deepEqual(referenceDiffs(patched.logs.get('tee-of-canceled')!, ref.logs.get('tee-of-canceled')!), []);
});

// Seed 8, program 497 of the fuzz generator: the base+fixes lib differs
// from the reference (a reader gets a chunk the reference errors first),
// and the series races the program's own error op otherwise than the base
// (one more chunk read): the series' difference is the base's, on the
// series' timing.
test('as the base, with one thing later: the base\'s own difference on another timing', async () => {
  const program = generateProgram(8, 497);
  const entries = [{ id: 'base-race', program }];
  const batch = { kind: 'programs' as const, programs: entries };
  const base = fixedBase();
  const [onBase, patched, ref] = await Promise.all([runSide(base, batch), runSide(resolveLib('patched'), batch), runSide(REFERENCE, batch)]);
  const [b, p, r] = [onBase, patched, ref].map((side) => side.logs.get('base-race')!);
  assert.notDeepEqual(referenceDiffs(b, r), [], 'the base agrees with the reference');
  assert.equal(pipeManner(program, p, r), false);
  assert.equal(asBase(program, p, b, r), false, 'the series does what the base does on time');
  assert.deepEqual([...await asBaseWitnesses(base, entries, patched.logs, onBase.logs, ref.logs)], [['base-race', 'base']]);
  // A lib whose reader got another chunk than any run of the base gives no witness.
  const altered = new Map([['base-race', p.map((l) => l.replaceAll('{n:3}', '{n:9}'))]]);
  assert.notDeepEqual(altered.get('base-race'), p);
  assert.deepEqual([...await asBaseWitnesses(base, entries, altered, onBase.logs, ref.logs)], []);
});

// seed 5 #2762: a pipe into a destination a writer aborted, its source's
// chunks queued behind a requested close. The reference's pipe reads them
// while the destination errors and finishes on the close; the base with
// the fix of 14 (as the series) reads nothing, and rejects.
test('as one fix does: the series\' difference from the reference on seed 5 #2762 is the fix of 14\'s, not the fix of 26\'s', async () => {
  const program = generateProgram(5, 2762);
  const batch = { kind: 'programs' as const, programs: [{ id: 'fix', program }] };
  const base = resolveLib('base');
  const fixes = referenceFixes(baseFixes(listLayers()));
  const fixedBy = (layer: string) => withBaseFixes(base, fixes.find((f) => f.layer === layer)!.fixes, `base+${layer}`);
  const sides = await Promise.all([base, resolveLib('patched'), fixedBy('14-pipe-erroring-destination'), fixedBy('26-pipe-shutdown-after-failed-write'), REFERENCE]
    .map((lib) => runSide(lib, batch)));
  const [b, p, f14, f26, r] = sides.map((side) => side.logs.get('fix')!);
  assert.deepEqual(referenceDiffs(b, r), [], 'the base differs from the reference');
  assert.notDeepEqual(referenceDiffs(p, r), [], 'the series agrees with the reference');
  assert.equal(asBase(program, p, b, r), false);
  assert.equal(asFix(program, p, b, f14, r), true);
  assert.equal(asFix(program, p, b, f26, r), false);
});

// drops-seed-11 #1170: the series' tee closes its branches as the spec
// does (fix of 25), so a pipe from one finishes sooner and a getReader()
// of that branch succeeds that the reference, on its timing, refuses; a
// getReader() of the other branch throws on Node, whose async iterator
// locks it at once, where the reference's locks it later: the base's own.
test('as the base on another timing of the reference: a race and the base\'s own difference in one program', async () => {
  const program = generateProgram(11, 1170, { drops: true });
  const entries = [{ id: 'both', program }];
  const batch = { kind: 'programs' as const, programs: entries };
  const [onBase, patched, ref] = await Promise.all([runSide(resolveLib('base'), batch), runSide(resolveLib('patched'), batch), runSide(REFERENCE, batch)]);
  const [b, p, r] = [onBase, patched, ref].map((side) => side.logs.get('both')!);
  assert.equal(asBase(program, p, b, r), false, 'the series does what the base does on the reference\'s own timing');
  // No run of the base with one thing later explains it; one of the reference does.
  assert.deepEqual([...await asBaseWitnesses(resolveLib('base'), entries, patched.logs, onBase.logs, ref.logs)], [['both', 'reference']]);
  // Without the base's share (a base that agrees with the reference), no such run explains it.
  assert.deepEqual([...await asBaseWitnesses(REFERENCE, entries, patched.logs, ref.logs, ref.logs)], []);
});

test('reference.ts --members names every program of each group, not three', () => {
  // The base itself: no base excuses its differences, and seed 1 has a group of four (a pipe's rejection).
  const r = spawnSync(PINNED_NODE, [join(ROOT, 'tools', 'reference.ts'), '--lib', 'base', '--seed', '1', '--count', '4000', '--members'],
    { encoding: 'utf8', timeout: 300_000, env: { ...process.env, TEST_SUMMARY_DIR: '' } });
  const groups = [...r.stdout.matchAll(/^(\d+)× .*\n {2}members: (.*)$/gm)].map((m) => ({ size: Number(m[1]), named: m[2].split(', ').length }));
  assert.ok(groups.some((g) => g.size > 3), `seed 1 no longer has a group of more than three programs on the base; pick another seed\n${r.stdout}`);
  for (const g of groups) assert.equal(g.named, g.size, r.stdout);
});
