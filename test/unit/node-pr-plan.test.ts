// make pr's planning: layer/patch pairing, trailers, fork owners.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { listLayers } from '../../tools/lib/layers.ts';
import { listPatches } from '../../tools/node/series.ts';
import { pairLayers, withoutTrailers } from '../../tools/node/pr-plan.ts';
import { githubOwner } from '../../tools/node/pr.ts';
import { makePatches, nodeRepo, tempDir } from '../helpers/node-repo.ts';

const LIB = 'lib/internal/webstreams/readablestream.js';

function overlay(names: string[]): string {
  const dir = tempDir('overlay');
  for (const n of names) {
    mkdirSync(join(dir, n));
    writeFileSync(join(dir, n, 'PATCH.md'), `stream: ${n}\n\nBody.\n`);
  }
  return dir;
}

test('pairing: slugs must agree, an empty overlay is an error', () => {
  const repo = nodeRepo();
  const patches = makePatches(repo, [{ slug: 'one', subject: 'stream: one', files: { [LIB]: '1\n' } }]);
  assert.throws(() => pairLayers(listLayers(overlay(['01-other'])), listPatches(patches), 'p-'), /layer 01-other has patch 0001-one\.patch: patches\/ is out of date/);
  assert.throws(() => pairLayers([], [], 'p-'), /no layers in lib-overlay/);
  assert.equal(pairLayers(listLayers(overlay(['01-one'])), listPatches(patches), 'p-')[0].branch, 'p-01-one');
});

test('trailers leave the PR body; a last paragraph that is prose stays', () => {
  assert.equal(withoutTrailers('Why.\n\nMore.\n\nSigned-off-by: A <a@b>\nRefs: https://x'), 'Why.\n\nMore.');
  assert.equal(withoutTrailers('Why.\n\nNote: this stays because\nit is prose.'), 'Why.\n\nNote: this stays because\nit is prose.');
  assert.equal(withoutTrailers(''), '');
});

test('the fork owner comes from a GitHub remote URL, https or ssh', () => {
  assert.equal(githubOwner('git@github.com:me/node.git'), 'me');
  assert.equal(githubOwner('https://github.com/me/node'), 'me');
  assert.equal(githubOwner('https://github.com/me/node.git/'), 'me');
  assert.equal(githubOwner('/srv/git/node.git'), undefined);
});
