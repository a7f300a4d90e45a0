import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { PINNED_NODE, ROOT } from '../../tools/lib/paths.ts';
import { overlayRoot } from '../helpers/overlay.ts';

test('compare-layers refuses a layer whose PATCH.md names no benchmarks', () => {
  const { root } = overlayRoot({ '01-quiet': {} });
  const r = spawnSync(PINNED_NODE, [join(ROOT, 'tools', 'compare-layers.ts')], {
    encoding: 'utf8', env: { ...process.env, OVERLAY_DIR: root, LAYERS: '' },
  });
  assert.equal(r.status, 1);
  assert.match(r.stderr, /01-quiet\/PATCH\.md names no benchmarks \(front matter 'bench: <filter>, …'\)/);
});

test("benchmarksText: compare.R's table as quoted text, within Node's 72 columns otherwise", async () => {
  const { benchmarksText } = await import('../../tools/compare-layers.ts');
  const rendered = [
    '                                                   confidence improvement accuracy (*)   (**)  (***)',
    "webstreams/pipe-to-sink.js type='normal' n=300000        ***     42.10 %       ±3.10% ±4.20% ±5.60%",
    '',
    'Be aware that when doing many comparisons the risk of a false-positive',
  ].join('\n');
  const text = benchmarksText(rendered, 15, 'v26.12.1');
  const lines = text.split('\n');
  assert.match(text, /^Results of benchmark\/compare\.js \(15 runs of each side, rendered\n/);
  assert.ok(text.includes('the v26.12.1 release binary'));
  for (const line of lines) {
    assert.ok(line.startsWith('    ') || line.length <= 72, `not quoted and over 72 columns: ${line}`);
  }
  assert.ok(lines.includes("    webstreams/pipe-to-sink.js type='normal' n=300000        ***     42.10 %       ±3.10% ±4.20% ±5.60%"));
  // Blank lines stay blank (no trailing spaces).
  assert.ok(lines.every((line) => line === line.trimEnd()));
});

test('benchmarksText: a pinned run says on which CPUs, within 72 columns', async () => {
  const { benchmarksText } = await import('../../tools/compare-layers.ts');
  const text = benchmarksText('row\n', 15, 'v26.12.1', '0-1');
  assert.ok(text.includes('one (new), every run pinned to CPU 0-1 (--set CPUSET=0-1):\n'), text);
  assert.ok(!benchmarksText('row\n', 15, 'v26.12.1').includes('CPUSET'));
  for (const line of text.split('\n')) assert.ok(line.startsWith('    ') || line.length <= 72, line);
});
