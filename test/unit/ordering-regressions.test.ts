// Programs the fuzzer found where the series went wrong, kept as tests of
// the fix: each runs on the patched lib and must not log what went wrong.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { resolveLib } from '../../tools/lib/injected.ts';
import { runSide } from '../../tools/ordering/side.ts';

// make fuzz SEED=2026 (program 2929, minimized): a pipe into a pass-through
// TransformStream with an asynchronous start() finished its read just before
// the destination errored, and wrote the chunk through the writer it had
// already released (ERR_INTERNAL_ASSERTION as an unhandled rejection).
const WRITE_AFTER_RELEASE = {
  source: { type: 'bytes', pull: 'async' },
  ops: [
    { op: 'tee', r: 0 },
    { op: 'pipeThrough', r: 1, transform: { transform: 'value', cancel: 'throw', enqueue: 2, wHwm: 1 } },
    { op: 'pipeThrough', r: 2, transform: { start: 'async', wHwm: 1 }, preventClose: true, preventAbort: true, preventCancel: true },
    { op: 'iterate', r: 4, n: 2, exit: 'return' },
  ],
};

test('a pipe does not write a chunk read just before its destination errored (fuzz seed 2026, program 2929)', async () => {
  const { logs } = await runSide(resolveLib('patched'), { kind: 'programs', programs: [{ id: 'fuzz/seed-2026-2929', program: WRITE_AFTER_RELEASE }] });
  const log = logs.get('fuzz/seed-2026-2929');
  assert.ok(log && log.some((l) => l.includes('iterate#1 fulfilled')), `the program did not run to its end:\n${log?.join('\n')}`);
  assert.deepEqual(log.filter((l) => /unhandled|ERR_INTERNAL_ASSERTION/.test(l)), []);
});
