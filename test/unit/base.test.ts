// The extracted base is byte-exact, and the check fails loudly when not.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { libDir, PINNED_NODE, ROOT } from '../../tools/lib/paths.ts';
import { readFromBinary } from '../../tools/lib/base-source.ts';
import { readLibDir } from '../../tools/lib/libdir.ts';
import { listLayers, selectLayers } from '../../tools/lib/layers.ts';

const check = (dir: string) => spawnSync(PINNED_NODE, [join(ROOT, 'tools', 'base.ts'), '--check', '--dir', dir], { encoding: 'utf8' });

test('out/lib/base holds exactly the builtins of the pinned binary', () => {
  const binary = readFromBinary(PINNED_NODE);
  const { manifest, modules } = readLibDir(libDir('base'));
  assert.equal(manifest.nodeVersion, binary.nodeVersion);
  assert.deepEqual([...modules.keys()], [...binary.modules.keys()]);
  for (const [id, text] of binary.modules) assert.equal(modules.get(id), text, id);
  assert.ok(modules.has('internal/webstreams/readablestream'));
});

test('base --check fails loudly on a one-byte difference', () => {
  const dir = libDir('test-base-copy');
  rmSync(dir, { recursive: true, force: true });
  cpSync(libDir('base'), dir, { recursive: true });
  assert.equal(check(dir).status, 0);
  const file = join(dir, 'internal', 'webstreams', 'util.js');
  writeFileSync(file, `${readFileSync(file, 'utf8')} `);
  const r = check(dir);
  assert.equal(r.status, 1);
  assert.match(r.stderr, /base check FAILED/);
  assert.match(r.stderr, /internal\/webstreams\/util: differs from the source/);
});

test('layer ranges: a..b, b, and errors', () => {
  const layers = [1, 2, 3].map((index) => ({ index, name: `0${index}-x`, dir: `/l/0${index}-x` }));
  assert.deepEqual(selectLayers(layers, undefined).map((l) => l.index), [1, 2, 3]);
  assert.deepEqual(selectLayers(layers, '2').map((l) => l.index), [1, 2]);
  assert.deepEqual(selectLayers(layers, '2..3').map((l) => l.index), [2, 3]);
  assert.deepEqual(selectLayers(layers, '1..0').map((l) => l.index), []);
  assert.throws(() => selectLayers(layers, '1..4'), /out of range: there are 3 layers/);
  assert.throws(() => selectLayers(layers, 'x'), /LAYERS must look like/);
  assert.throws(() => listLayers(join(ROOT, 'test')), /layer folders are named/);
});
