// The files the series ship into Node's tree stay copies of each other
// (tools/series/copies.ts): on this repository, and on small series made
// here where a copy drifts or a declaration goes stale.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { listLayers } from '../../tools/lib/layers.ts';
import { LIB_OVERLAY } from '../../tools/lib/paths.ts';
import { checkCopies, type SeriesFiles } from '../../tools/series/copies.ts';
import { listSeriesNames, readSeries } from '../../tools/series/config.ts';
import { tempDir } from '../helpers/node-repo.ts';

test('every test a series ships is the same file as the other series\' copy, or declared adapted', () => {
  const names = listSeriesNames();
  assert.ok(names.includes('v24') && names.includes('fixes'), names.join(', '));
  const all: SeriesFiles[] = [
    { name: 'main', layers: listLayers(LIB_OVERLAY), adapted: {} },
    ...names.map((n) => readSeries(n)),
  ];
  const { shared, problems } = checkCopies(all);
  assert.deepEqual(problems, []);
  // The backports and the fixes carry main's tests; the check has something to check.
  assert.ok(shared.length >= 10, `${shared.length} shared paths`);
});

/** A series in a temp dir: one layer per entry (with a PATCH.md, as every layer has), each shipping the given node/ files. */
function series(root: string, name: string, layers: Record<string, string>[], adapted: Record<string, string> = {}): SeriesFiles {
  layers.forEach((files, i) => {
    const dir = join(root, name, `${String(i + 1).padStart(2, '0')}-layer`);
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'PATCH.md'), 'stream: a layer\n\nTest layer.\n');
    for (const [path, text] of Object.entries(files)) {
      const file = join(dir, 'node', path);
      mkdirSync(join(file, '..'), { recursive: true });
      writeFileSync(file, text);
    }
  });
  return { name, layers: listLayers(join(root, name)), adapted };
}

test('a copy that drifts fails, a declared one passes, a stale declaration fails', () => {
  const root = tempDir('series-copies');
  const t = 'test/parallel/test-a.js';
  const main = series(root, 'main', [{ [t]: 'a\n', 'test/parallel/test-main-only.js': 'm\n' }]);

  const same = series(root, 'same', [{ [t]: 'a\n' }]);
  assert.deepEqual(checkCopies([main, same]), { shared: [t], problems: [] });

  const drift = series(root, 'drift', [{ [t]: 'a, edited\n' }]);
  const drifted = checkCopies([drift, main]).problems;
  assert.equal(drifted.length, 1);
  assert.match(drifted[0], /drift\/01-layer\/node\/test\/parallel\/test-a\.js: differs from .*main\/01-layer.*"adapted"/);

  const why = { [t]: 'the older release lacks a case' };
  assert.deepEqual(checkCopies([main, { ...drift, adapted: why }]).problems, []);
  assert.match(checkCopies([main, { ...same, adapted: why }]).problems[0], /declared adapted.*but is the same file/);
  const nowhere = { 'test/parallel/test-gone.js': 'renamed since' };
  assert.match(checkCopies([main, { ...same, adapted: nowhere }]).problems[0], /declares "adapted" test\/parallel\/test-gone\.js, which no other series ships/);
});

test('without main\'s copy the series compare with each other; a later layer\'s copy is the one that counts', () => {
  const root = tempDir('series-copies-nomain');
  const t = 'test/parallel/test-b.js';
  const main = series(root, 'main', [{}]);
  const x = series(root, 'x', [{ [t]: 'old\n' }, { [t]: 'b\n' }]);
  const y = series(root, 'y', [{ [t]: 'b\n' }]);
  assert.deepEqual(checkCopies([main, y, x]), { shared: [t], problems: [] });
  const z = series(root, 'z', [{ [t]: 'b, edited\n' }]);
  assert.match(checkCopies([main, x, y, z]).problems.join('\n'), /z\/01-layer.*differs from .*x\/02-layer/);
});
