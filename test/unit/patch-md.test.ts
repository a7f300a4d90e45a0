import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parsePatchMd } from '../../tools/lib/patch-md.ts';

test('PATCH.md: front matter deviations, subject, body', () => {
  const md = parsePatchMd('---\ndeviation: pipe/sync-chain | turns | writes settle one tick earlier\n' +
    'deviation: fuzz:pipeThrough | queue-levels, races | pipes move sooner | a bar in the reason\n---\nstream: make it fast\n\nBody line.\n\nSigned-off-by: A <a@b>\n');
  assert.deepEqual(md.deviations, [
    { scenario: 'pipe/sync-chain', kinds: ['turns'], reason: 'writes settle one tick earlier' },
    { scenario: 'fuzz:pipeThrough', kinds: ['queue-levels', 'races'], reason: 'pipes move sooner | a bar in the reason' },
  ]);
  assert.equal(md.subject, 'stream: make it fast');
  assert.equal(md.body, 'Body line.\n\nSigned-off-by: A <a@b>');
  assert.deepEqual(parsePatchMd('stream: x\n').deviations, []);
  assert.deepEqual(parsePatchMd('---\nbench: tee, byte-stream\nbench: pipe\n---\nstream: x\n').bench, ['tee', 'byte-stream', 'pipe']);
});

test('PATCH.md: errors name the problem', () => {
  assert.throws(() => parsePatchMd('lib: x\n'), /must start with 'stream: '/);
  assert.throws(() => parsePatchMd('stream: x\nbody\n'), /blank line must follow/);
  assert.throws(() => parsePatchMd('---\ndeviation: x\n---\nstream: x\n'), /deviation: <scenario id> \| <kind>\[, <kind>\] \| <reason>/);
  // A deviation without a kind (the old two-field form) says which kinds there are.
  assert.throws(() => parsePatchMd('---\ndeviation: a/b | reads are early\n---\nstream: x\n'), /kinds: turns, interleaving, queue-levels, read-ahead, teardown-writes, races/);
  assert.throws(() => parsePatchMd('---\ndeviation: a/b | anything | why\n---\nstream: x\n'), /unknown deviation kind 'anything'/);
  assert.throws(() => parsePatchMd('---\ndeviation: a/b | turns, race | why\n---\nstream: x\n'), /unknown deviation kind 'race'/);
  assert.throws(() => parsePatchMd('---\ndeviation: a/b | interleaving, races | why\n---\nstream: x\n'), /'races' applies to fuzz:<feature> declarations only/);
  assert.throws(() => parsePatchMd('---\ndeviation: a/b | interleaving, byob-requests | why\n---\nstream: x\n'), /'byob-requests' applies to fuzz:<feature> declarations only/);
  assert.throws(() => parsePatchMd('---\ndeviation: fuzz:pipeTo | teardown-writes | why\n---\nstream: x\n'), /'teardown-writes' applies to named scenarios only/);
  assert.throws(() => parsePatchMd('---\ndeviation: fuzz:tee | races | why\n---\nstream: x\n'), /name a level/);
  assert.throws(() => parsePatchMd('---\nfoo: bar\n---\nstream: x\n'), /unknown front matter key 'foo'/);
  // The subject at 72 characters at most (core-validate-commit's title-length).
  assert.doesNotThrow(() => parsePatchMd(`stream: ${'a'.repeat(64)}\n\nok\n`));
  assert.throws(() => parsePatchMd(`stream: ${'a'.repeat(65)}\n\nok\n`), /PATCH.md: the subject line has 73 characters; core-validate-commit allows 72/);
  // The body at 72 columns, as core-validate-commit holds it; indented lines (a table) may run longer.
  assert.throws(() => parsePatchMd(`---\nbench: pipe\n---\nstream: x\n\nok\n${'a'.repeat(73)}\n`), /PATCH.md:7: the body is wrapped at 72 columns .* this line has 73/);
  assert.equal(parsePatchMd(`stream: x\n\n${'a'.repeat(72)}\n    ${'b'.repeat(100)}\n`).body.length, 72 + 1 + 104);
  assert.doesNotThrow(() => parsePatchMd(`stream: x\n\nok\n\nSigned-off-by: ${'c'.repeat(80)} <c@d>\n`));
  assert.throws(() => parsePatchMd('---\nbench: ,\n---\nstream: x\n'), /bench: <filter>/);
  assert.throws(() => parsePatchMd('---\ndeviation: a | b\nstream: x\n'), /never closed/);
});
