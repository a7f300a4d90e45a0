// Patch 17: a plain pipe (neither end a TransformStream) does not create
// the steps only pipes next to a TransformStream take. Counted in a heap
// snapshot of 2,000 pending plain pipes (test/helpers/pipe-retained.cjs):
// closures per pipe with its two streams, on the base, after layer 16
// (which had added eight) and on the whole series.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { libDir, ROOT } from '../../tools/lib/paths.ts';
import { runOnLib } from '../helpers/libs.ts';

function retained(lib: string): { bytes: number; closures: number } {
  const run = runOnLib(libDir(lib), ['--expose-gc', join(ROOT, 'test/helpers/pipe-retained.cjs')]);
  assert.equal(run.status, 0, run.stderr);
  const m = /per pending pipe with its two streams: (\d+) B, (\d+(?:\.\d+)?) closures/.exec(run.stdout);
  assert.ok(m, run.stdout);
  return { bytes: Number(m[1]), closures: Number(m[2]) };
}

test('a pending plain pipe creates no pipe chain steps (patch 17)', () => {
  const base = retained('base');
  const before = retained('layers-16');
  const series = retained('patched');
  assert.ok(before.closures >= base.closures + 8, JSON.stringify({ base, before }));
  assert.ok(series.closures <= base.closures + 1, JSON.stringify({ base, series }));
  assert.ok(series.bytes < before.bytes - 400, JSON.stringify({ before, series }));
});
