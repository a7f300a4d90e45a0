import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parsePatchMd } from '../../tools/lib/patch-md.ts';

test('PATCH.md: front matter deviations, subject, body', () => {
  const md = parsePatchMd('---\ndeviation: pipe/sync-chain | writes settle one tick earlier\n---\nstream: make it fast\n\nBody line.\n\nSigned-off-by: A <a@b>\n');
  assert.deepEqual(md.deviations, [{ scenario: 'pipe/sync-chain', reason: 'writes settle one tick earlier' }]);
  assert.equal(md.subject, 'stream: make it fast');
  assert.equal(md.body, 'Body line.\n\nSigned-off-by: A <a@b>');
  assert.deepEqual(parsePatchMd('stream: x\n').deviations, []);
  assert.deepEqual(parsePatchMd('---\nbench: tee, byte-stream\nbench: pipe\n---\nstream: x\n').bench, ['tee', 'byte-stream', 'pipe']);
});

test('PATCH.md: errors name the problem', () => {
  assert.throws(() => parsePatchMd('lib: x\n'), /must start with 'stream: '/);
  assert.throws(() => parsePatchMd('stream: x\nbody\n'), /blank line must follow/);
  assert.throws(() => parsePatchMd('---\ndeviation: x\n---\nstream: x\n'), /deviation: <scenario id> \| <reason>/);
  assert.throws(() => parsePatchMd('---\nfoo: bar\n---\nstream: x\n'), /unknown front matter key 'foo'/);
  assert.throws(() => parsePatchMd('---\nbench: ,\n---\nstream: x\n'), /bench: <filter>/);
  assert.throws(() => parsePatchMd('---\ndeviation: a | b\nstream: x\n'), /never closed/);
});
