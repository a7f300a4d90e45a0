// The byobRequest replay (`byob-requests`, tools/ordering/judge-programs.ts).
// Seed 9001 #1759 of the fuzz: a byte source with autoAllocateChunkSize
// that fills a byobRequest where it finds one, piped through a
// pass-through TransformStream. Patch 3's pipe reads sooner, so the
// source's later pulls find a byobRequest where the base's found none, and
// the sink gets other chunks. With the source making the base's choices
// (enqueueing where the base found no request), and the program's close a
// few turns later on the base (the pipe also runs ahead of it), the new
// lib's run fits. A lib that mishandles the chunks the replay gives it
// still fails. The judge no longer needs the replay for this program: the
// base with the source's close later and its pull slower (a race witness,
// `<op>.late`) gets the same chunks; so the replay is run here directly,
// with the witness timing the judge gave it before.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { resolveLib, type Lib } from '../../tools/lib/injected.ts';
import { libDir } from '../../tools/lib/paths.ts';
import { readLibDir, replaceOnce, writeLibDir } from '../../tools/lib/libdir.ts';
import { fuzzExemptions, type Declared } from '../../tools/ordering/deviations.ts';
import { FEATURES, generateProgram, type Program } from '../../tools/ordering/generate.ts';
import { coveringDeclarations, judgePrograms, replayByobChoices, type Outcome } from '../../tools/ordering/judge-programs.ts';
import { runSide } from '../../tools/ordering/side.ts';
import { resolveSides } from '../../tools/ordering/sides.ts';

const temps: string[] = [];
after(() => { for (const dir of temps) rmSync(dir, { recursive: true, force: true }); });

/** Layer 03 alone: the state before it (with the series' base fixes) against the state after it. */
function layer3Sides() {
  const saved = process.env.LAYERS;
  process.env.LAYERS = '3..3';
  try {
    return resolveSides('base', 'patched', undefined);
  } finally {
    if (saved === undefined) delete process.env.LAYERS;
    else process.env.LAYERS = saved;
  }
}

const { oldLib, newLib, declared } = layer3Sides();
const entry = { id: 'fuzz/seed-9001-1759', program: generateProgram(9001, 1759) };

async function judge(lib: Lib, decl: Map<string, Declared[]>): Promise<Outcome> {
  const { exempt } = fuzzExemptions(decl, FEATURES);
  return (await judgePrograms(oldLib, lib, [entry], exempt)).outcomes[0];
}

/** The declarations with `kinds` taken out of every one. */
function withoutKinds(decl: Map<string, Declared[]>, kinds: string[]): Map<string, Declared[]> {
  return new Map([...decl].map(([id, list]) => [id, list.map((d) => ({ ...d, kinds: d.kinds.filter((k) => !kinds.includes(k)) }))]));
}

test('program.byobReplay logs each fill and leaves a byobRequest unused where it says false', async () => {
  const program: Program = {
    source: { type: 'bytes', pull: 'sync', autoAllocate: 4, byteFill: 'respond', pullCloseAfter: 2 },
    ops: [{ op: 'pipeTo', r: 0, sink: { write: 'sync' } }],
  };
  const { logs } = await runSide(resolveLib('base'), {
    kind: 'programs',
    programs: [
      { id: 'plain', program },
      { id: 'recorded', program: { ...program, byobReplay: [] } },
      { id: 'enqueued', program: { ...program, byobReplay: [false] } },
    ],
  });
  const fills = (id: string) => logs.get(id)!.filter((l) => / fill#/.test(l)).map((l) => l.replace(/^\d+:\d+ /, ''));
  assert.deepEqual(fills('plain'), []);
  assert.deepEqual(fills('recorded'), ['pull fill#0 byobRequest', 'pull fill#1 byobRequest']);
  assert.deepEqual(fills('enqueued'), ['pull fill#0 enqueue', 'pull fill#0 left a byobRequest unused', 'pull fill#1 byobRequest']);
  const writes = (id: string) => logs.get(id)!.filter((l) => /w0\.write\(/.test(l)).map((l) => /Uint8Array\([^)]*\)\[[^\]]*\]/.exec(l)![0]);
  // A respond() of 2 bytes into the 4-byte auto-allocated buffer, against an enqueued chunk of its own.
  assert.equal(writes('recorded')[0], 'Uint8Array(0+2/4)[1,1]');
  assert.equal(writes('enqueued')[0], 'Uint8Array(0+2/2)[1,1]');
  assert.deepEqual(writes('plain'), writes('recorded'));
});

