// The resource checks can fail: a lib that keeps every chunk breaks the heap
// bound, a lib that ignores the high-water mark breaks the backpressure
// bounds.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { PINNED_NODE, ROOT } from '../../tools/lib/paths.ts';
import { cancelKeepsQueueLib, leakyLib, noBackpressureLib } from '../helpers/ordering-libs.ts';

const env: NodeJS.ProcessEnv = { ...process.env, TEST_SUMMARY_DIR: '' };

function resources(args: string[]) {
  return spawnSync(PINNED_NODE, [join(ROOT, 'tools', 'resources.ts'), ...args], { encoding: 'utf8', env, timeout: 180_000 });
}

test('a lib that retains every chunk fails the heap bound', () => {
  const r = resources(['--lib', leakyLib('resources-leaky'), '--only', 'heap-pipe-chain']);
  assert.equal(r.status, 1, r.stdout + r.stderr);
  const m = /FAIL \S+ heap-pipe-chain: 1000000\/1000000 chunks through 3 transforms; heap growth ([\d.]+) MB \(bound 8\.00 MB\)/.exec(r.stdout);
  assert.ok(m, r.stdout);
  assert.ok(Number(m[1]) > 16, `growth ${m[1]} MB`);
});

test('a lib without backpressure fails the pull bounds', () => {
  const r = resources(['--lib', noBackpressureLib('resources-no-backpressure'), '--only', 'backpressure-pipe,backpressure-reader,backpressure-chain']);
  assert.equal(r.status, 1, r.stdout + r.stderr);
  assert.match(r.stdout, /FAIL \S+ backpressure-pipe: max pulled-but-unwritten \d{2,}/);
  assert.match(r.stdout, /FAIL \S+ backpressure-reader: max pulled-but-unread \d{3,}/);
  assert.match(r.stdout, /FAIL \S+ backpressure-chain/);
});

test('a lib whose cancel() keeps the queued chunks fails the release check', () => {
  const r = resources(['--lib', cancelKeepsQueueLib('resources-cancel-keeps-queue'), '--only', 'cancel-stops-pulls-and-releases']);
  assert.equal(r.status, 1, r.stdout + r.stderr);
  assert.match(r.stdout, /FAIL \S+ cancel-stops-pulls-and-releases: .*queued chunk collected false/);
});

test('an unknown check name is refused', () => {
  const r = resources(['--lib', 'base', '--only', 'no-such-check']);
  assert.equal(r.status, 1);
  assert.match(r.stdout, /unknown check 'no-such-check'/);
});
