// Node's tests run on the injected lib and catch a broken one.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { PINNED_NODE, ROOT } from '../../tools/lib/paths.ts';
import { dropEverySecondChunk, variantLib } from '../helpers/libs.ts';

const run = (lib: string) => spawnSync(PINNED_NODE, [join(ROOT, 'tools', 'node-tests.ts'), '--lib', lib,
  '--filter', 'test-whatwg-readablestream.js'], { encoding: 'utf8', timeout: 120_000, env: { ...process.env, TEST_SUMMARY_DIR: '' } });

test('a Node test passes on the base and fails on a lib that drops chunks', () => {
  const ok = run('base');
  assert.equal(ok.status, 0, ok.stdout + ok.stderr);
  assert.match(ok.stdout, /ok {3}test-whatwg-readablestream\.js/);
  const broken = run(variantLib('drop-chunks-node', dropEverySecondChunk));
  assert.equal(broken.status, 1, broken.stdout);
  assert.match(broken.stdout, /FAIL test-whatwg-readablestream\.js/);
  assert.match(broken.stdout, /1 failed/);
});
