// The projections of an event log and the kinds of difference, on
// hand-written logs in the harness's line format: each projection is
// populated, and each catches the change it exists for (a negative case per
// projection), while the cross-stream order it ignores passes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  compareProjections, parseEvent, project, renderProjectionDiff, renderProjectionDiffs, type ProjectionDiff,
} from '../../tools/ordering/projections.ts';
import { classify, maskQueueLevels, trimReadAhead, violations, widestLevel } from '../../tools/ordering/kinds.ts';

// A pipe source → ts1 → sink, a reader on another stream, an iterator, final states.
const LOG = [
  '1:0 source.start(ReadableStreamDefaultController{desiredSize:1})',
  '1:0 new ReadableStream = ReadableStream{locked:false}',
  '1:1 source.pull(ReadableStreamDefaultController{desiredSize:1})',
  '1:1 size("c1") -> 1',
  '1:2 ts1.transform("c1", TransformStreamDefaultController{desiredSize:1})',
  '1:2 ts1.transform thenable.then called',
  '1:3 source.pull(ReadableStreamDefaultController{desiredSize:1})',
  '1:4 sink.write("c1", WritableStreamDefaultController{aborted:false,desiredSize:0})',
  '1:4 r2.read#1 fulfilled {done:false,value:"x1"}',
  '1:5 ts1.transform("c2", TransformStreamDefaultController{desiredSize:1})',
  '1:5 r2.read#2 fulfilled {done:false,value:"x2"}',
  '1:6 sink.write("c2", WritableStreamDefaultController{aborted:false,desiredSize:0})',
  '1:6 iter#1 value 7',
  '1:7 sink.close()',
  '1:8 pipeTo#1 fulfilled undefined',
  '1:8 enqueue threw TypeError[ERR_INVALID_STATE]("Invalid state: Controller is already closed")',
  '1:9 body done',
  '4:0 final r0 closed',
  '4:0 final ts1.readable closed',
  '4:0 final w0 closed',
];

/** LOG with line `i` replaced (or removed, for undefined). */
function edit(changes: Record<number, string | undefined>): string[] {
  return LOG.flatMap((line, i) => (i in changes ? (changes[i] === undefined ? [] : [changes[i]!]) : [line]));
}

function swap(lines: string[], i: number, j: number): string[] {
  const copy = [...lines];
  [copy[i], copy[j]] = [copy[j], copy[i]];
  return copy;
}

const names = (diffs: ProjectionDiff[]) => diffs.map((d) => `${d.projection} ${d.key}`);

test('parseEvent: callbacks, callback results, settlements, final states, the rest', () => {
  assert.deepEqual(parseEvent('ts1.transform("c1", TransformStreamDefaultController{desiredSize:1})'),
    { kind: 'call', owner: 'ts1', callback: 'transform', args: '"c1", TransformStreamDefaultController{desiredSize:1}' });
  assert.deepEqual(parseEvent('t1("c(1)")'), { kind: 'call', owner: 't1', callback: 't1', args: '"c(1)"' });
  assert.deepEqual(parseEvent('source.pull thenable.then called'), { kind: 'result', owner: 'source', callback: 'pull', what: 'thenable.then called' });
  assert.deepEqual(parseEvent('r1.read#2 fulfilled {done:false,value:Uint8Array(0+1/1)[3]}'),
    { kind: 'settle', label: 'r1.read#2', how: 'fulfilled', value: '{done:false,value:Uint8Array(0+1/1)[3]}' });
  assert.deepEqual(parseEvent('cancel readable side rejected Error("x")'), { kind: 'settle', label: 'cancel readable side', how: 'rejected', value: 'Error("x")' });
  assert.deepEqual(parseEvent('final ts1.writable errored Error("boom") locked'), { kind: 'final', stream: 'ts1.writable', state: 'errored Error("boom") locked' });
  for (const other of ['(no reader)', 'op3 read r0', 'size("a") -> 2', 'body done', 'tee -> r1, r2', 'unhandled rejection Error("x")']) {
    assert.deepEqual(parseEvent(other), { kind: 'other' }, other);
  }
});

