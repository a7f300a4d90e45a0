// The race witness of a pipe's shutdown action (`<op>.shutdown` in
// program.delay, tools/ordering/shutdown-hook.ts). Two programs the fuzz
// found (coding seed 20261211 #4243, drops seed 20261209 #4873, minimized)
// shut two pipes down at once across one TransformStream; the series' first
// pipe, which writes into a synchronous transform sooner, reaches it first.
// The base gives the series' outcome once the second pipe's action comes a
// microtask or two later, which the spec allows (a pipe's steps run in
// parallel), and no delay of an op or a callback can show.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { resolveLib } from '../../tools/lib/injected.ts';
import { readLibDir, writeLibDir } from '../../tools/lib/libdir.ts';
import { fuzzExemptions } from '../../tools/ordering/deviations.ts';
import { FEATURES, type Program } from '../../tools/ordering/generate.ts';
import { judgePrograms } from '../../tools/ordering/judge-programs.ts';
import { withShutdownHook } from '../../tools/ordering/shutdown-hook.ts';
import { runSide } from '../../tools/ordering/side.ts';
import { resolveSides } from '../../tools/ordering/sides.ts';
import { tempDir } from '../helpers/node-repo.ts';

const { oldLib, declared } = resolveSides('base', 'patched', undefined);

/** Coding seed 20261211 #4243: three chunks through a TextEncoderStream, the source errored, the sink's write() rejecting. */
const encoderProgram = {
  source: { type: 'default', start: 'sync', startEnqueue: 3 },
  ops: [
    { op: 'pipeThrough', r: 0, coding: 'encode' },
    { op: 'error' },
    { op: 'pipeTo', r: 1, sink: { write: 'reject' } },
  ],
} as unknown as Program;

/** Drops seed 20261209 #4873: the source errored and the second pipe's signal aborted in one turn. */
const signalProgram = {
  source: { type: 'default', pull: 'sync' },
  ops: [
    { op: 'pipeThrough', r: 0, transform: { start: 'value', transform: 'sync', enqueue: '110', wHwm: 1, rHwm: 1 }, preventClose: true, preventCancel: true },
    { op: 'macrotask' },
    { op: 'pipeTo', r: 1, sink: { write: 'then-getter', abort: 'thenable', hwm: 1, size: true }, signal: 'later' },
    { op: 'error' },
    { op: 'abortSignal', k: 0 },
  ],
} as unknown as Program;

const settlement = (lines: readonly string[] | undefined) => lines?.find((l) => / pipeTo#1 rejected /.test(l));

test('program.delay `<op>.shutdown` moves that pipe\'s shutdown action on a hooked lib, and nothing on the lib itself', async () => {
  const hooked = withShutdownHook(oldLib);
  assert.ok(hooked.lib, JSON.stringify(hooked));
  const programs = [{ id: 'plain', program: encoderProgram }, { id: 'later', program: { ...encoderProgram, delay: { '2.shutdown': 1 } } }];
  const onHooked = (await runSide(hooked.lib, { kind: 'programs', programs })).logs;
  const onLib = (await runSide(oldLib, { kind: 'programs', programs })).logs;
  assert.match(settlement(onHooked.get('plain')) ?? '', /controller error/, onHooked.get('plain')!.join('\n'));
  assert.match(settlement(onHooked.get('later')) ?? '', /w0\.write rejects/, onHooked.get('later')!.join('\n'));
  assert.deepEqual(onLib.get('later'), onLib.get('plain'));
  assert.deepEqual(onHooked.get('plain'), onLib.get('plain'));
});

for (const [name, program] of [['coding seed 20261211 #4243', encoderProgram], ['drops seed 20261209 #4873', signalProgram]] as const) {
  test(`${name} is a race the base runs with the second pipe's shutdown action later`, async () => {
    const { exempt } = fuzzExemptions(declared, FEATURES);
    const { outcomes, noShutdownWitness } = await judgePrograms(oldLib, resolveLib('patched'), [{ id: name, program }], exempt);
    assert.equal(noShutdownWitness, undefined);
    const o = outcomes[0];
    assert.ok(o.kind === 'raced' && Object.keys(o.delay).includes('2.shutdown'), JSON.stringify(o));
  });
}

test('a lib whose pipe lacks the anchors gets no hook, and says why', () => {
  const { manifest, modules } = readLibDir(resolveLib('base').dir);
  const id = 'internal/webstreams/readablestream';
  modules.set(id, modules.get(id)!.replace('function complete() {', 'function completeAction() {'));
  const dir = join(tempDir('shutdown-hook'), 'lib');
  writeLibDir(dir, manifest, modules);
  const hooked = withShutdownHook({ name: 'renamed', dir });
  assert.equal(hooked.lib, undefined);
  assert.match(hooked.lib ? '' : hooked.why, /function complete\(\) \{.* occurs nowhere/);
});
