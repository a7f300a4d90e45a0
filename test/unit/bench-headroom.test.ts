// tools/bench/headroom.ts: grouping of the model category's samples into
// patched/base, model/base and model/patched, with the model's samples of
// both sides pooled; and the model benchmarks themselves run and check their
// results on both implementations.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { PINNED_NODE, ROOT } from '../../tools/lib/paths.ts';
import type { Sample } from '../../tools/bench/csv.ts';
import { headroom, renderHeadroom } from '../../tools/bench/headroom.ts';

function sample(binary: 'old' | 'new', impl: string, rate: number, rest = "n=10 size=1024"): Sample {
  return { binary, filename: 'model/read-loop.js', configuration: `impl='${impl}' ${rest}`, rate, time: 1 / rate };
}

test('rows pair base, patched and the pooled model of the same configuration', () => {
  const rows = headroom([
    sample('old', 'webstreams', 100), sample('old', 'webstreams', 102), sample('old', 'webstreams', 101),
    sample('new', 'webstreams', 120), sample('new', 'webstreams', 122), sample('new', 'webstreams', 121),
    sample('old', 'model', 200), sample('new', 'model', 204), sample('old', 'model', 202),
    sample('old', 'webstreams', 50, 'n=20 size=1024'), sample('old', 'webstreams', 51, 'n=20 size=1024'),
    sample('new', 'webstreams', 50, 'n=20 size=1024'), sample('new', 'webstreams', 51, 'n=20 size=1024'),
    sample('old', 'model', 50, 'n=20 size=1024'), sample('new', 'model', 51, 'n=20 size=1024'),
  ]);
  assert.deepEqual(rows.map((r) => r.name), ['model/read-loop.js n=10 size=1024', 'model/read-loop.js n=20 size=1024']);
  const [r] = rows;
  assert.deepEqual(r.patchedVsBase.old, [100, 102, 101]);
  assert.deepEqual(r.patchedVsBase.new, [120, 122, 121]);
  assert.deepEqual(r.modelVsBase.new, [200, 204, 202]);
  assert.deepEqual(r.modelVsPatched.old, [120, 122, 121]);
  assert.equal(r.modelVsBase.ratio.toFixed(4), (202 / 101).toFixed(4));
  assert.equal(r.modelVsPatched.ratio.toFixed(4), (202 / 121).toFixed(4));
  assert.equal(r.modelVsBase.confidence, '***');
  assert.equal(rows[1].patchedVsBase.confidence, '');
  const table = renderHeadroom(rows);
  assert.match(table, /^benchmark +patched\/base +model\/base +model\/patched$/m);
  assert.match(table, /n=10 size=1024 +1\.20x \*\*\* +2\.00x \*\*\* +1\.67x \*\*\*/);
});

test('a sample without impl, or a configuration missing a side, is an error', () => {
  assert.throws(() => headroom([{ ...sample('old', 'webstreams', 1), configuration: 'n=10' }]), /no impl=/);
  assert.throws(() => headroom([sample('old', 'webstreams', 1), sample('new', 'webstreams', 2)]), /no model samples/);
});

// The model must do the spec's work, not less: per chunk it creates as many
// promises (read()/write() results, reactions, awaits) as the stream does.
test('every model benchmark runs both implementations, and the model creates as many promises per chunk as web streams', () => {
  const dir = join(ROOT, 'benchmark', 'model');
  const files = readdirSync(dir).filter((f) => f.endsWith('.js'));
  assert.ok(files.length >= 5, `found ${files.join(', ')}`);
  const run = (file: string, impl: string, n: number): number => {
    // Small n: the benchmarks assert their counts and chunk order themselves.
    const r = spawnSync(PINNED_NODE, ['-r', join(ROOT, 'test/helpers/count-promises.cjs'), join(dir, file), `impl=${impl}`, `n=${n}`],
      { env: { ...process.env, NODE_RUN_BENCHMARK_FN: '' }, encoding: 'utf8', timeout: 60_000 });
    assert.equal(r.status, 0, `${file} impl=${impl}: ${r.stderr}`);
    assert.match(r.stdout, new RegExp(`impl="${impl}"`), `${file} impl=${impl}: ${r.stdout}`);
    const m = /^promises: (\d+)$/m.exec(r.stderr);
    assert.ok(m, `${file} impl=${impl}: no promise count in ${r.stderr}`);
    return Number(m[1]);
  };
  for (const file of files) {
    const perChunk = (impl: string) => (run(file, impl, 4000) - run(file, impl, 2000)) / 2000;
    const streams = perChunk('webstreams');
    assert.ok(streams >= 2, `${file}: ${streams} promises per chunk on web streams`);
    assert.equal(perChunk('model'), streams, `${file}: promises per chunk`);
  }
});
