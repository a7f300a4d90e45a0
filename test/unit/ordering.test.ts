// The ordering suite's pure parts: log diffs, deviation rules, the program
// generator and the minimizer.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { compareLogs, firstDifference, renderDiff } from '../../tools/ordering/diff.ts';
import { fuzzExemptions, judgeCorpus, type Declared } from '../../tools/ordering/deviations.ts';
import { FEATURES, generateProgram, programFeatures, programName } from '../../tools/ordering/generate.ts';
import { ddmin } from '../../tools/ordering/minimize.ts';
import { renderProjectionDiff } from '../../tools/ordering/projections.ts';

const logs = (entries: Record<string, string[]>) => new Map(Object.entries(entries));

test('diff: first difference, missing scenarios, rendering with context', () => {
  assert.equal(firstDifference(['a', 'b'], ['a', 'b']), -1);
  assert.equal(firstDifference(['a', 'b'], ['a', 'c']), 1);
  assert.equal(firstDifference(['a'], ['a', 'b']), 1);
  const cmp = compareLogs(logs({ x: ['1:0 a', '1:1 b', '1:2 c'], y: ['1:0 z'], gone: ['1:0 q'] }),
    logs({ x: ['1:0 a', '1:1 b', '1:3 c'], y: ['1:0 z'], added: ['1:0 n'] }));
  assert.deepEqual(cmp.ids, ['x', 'y', 'gone', 'added']);
  assert.deepEqual(cmp.same, ['y']);
  assert.deepEqual(cmp.differing.map((d) => [d.id, d.at]), [['x', 2], ['gone', 0], ['added', 0]]);
  const text = renderDiff(cmp.differing[0], 'base', 'patched', 1);
  assert.match(text, /first difference at line 3/);
  assert.match(text, /^ {4}1:1 b$/m);
  assert.match(text, /^ {2}- 1:2 c$/m);
  assert.match(text, /^ {2}\+ 1:3 c$/m);
  assert.doesNotMatch(text, /1:0 a/);
  assert.match(renderDiff(cmp.differing[1], 'base', 'patched'), /\+ \(scenario missing on this side\)/);
});

test('deviations: declared differences of the declared kind pass, others fail, stale and unknown are reported', () => {
  const old = ['1:0 source.pull(C{desiredSize:1})', '1:1 sink.write("a", WritableStreamDefaultController{aborted:false,desiredSize:0})', '1:2 read#1 fulfilled 1'];
  const later = ['1:0 source.pull(C{desiredSize:1})', '1:2 sink.write("a", WritableStreamDefaultController{aborted:false,desiredSize:0})', '1:3 read#1 fulfilled 1'];
  const swapped = [old[1], old[0], old[2]];
  const lost = [old[0], old[2]];
  const cmp = compareLogs(logs({ a: old, b: old, c: old, d: old, e: old }), logs({ a: later, b: later, c: old, d: swapped, e: lost }));
  const decl = (scenario: string, kinds = ['turns']): Declared => ({ scenario, kinds, reason: 'why', layer: '01-x' });
  const byId = new Map([['a', [decl('a')]], ['c', [decl('c')]], ['d', [decl('d')]], ['e', [decl('e', ['queue-levels'])]],
    ['nope', [decl('nope')]], ['fuzz:read', [decl('fuzz:read')]]]);
  const v = judgeCorpus(cmp, byId);
  assert.deepEqual(v.identical, ['c']);
  assert.deepEqual(v.allowed.map((a) => [a.diff.id, a.checked.found]), [['a', 'turns']]);
  // d swaps two streams' events: interleaving, not the turns it declares; e loses a chunk: beyond every kind.
  assert.deepEqual(v.beyond.map((a) => [a.diff.id, a.checked.found, a.checked.allowed]), [['d', 'interleaving', 'turns'], ['e', 'beyond', 'queue-levels']]);
  assert.match(renderProjectionDiff(v.beyond[0].checked.violations[0], 'base', 'new'), /^order of all events/);
  assert.ok(v.beyond[1].checked.violations.some((x) => x.projection === 'chunks' && x.key === 'sink'));
  assert.deepEqual(v.undeclared.map((d) => [d.diff.id, d.found]), [['b', 'turns']]);
  assert.deepEqual(v.stale.map((d) => d.scenario), ['c']);
  assert.deepEqual(v.unknown.map((d) => d.scenario), ['nope']);
  const fz = fuzzExemptions(new Map([['fuzz:read', [decl('fuzz:read')]], ['fuzz:bogus', [decl('fuzz:bogus')]], ['a', [decl('a')]]]), FEATURES);
  assert.deepEqual([...fz.exempt.keys()], ['read']);
  assert.deepEqual(fz.unknown.map((d) => d.scenario), ['fuzz:bogus']);
});