/** `lib`'s plain run of seed 9001 #1759: the log a replay stands in for. */
async function plainLog(lib: Lib): Promise<string[]> {
  return (await runSide(lib, { kind: 'programs', programs: [entry] })).logs.get(entry.id)!;
}

/**
 * The replay of seed 9001 #1759 alone, on `lib`, after a failed race with
 * the program's ops from op 6 on 8 turns later; `judged` is the log of the
 * lib's run being judged (its plain run unless given).
 */
async function replay(lib: Lib, judged?: string[]): Promise<Outcome> {
  const { exempt } = fuzzExemptions(declared, FEATURES);
  const by = coveringDeclarations(entry.program, exempt);
  const outcomes: Outcome[] = [{ kind: 'beyond', allowed: 'queue-levels', by, violations: [] }];
  const logs = new Map([[entry.id, judged ?? await plainLog(lib)]]);
  await replayByobChoices(oldLib, lib, [entry], outcomes, new Map([[0, [{ 6: 8 }]]]), logs);
  return outcomes[0];
}

test('seed 9001 #1759 fits layer 03 once replayed with the base\'s choices', async () => {
  const o = await replay(newLib);
  assert.equal(o.kind, 'replayed', JSON.stringify(o));
  assert.ok(o.kind === 'replayed' && o.unused > 0, JSON.stringify(o));
});

test('a replay explains nothing of a run the lib does not give again', async () => {
  // The judged run lost the sink's last chunk, as a lib that drops chunks
  // only now and then (a counter of the whole process) might; its rerun,
  // and so its replay, delivers it.
  const log = await plainLog(newLib);
  const lastWrite = log.findLastIndex((l) => /w0\.write\(/.test(l));
  assert.ok(lastWrite >= 0, log.join('\n'));
  const o = await replay(newLib, log.toSpliced(lastWrite, 1));
  assert.equal(o.kind, 'beyond', JSON.stringify(o));
  assert.ok(o.kind === 'beyond' && o.replayed && o.unreproducible, JSON.stringify(o));
});

test('seed 9001 #1759 is a race of the source\'s own calls, and fails with neither race nor replay', async () => {
  const o = await judge(newLib, declared);
  assert.equal(o.kind, 'raced', JSON.stringify(o));
  assert.ok(o.kind === 'raced' && Object.keys(o.delay).some((what) => what.endsWith('.late')), JSON.stringify(o));
  const without = await judge(newLib, withoutKinds(declared, ['races', 'byob-requests']));
  assert.equal(without.kind, 'beyond', JSON.stringify(without));
  assert.ok(without.kind === 'beyond' && !without.replayed && !without.raced, JSON.stringify(without));
});

test('a lib that drops the chunks a byte source enqueues over a pending byobRequest fails the replay', async () => {
  const { manifest, modules } = readLibDir(libDir('layers-3'));
  replaceOnce(modules, 'internal/webstreams/readablestream',
    '  const transferredBuffer = ArrayBufferPrototypeTransfer(buffer);\n\n  if (pendingPullIntos.length) {\n',
    '  const transferredBuffer = ArrayBufferPrototypeTransfer(buffer);\n\n  if (pendingPullIntos.length) {\n    return;\n');
  const dir = mkdtempSync(join(tmpdir(), 'ordering-byob-replay-'));
  temps.push(dir);
  writeLibDir(dir, { ...manifest, layers: [...manifest.layers, 'test:drop-enqueue-over-request'] }, modules);
  const o = await replay({ name: 'layers-3 dropping enqueues over a request', dir });
  assert.equal(o.kind, 'beyond', JSON.stringify(o));
  assert.ok(o.kind === 'beyond' && o.replayed, JSON.stringify(o));
});
