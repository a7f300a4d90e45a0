// Anchored wiring of the native binding: the insertion rules on small
// lists, every error, and the real files of the fixture Node tree.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { bestSlot, bindingSites, wireText, wireTree, type Site } from '../../tools/node/wiring.ts';
import { ensureNodeTree } from '../../tools/node/fixture-tree.ts';
import { tempDir } from '../helpers/node-repo.ts';

const MACRO: Site = { file: 'x.h', anchor: '#define LIST(V)', kind: 'macro-list', value: 'webstreams' };
const GYP: Site = { file: 'node.gyp', anchor: "'node_sources': [", kind: 'gyp-list', value: 'src/node_webstreams.cc' };
const line = (text: string) => `${text}${' '.repeat(39 - text.length)}\\`;

test('bestSlot: the slot that breaks the order least, the later one on a tie', () => {
  assert.equal(bestSlot(['a', 'c', 'e'], 'd'), 2);
  assert.equal(bestSlot(['b', 'c'], 'a'), 0);
  assert.equal(bestSlot(['b', 'c'], 'z'), 2);
  // Unsorted tails (as in node_external_reference.h): v8 zlib wasm worker.
  assert.equal(bestSlot(['v8', 'zlib', 'wasm_web_api', 'worker'], 'webstreams'), 3);
  // One stray early entry does not pull the new one to the end.
  assert.equal(bestSlot(['a', 'm', 'p', 'x', 'b'], 'n'), 2);
});

test('macro lists: first, middle and last position keep the backslash column; a second run changes nothing', () => {
  const text = [line('#define LIST(V)'), line('  V(b)'), line('  V(d)'), '  V(f)', '', 'rest'].join('\n');
  const middle = wireText(text, { ...MACRO, value: 'c' });
  assert.equal(middle.text.split('\n')[2], line('  V(c)'));
  assert.equal(middle.edit.line, 3);
  assert.equal(middle.edit.after, 'b');
  const first = wireText(text, { ...MACRO, value: 'a' });
  assert.equal(first.text.split('\n')[1], line('  V(a)'));
  assert.equal(first.edit.after, undefined);
  const last = wireText(text, { ...MACRO, value: 'g' });
  assert.deepEqual(last.text.split('\n').slice(3, 6), [line('  V(f)'), '  V(g)', '']);
  const again = wireText(last.text, { ...MACRO, value: 'g' });
  assert.equal(again.text, last.text);
  assert.equal(again.edit.status, 'present');
});

test('gyp lists: only same-folder .cc entries are compared; headers and subfolders are skipped', () => {
  const text = ["    'node_sources': [", "      'src/api/zz.cc',", "      'src/node_a.cc',", "      'src/node_z.cc',", "      'src/large_pages/a.cc',", "      'src/b.h',", '    ],', "    'other': [ 'src/node_y.cc' ],"].join('\n');
  const r = wireText(text, GYP);
  assert.deepEqual(r.text.split('\n').slice(2, 5), ["      'src/node_a.cc',", "      'src/node_webstreams.cc',", "      'src/node_z.cc',"]);
  assert.equal(wireText(r.text, GYP).edit.status, 'present');
});

test('errors name the file and the anchor: missing, ambiguous, empty list, unclosed list', () => {
  assert.throws(() => wireText('nothing here\n', MACRO), /x\.h: anchor `#define LIST\(V\)` not found/);
  assert.throws(() => wireText(`${line('#define LIST(V)')}\n  V(a)\n${line('#define LIST(V)')}\n  V(b)\n`, MACRO), /appears 2 times \(lines 1, 3\)/);
  assert.throws(() => wireText(`${line('#define LIST(V)')}\n  OTHER(a)\n`, MACRO), /no V\(\.\.\.\) entries follow the anchor/);
  assert.throws(() => wireText("'node_sources': [\n  'src/a.cc',\n", GYP), /node\.gyp: the list opened at line 1 is never closed/);
  assert.throws(() => wireText("'node_sources': [\n  'deps/a.cc',\n],\n", GYP), /no 'src\/\*\.cc' entries follow/);
});

test('wireTree checks every site before writing any: a missing anchor in one file leaves the others untouched', () => {
  const { dir: full } = ensureNodeTree();
  const dir = tempDir('wiring');
  mkdirSync(join(dir, 'src'));
  cpSync(join(full, 'node.gyp'), join(dir, 'node.gyp'));
  cpSync(join(full, 'src', 'node_binding.cc'), join(dir, 'src', 'node_binding.cc'));
  const refs = readFileSync(join(full, 'src', 'node_external_reference.h'), 'utf8');
  writeFileSync(join(dir, 'src', 'node_external_reference.h'), refs.replace('EXTERNAL_REFERENCE_BINDING_LIST_BASE', 'EXTERNAL_REFERENCE_LIST_RENAMED'));
  assert.throws(() => wireTree(dir), /src\/node_external_reference\.h: anchor `#define EXTERNAL_REFERENCE_BINDING_LIST_BASE\(V\)` not found/);
  assert.equal(readFileSync(join(dir, 'node.gyp'), 'utf8'), readFileSync(join(full, 'node.gyp'), 'utf8'));
  assert.equal(readFileSync(join(dir, 'src', 'node_binding.cc'), 'utf8'), readFileSync(join(full, 'src', 'node_binding.cc'), 'utf8'));
  rmSync(join(dir, 'src', 'node_external_reference.h'));
  assert.throws(() => wireTree(dir), /src\/node_external_reference\.h is missing/);
});

test('the fixture tree (Debian nodejs source): all three sites wire in sorted position, once', () => {
  const { dir: full } = ensureNodeTree();
  const dir = tempDir('wiring');
  for (const site of bindingSites()) cpSync(join(full, site.file), join(dir, site.file), { recursive: true });
  const edits = wireTree(dir);
  assert.deepEqual(edits.map((e) => [e.file, e.status, e.after]), [
    ['node.gyp', 'inserted', 'src/node_watchdog.cc'],
    ['src/node_binding.cc', 'inserted', 'watchdog'],
    ['src/node_external_reference.h', 'inserted', 'wasm_web_api'],
  ]);
  for (const e of edits) {
    const lines = readFileSync(join(dir, e.file), 'utf8').split('\n');
    assert.equal(lines[e.line - 1].replace(/\s*\\$/, '').trim(), e.text);
    // Exactly one line more than the original.
    assert.equal(lines.length, readFileSync(join(full, e.file), 'utf8').split('\n').length + 1);
  }
  assert.ok(wireTree(dir).every((e) => e.status === 'present'));
});