test('generator: the same seed and index give the same program; others differ', () => {
  assert.deepEqual(generateProgram(42, 7), generateProgram(42, 7));
  assert.notDeepEqual(generateProgram(42, 7), generateProgram(42, 8));
  assert.notDeepEqual(generateProgram(42, 7), generateProgram(43, 7));
  // Over a few hundred programs every op and source type shows up.
  const seen = new Set<string>();
  for (let i = 0; i < 300; i++) for (const f of programFeatures(generateProgram(1, i))) seen.add(f);
  assert.deepEqual(FEATURES.filter((f) => !seen.has(f)), []);
});

test('generator: drops are opt-in; with them some transform() drops some chunks', () => {
  const patterns = (drops: boolean) => {
    const found = new Set<unknown>();
    for (let i = 0; i < 300; i++) {
      for (const op of generateProgram(1, i, { drops }).ops) {
        const enqueue = (op as { transform?: { enqueue?: unknown } }).transform?.enqueue;
        if (enqueue !== undefined) found.add(enqueue);
      }
    }
    return found;
  };
  assert.deepEqual([...patterns(false)].sort(), [0, 1, 2]);
  assert.deepEqual([...patterns(true)].sort(), [0, 1, '10', '110', 2].sort());
});

test('generator: encoding streams are opt-in; with them pipeThrough() goes through each kind', () => {
  const codings = (coding: boolean) => {
    const found = new Set<unknown>();
    for (let i = 0; i < 300; i++) {
      for (const op of generateProgram(1, i, { coding }).ops) if (op.coding !== undefined) found.add(op.coding);
    }
    return found;
  };
  assert.deepEqual([...codings(false)], []);
  assert.deepEqual([...codings(true)].sort(), ['decode', 'decode-fatal', 'encode']);
});

test('generator: an encoding stream mostly gets the chunks it takes, and what it makes is often used next', () => {
  // On the first op, the source's own chunks: bytes from a byte source or u8 chunks, strings by default.
  let decodesOfBytes = 0;
  let decodes = 0;
  let encodesOfText = 0;
  let encodes = 0;
  let usedNext = 0;
  let coded = 0;
  for (let i = 0; i < 2000; i++) {
    const { source, ops } = generateProgram(1, i, { coding: true });
    const bytes = source.type === 'bytes' || source.chunks === 'u8';
    const text = !bytes && (source.chunks === undefined || source.chunks === 'string');
    const first = ops[0];
    if (first.op === 'pipeThrough' && first.r === 0 && first.coding !== undefined && (bytes || text)) {
      if (String(first.coding).startsWith('decode')) {
        decodes++;
        if (bytes) decodesOfBytes++;
      } else {
        encodes++;
        if (text) encodesOfText++;
      }
      if (ops[1]?.r !== undefined) coded++;
      if (ops[1]?.r === 1) usedNext++;
    }
  }
  assert.ok(decodes > 20 && encodes > 20, `${decodes} decoders, ${encodes} encoders`);
  assert.ok(decodesOfBytes / decodes > 0.6, `${decodesOfBytes} of ${decodes} decoders on bytes`);
  assert.ok(encodesOfText / encodes > 0.6, `${encodesOfText} of ${encodes} encoders on text`);
  // An op after it that takes a readable picks readable 1 (the encoding stream's) more often than the uniform pick of two (a half).
  assert.ok(usedNext / coded > 0.65, `${usedNext} of ${coded} next ops on the coded readable`);
});

test('generator: program names carry the optional kinds, as fuzz reports them', () => {
  assert.equal(programName(7, 12), 'seed-7-12');
  assert.equal(programName(7, 12, { drops: true }), 'drops-seed-7-12');
  assert.equal(programName(7, 12, { drops: true, coding: true }), 'drops-coding-seed-7-12');
});

test('ddmin: finds a minimal failing sublist, batching each round', async () => {
  const items = Array.from({ length: 20 }, (_, i) => i);
  let batches = 0;
  const result = await ddmin(items, async (candidates) => {
    batches++;
    return candidates.map((c) => c.includes(3) && c.includes(17));
  });
  assert.deepEqual(result, [3, 17]);
  assert.ok(batches < 20, `${batches} batches`);
  assert.deepEqual(await ddmin(items, async (cs) => cs.map(() => true)), []);
});
