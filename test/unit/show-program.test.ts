// tools/show-program.ts: one program on several sides, with what differs.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { PINNED_NODE, ROOT } from '../../tools/lib/paths.ts';

const show = (...args: string[]) => spawnSync(PINNED_NODE, [join(ROOT, 'tools', 'show-program.ts'), ...args], { encoding: 'utf8' });

test('a saved program runs on each side; the report names what differs, or that nothing does', () => {
  const dir = mkdtempSync(join(tmpdir(), 'show-program-'));
  try {
    const file = join(dir, 'program.json');
    writeFileSync(file, JSON.stringify({
      note: 'a reader reads two chunks from a pull source',
      source: { type: 'default', pull: 'sync', pullEnqueue: 1, pullCloseAfter: 2, chunks: 'number' },
      ops: [{ op: 'getReader', r: 0 }, { op: 'read', r: 0 }, { op: 'read', r: 0 }, { op: 'wait', n: 2 }],
    }));
    const same = show(file, '--lib', 'base', '--lib', 'patched');
    assert.equal(same.status, 0, same.stderr);
    assert.match(same.stdout, /^==== base$/m);
    assert.match(same.stdout, /^==== patched$/m);
    assert.match(same.stdout, /r0\.read#2 fulfilled/);
    assert.match(same.stdout, /base and patched agree on every projection/);
    // Fix 9's program (seed 1 #3398): the base settles a branch's closed promise otherwise.
    const differs = show('--seed', '1', '--index', '3398', '--lib', 'base', '--reference');
    assert.equal(differs.status, 0, differs.stderr);
    assert.match(differs.stdout, /base vs reference:\n\s+settlement of r2\.closed#1/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('bad input stops with the usage', () => {
  for (const args of [['--seed', '1'], ['--seed', '1', '--index', '2', '--delay', '{"5":0}'], ['--seed', '1', '--index', 'x']]) {
    const r = show(...args);
    assert.equal(r.status, 2, args.join(' '));
    assert.match(r.stderr, /usage: node tools\/show-program\.ts/);
  }
});
