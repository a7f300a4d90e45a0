// Node's tests run on the injected lib and catch a broken one.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { PINNED_NODE, ROOT } from '../../tools/lib/paths.ts';
import { dropEverySecondByteChunk, dropEverySecondChunk, variantLib } from '../helpers/libs.ts';

const run = (lib: string, filter = 'test-whatwg-readablestream.js') => spawnSync(PINNED_NODE,
  [join(ROOT, 'tools', 'node-tests.ts'), '--lib', lib, '--filter', filter],
  { encoding: 'utf8', timeout: 120_000, env: { ...process.env, TEST_SUMMARY_DIR: '' } });

test('a Node test passes on the base and fails on a lib that drops chunks', () => {
  const ok = run('base');
  assert.equal(ok.status, 0, ok.stdout + ok.stderr);
  assert.match(ok.stdout, /ok {3}test-whatwg-readablestream\.js/);
  const broken = run(variantLib('drop-chunks-node', dropEverySecondChunk));
  assert.equal(broken.status, 1, broken.stdout);
  assert.match(broken.stdout, /FAIL test-whatwg-readablestream\.js/);
  assert.match(broken.stdout, /1 failed/);
});

test('a Node test that skips itself is listed as skipped, not counted as passed', () => {
  // The pinned release has no QUIC, so this test calls common.skip().
  const r = run('base', 'test-quic-stream-body-readable-stream');
  assert.equal(r.status, 0, r.stdout + r.stderr);
  assert.match(r.stdout, /skip {2}test-quic-stream-body-readable-stream\.mjs .*skipped \(QUIC is not enabled\)/);
  assert.match(r.stdout, /on base: 0 passed \(0 expected failures\), 0 failed, 1 skipped by the test itself/);
});

test('a test outside test/parallel runs: WebAssembly streaming fails on a lib that drops byte chunks', () => {
  const wasm = 'es-module/test-wasm-web-api.js';
  const ok = run('base', wasm);
  assert.equal(ok.status, 0, ok.stdout + ok.stderr);
  assert.match(ok.stdout, /ok {3}\.\.\/es-module\/test-wasm-web-api\.js/);
  const broken = run(variantLib('drop-byte-chunks-node', dropEverySecondByteChunk), wasm);
  assert.equal(broken.status, 1, broken.stdout);
  assert.match(broken.stdout, /FAIL \.\.\/es-module\/test-wasm-web-api\.js/);
});