test('project: every view is populated from a log', () => {
  const p = project(LOG);
  assert.deepEqual(p.callbacks.get('source'), [
    'start(ReadableStreamDefaultController{desiredSize:1})',
    'pull(ReadableStreamDefaultController{desiredSize:1})',
    'pull(ReadableStreamDefaultController{desiredSize:1})',
  ]);
  assert.deepEqual(p.callbacks.get('ts1'), [
    'transform("c1", TransformStreamDefaultController{desiredSize:1})',
    'transform thenable.then called',
    'transform("c2", TransformStreamDefaultController{desiredSize:1})',
  ]);
  assert.equal(p.callbacks.get('sink')?.length, 3);
  assert.deepEqual(p.chunks.get('sink'), ['"c1"', '"c2"']);
  assert.deepEqual(p.chunks.get('ts1'), ['"c1"', '"c2"']);
  assert.deepEqual(p.chunks.get('r2.read'), ['"x1"', '"x2"']);
  assert.deepEqual(p.chunks.get('iter#1'), ['7']);
  assert.deepEqual(p.settlements.get('pipeTo#1'), ['fulfilled undefined']);
  assert.deepEqual(p.settlements.get('enqueue'), ['threw TypeError[ERR_INVALID_STATE]("Invalid state: Controller is already closed")']);
  assert.deepEqual(p.settlements.get('new ReadableStream'), ['= ReadableStream{locked:false}']);
  assert.deepEqual([...p.finals], [['r0', ['closed']], ['ts1.readable', ['closed']], ['w0', ['closed']]]);
  assert.equal(p.events.get('body done'), 1);
  assert.equal([...p.events.values()].reduce((a, b) => a + b), LOG.length);
  assert.deepEqual(compareProjections(p, project(LOG)), []);
});

test('projections: the order across streams is free, the order within one is not', () => {
  // source's pull (line 6) and ts1's second transform (line 9) swapped: other streams.
  const across = swap(LOG, 6, 9);
  assert.deepEqual(compareProjections(project(LOG), project(across)), []);
  assert.equal(classify(LOG, across), 'interleaving');
  // Positions shifted, same order: turns.
  const shifted = LOG.map((line) => line.replace(/^1:(\d+)/, (_, t) => `1:${Number(t) + 1}`));
  assert.equal(classify(LOG, shifted), 'turns');
  assert.equal(classify(LOG, LOG), 'identical');
});

test('projections: each view catches its own kind of change', () => {
  const cases: [string, string[], string][] = [
    // A stream's own callbacks in another order (the sink closes before its last write).
    ['callbacks', swap(LOG, 11, 13), 'callbacks sink'],
    // A callback saw a different desiredSize.
    ['callbacks', edit({ 2: '1:1 source.pull(ReadableStreamDefaultController{desiredSize:0})' }), 'callbacks source'],
    // A chunk lost on the way to the sink.
    ['chunks', edit({ 11: undefined }), 'chunks sink'],
    // Two reads deliver their values swapped.
    ['chunks', edit({ 8: '1:4 r2.read#1 fulfilled {done:false,value:"x2"}', 10: '1:5 r2.read#2 fulfilled {done:false,value:"x1"}' }), 'chunks r2.read'],
    // The pipe's promise rejects instead.
    ['settlements', edit({ 14: '1:8 pipeTo#1 rejected Error("boom")' }), 'settlements pipeTo#1'],
    // A stream ends errored instead of closed.
    ['finals', edit({ 18: '4:0 final ts1.readable errored Error("boom")' }), 'finals ts1.readable'],
    // A line in no other view changes.
    ['events', edit({ 16: '1:9 body rejected Error("x")' }), 'events body done'],
  ];
  for (const [view, changed, expected] of cases) {
    const diffs = compareProjections(project(LOG), project(changed));
    assert.ok(names(diffs).includes(expected), `${view}: ${names(diffs).join('; ')}`);
    assert.equal(classify(LOG, changed), view === 'callbacks' && expected === 'callbacks source' ? 'queue-levels' : 'beyond', view);
  }
});

test("projections: reads of a result's `then` in a row count as one, but not none", () => {
  // ts1's first transform() returns an object whose `then` getter the lib reads.
  const reads = (n: number, at = 6) => [...LOG.slice(0, at), ...Array(n).fill('1:2 ts1.transform result.then read'), ...LOG.slice(at)];
  assert.deepEqual(project(reads(3)).callbacks.get('ts1'),
    ['transform("c1", TransformStreamDefaultController{desiredSize:1})', 'transform thenable.then called',
     'transform result.then read', 'transform("c2", TransformStreamDefaultController{desiredSize:1})']);
  assert.deepEqual(compareProjections(project(reads(2)), project(reads(3))), []);
  assert.deepEqual(names(compareProjections(project(reads(0)), project(reads(1)))), ['callbacks ts1', 'events ts1.transform result.then read']);
  // Reads after another callback of the stream are reads of another result.
  const apart = [...reads(1), '1:9 ts1.transform result.then read'];
  assert.equal(project(apart).callbacks.get('ts1')!.filter((e) => e === 'transform result.then read').length, 2);
});

