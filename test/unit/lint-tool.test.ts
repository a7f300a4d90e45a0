// tools/lint.ts and the one rule with sites in the base: a site the base
// has (same module, function and target) is counted, not failed; a new one
// fails the lib; --base names the base to compare with.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PINNED_NODE, ROOT } from '../../tools/lib/paths.ts';
import { writeLibDir, type Modules } from '../../tools/lib/libdir.ts';

const ID = 'internal/webstreams/x';
const moduleText = (body: string[]) => [
  "'use strict';",
  '',
  'function setup(state, controller) {',
  '  state.onPull = () => controller;',
  ...body,
  '}',
  '',
  'module.exports = { setup };',
  '',
].join('\n');

function lib(name: string, text: string): string {
  const dir = join(mkdtempSync(join(tmpdir(), 'lint-tool-')), name);
  const modules: Modules = new Map([[ID, text]]);
  writeLibDir(dir, { nodeVersion: 'v0.0.0', origin: 'test', layers: [] }, modules);
  return dir;
}

function lint(...args: string[]) {
  const r = spawnSync(PINNED_NODE, [join(ROOT, 'tools', 'lint.ts'), ...args], { encoding: 'utf8', env: { ...process.env, TEST_SUMMARY_DIR: '' } });
  return { status: r.status, out: r.stdout + r.stderr };
}

test('a site the base has is listed; one it does not have fails', () => {
  const base = lib('base', moduleText([]));
  const same = lib('same', moduleText(['  const bound = () => controller;', '  state.onClose = bound;']));
  const added = lib('added', moduleText(['  state.onClose = () => controller;']));

  const ok = lint('--lib', same, '--base', base);
  assert.equal(ok.status, 0, ok.out);
  assert.match(ok.out, /1\/1 modules clean \(1 old-generation-closure sites as in the base\)/);

  const bad = lint('--lib', added, '--base', base);
  assert.equal(bad.status, 1, bad.out);
  assert.match(bad.out, /x\.js:5: old-generation-closure: .*state\.onClose/);
  assert.doesNotMatch(bad.out, /state\.onPull/);
});
