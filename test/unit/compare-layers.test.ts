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