test('kinds: turns < interleaving < queue-levels, each checked on what it allows', () => {
  const across = swap(LOG, 6, 9);
  assert.deepEqual(violations('interleaving', LOG, across), []);
  const turns = violations('turns', LOG, across);
  assert.deepEqual(names(turns), ['order all events']);
  assert.match(renderProjectionDiff(turns[0], 'base', 'patched'), /^order of all events \(20 entries\), first difference at #7: - source\.pull/);
  // A different fill level: desiredSize, size() calls, 'already closed' wording.
  const fuller = edit({
    2: '1:1 source.pull(ReadableStreamDefaultController{desiredSize:0})',
    3: undefined,
    15: '1:8 enqueue threw TypeError[ERR_INVALID_STATE]("Invalid state: ReadableStream is already closed")',
  });
  assert.equal(classify(LOG, fuller), 'queue-levels');
  assert.deepEqual(violations('queue-levels', LOG, fuller), []);
  assert.deepEqual(names(violations('interleaving', LOG, fuller)), [
    'callbacks source', 'settlements enqueue',
    'events source.pull(ReadableStreamDefaultController{desiredSize:1})', 'events size("c1") -> 1',
    'events enqueue threw TypeError[ERR_INVALID_STATE]("Invalid state: Controller is already closed")',
    'events source.pull(ReadableStreamDefaultController{desiredSize:0})',
    'events enqueue threw TypeError[ERR_INVALID_STATE]("Invalid state: ReadableStream is already closed")',
  ]);
  assert.deepEqual(maskQueueLevels(['1:0 x(C{desiredSize:-1.5})', '1:1 size(1) -> 2', '1:2 w(D{aborted:false,desiredSize:Infinity})']),
    ['1:0 x(C{desiredSize:#})', '1:2 w(D{aborted:false,desiredSize:#})']);
  // A lost chunk fits no level, queue-levels included.
  assert.equal(classify(LOG, edit({ 11: undefined })), 'beyond');
  assert.equal(widestLevel(['races', 'turns', 'queue-levels']), 'queue-levels');
  assert.equal(widestLevel(['races']), undefined);
});

test('kinds: read-ahead allows fewer feeding callbacks at the end of a stream, nothing else', () => {
  // A stalled pipeline: the base pulled and transformed one chunk more.
  const stalled = [
    '1:1 source.pull(ReadableStreamDefaultController{desiredSize:1})',
    '1:2 ts1.transform("c1", TransformStreamDefaultController{desiredSize:0})',
    '1:3 sink.write("c1", WritableStreamDefaultController{aborted:false,desiredSize:0})',
    '1:3 source.pull(ReadableStreamDefaultController{desiredSize:1})',
    '1:4 ts1.transform("c2", TransformStreamDefaultController{desiredSize:0})',
    '1:4 ts1.transform thenable.then called',
    '1:5 iterator.next',
    '1:6 source.pull(ReadableStreamDefaultController{desiredSize:1})',
    '1:7 iterator.next',
    '4:0 final w0 writable locked',
  ];
  const fewer = [stalled[0], stalled[1], stalled[2], stalled[3], stalled[6], stalled[9]];
  assert.equal(classify(stalled, fewer), 'read-ahead');
  assert.deepEqual(violations('read-ahead', stalled, fewer), []);
  assert.deepEqual(trimReadAhead(stalled, fewer), [fewer, fewer]);
  assert.deepEqual(names(violations('queue-levels', stalled, fewer)), [
    'callbacks source', 'callbacks ts1', 'chunks ts1',
    'events source.pull(ReadableStreamDefaultController{desiredSize:#})',
    'events ts1.transform("c2", TransformStreamDefaultController{desiredSize:#})',
    'events ts1.transform thenable.then called', 'events iterator.next',
  ]);
  // Torn down: the base transformed one chunk more before the cancel.
  const torn = [
    '1:1 ts1.transform("c1", TransformStreamDefaultController{desiredSize:0})',
    '1:2 ts1.transform("c2", TransformStreamDefaultController{desiredSize:0})',
    '1:3 ts1.cancel("enough")',
  ];
  assert.equal(classify(torn, [torn[0], torn[2]]), 'read-ahead');
  // A cancel() is no feeding callback: it may not go missing.
  assert.equal(classify(torn, torn.slice(0, 2)), 'beyond');
  // A transform() on another chunk than the base's is no read-ahead either.
  assert.equal(classify(torn, [torn[0], torn[1].replace('"c2"', '"c3"'), torn[2]]), 'beyond');
  // Nor the other way round: the new lib's pipes may read further ahead.
  assert.equal(classify(fewer, stalled), 'read-ahead');
  // Nor skip one that is not last: a missing first transform is no read-ahead.
  assert.equal(classify(stalled, stalled.filter((_, i) => i !== 1)), 'beyond');
  // Nor drop a sink's write: writes do not feed a pipeline.
  assert.equal(classify(stalled, stalled.filter((_, i) => i !== 2)), 'beyond');
  // A lost chunk stays beyond every level.
  assert.equal(classify(LOG, edit({ 11: undefined })), 'beyond');
  // A generator source's steps (ReadableStream.from) feed a pipeline too.
  const stepped = ['1:1 async generator next', '1:4 sink.write("c1", WritableStreamDefaultController{aborted:false,desiredSize:0})',
    '1:4 async generator next', '1:6 sink.abort(Error("signal abort"))', '1:7 async generator next'];
  assert.equal(classify(stepped.slice(0, 4), stepped), 'read-ahead');
  assert.equal(classify(stepped.slice(0, 4).map((l) => l.replace('async ', '')), stepped.map((l) => l.replace('async ', ''))), 'read-ahead');
  // The steps go, not what they fed: a missing write stays beyond.
  assert.ok(violations('read-ahead', stepped.filter((_, i) => i !== 1 && i !== 4), stepped).length > 0);
});

test("kinds: read-ahead counts a result's `then` read again as one read", () => {
  // The new lib transformed one chunk more before the cancel; the old one read each result's `then` more often.
  const transform = (at: number, chunk: string, reads: number) => [
    `1:${at} ts1.transform("${chunk}", TransformStreamDefaultController{desiredSize:0})`,
    ...Array.from({ length: reads }, (_, i) => `1:${at + i} ts1.transform result.then read`),
  ];
  const oldLog = [...transform(1, 'c1', 3), ...transform(4, 'c2', 2), '1:9 ts2.cancel("why")', '4:0 final r0 readable'];
  const newLog = [...transform(1, 'c1', 2), ...transform(3, 'c2', 2), ...transform(5, 'c3', 2), '1:9 ts2.cancel("why")',
                  '4:0 final r0 readable'];
  assert.equal(classify(oldLog, newLog), 'read-ahead');
  // Without the repeated reads the old log is the same to the check; a chunk of its own is not.
  assert.deepEqual(violations('read-ahead', oldLog.filter((_, i) => i !== 3), newLog), []);
  assert.equal(classify(oldLog, newLog.map((l) => l.replace('"c2"', '"c9"'))), 'beyond');
});

test('kinds: read-ahead lets a stream its own pull() closed end closed against readable, nothing else', () => {
  // The new lib's pipe ran one pull more, and that pull closed r0 (fuzz/coding-seed-5-16186, minimized).
  const base = [
    '1:1 source.pull(ReadableByteStreamController{desiredSize:0})',
    '3:9 pipeTo#1 rejected Error("signal abort")',
    '6:0 final r0 readable',
  ];
  const pulled = [base[0], '3:3 source.pull(ReadableByteStreamController{desiredSize:0})', '3:3 source.pull closed r0', base[1], '6:0 final r0 closed'];
  assert.equal(classify(base, pulled), 'read-ahead');
  assert.equal(classify(pulled, base), 'read-ahead');
  assert.ok(violations('queue-levels', base, pulled).length > 0);
  // Both pulled and closed, and the new lib's pipe drained the queue the close waited on (the program unminimized).
  const closeRequested = [...pulled.slice(0, 4), base[2]];
  assert.equal(classify(closeRequested, pulled), 'read-ahead');
  // Closed with no pull's close: a cancel (one that ignored preventCancel, say) stays beyond, with or without a pull more.
  assert.equal(classify(base, [base[0], base[1], '6:0 final r0 closed']), 'beyond');
  assert.equal(classify(base, [...pulled.slice(0, 2), base[1], '6:0 final r0 closed']), 'beyond');
  // Only closed against readable: an errored or still locked stream stays beyond.
  assert.equal(classify(base, pulled.map((l) => l.replace('final r0 closed', 'final r0 errored Error("x")'))), 'beyond');
  assert.equal(classify(base.map((l) => l.replace('final r0 readable', 'final r0 readable locked')), pulled), 'beyond');
  // A from() source's iterator ending closes its stream as a pull's close does (fuzz/coding-seed-20261207-4430, minimized).
  const notStepped = ['1:6 w0.abort(Error("signal abort"))', '4:0 final r0 readable'];
  const stepped = [notStepped[0], '1:7 source.next closed r0', '4:0 final r0 closed'];
  assert.equal(classify(notStepped, stepped), 'read-ahead');
  assert.equal(classify(stepped, notStepped), 'read-ahead');
  assert.equal(classify(notStepped, [notStepped[0], '4:0 final r0 closed']), 'beyond');
  // The pulls and their chunks are still judged: a pull more that the other side's pipe did not need changes nothing else.
  assert.equal(classify(base, [...pulled.slice(0, 3), '3:4 w0.write("c9", WritableStreamDefaultController{aborted:false,desiredSize:0})', ...pulled.slice(3)]), 'beyond');
});

test('kinds: teardown-writes allows an aborted sink fewer last writes, nothing else', () => {
  const aborted = [
    '1:1 ts1.transform("c1", TransformStreamDefaultController{desiredSize:0})',
    '1:2 sink.write("c1", WritableStreamDefaultController{aborted:false,desiredSize:0})',
    '1:3 ts1.transform("c2", TransformStreamDefaultController{desiredSize:0})',
    '1:3 sink.write("c2", WritableStreamDefaultController{aborted:false,desiredSize:0})',
    '1:4 sink.abort(Error("user abort"))',
    '1:5 pipeTo#1 rejected Error("user abort")',
  ];
  // The new lib's pipe had read the second chunk before the abort.
  const oneLess = aborted.filter((_, i) => i !== 3);
  assert.equal(classify(aborted, oneLess), 'teardown-writes');
  assert.equal(classify(oneLess, aborted), 'teardown-writes');
  assert.ok(violations('read-ahead', aborted, oneLess).length > 0);
  // A chunk lost before the last one is no teardown write.
  assert.equal(classify(aborted, aborted.filter((_, i) => i !== 1)), 'beyond');
  // Nor a last chunk lost before a close(), nor an abort() on one side only.
  const closed = aborted.map((l) => l.replace('sink.abort(Error("user abort"))', 'sink.close()').replace(/rejected .*/, 'fulfilled undefined'));
  assert.equal(classify(closed, closed.filter((_, i) => i !== 3)), 'beyond');
  assert.equal(classify(aborted, closed.filter((_, i) => i !== 3)), 'beyond');
  // Nor a different last chunk.
  assert.equal(classify(aborted, aborted.map((l, i) => (i === 3 ? l.replace('"c2"', '"c3"') : l))), 'beyond');
});

test('kinds: teardown-writes counts a sink that ends errored alike on both sides as aborted', () => {
  // A pipe's abort of a sink that has no abort() leaves only its final state (reference seed 22 #631, trimmed).
  const signalled = [
    '1:3 w0.write(Uint8Array(0+2/2)[1,1], WritableStreamDefaultController{aborted:false,desiredSize:1})',
    '1:4 w0.write(Uint8Array(0+3/3)[2,2,2], WritableStreamDefaultController{aborted:false,desiredSize:2})',
    '1:14 pipeTo#1 rejected Error("signal abort")',
    '4:0 final w0 errored Error("signal abort")',
  ];
  const oneLess = signalled.filter((_, i) => i !== 1);
  assert.equal(classify(signalled, oneLess), 'teardown-writes');
  assert.equal(classify(oneLess, signalled), 'teardown-writes');
  // Not where the sink ends errored differently, or on one side only.
  const otherError = oneLess.map((l) => l.replace('final w0 errored Error("signal abort")', 'final w0 errored Error("controller error")'));
  assert.equal(classify(signalled, otherError), 'beyond');
  assert.equal(classify(signalled, oneLess.map((l) => l.replace(/final w0 errored .*/, 'final w0 closed'))), 'beyond');
  // Nor a chunk lost before the last one.
  assert.equal(classify(signalled, signalled.filter((_, i) => i !== 0)), 'beyond');
});

test('render: one line per differing view, named, capped', () => {
  const diffs = compareProjections(project(LOG), project(edit({ 11: undefined, 14: '1:8 pipeTo#1 rejected Error("boom")' })));
  const text = renderProjectionDiffs(diffs, 'base', 'broken', 3);
  assert.match(text, /^ {4}callbacks of sink \(3 vs 2 entries\), first difference at #2: - write\("c2", .*\+ close\(\)$/m);
  assert.match(text, /^ {4}chunks received by sink \(2 vs 1 entries\), first difference at #2: - "c2" {2}\+ \(nothing\)$/m);
  assert.match(text, /^ {4}settlement of pipeTo#1 \(1 entries\), first difference at #1: - fulfilled undefined {2}\+ rejected Error\("boom"\)$/m);
  assert.match(text, /^ {4}… \d+ more$/m);
});
