import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PINNED_NODE, ROOT } from '../../tools/lib/paths.ts';

test('profile-top ranks functions by self time', () => {
  const file = join(mkdtempSync(join(tmpdir(), 'profile-')), 'x.cpuprofile');
  const frame = (functionName: string, line: number) => ({ functionName, url: 'file:///lib/x.js', lineNumber: line });
  writeFileSync(file, JSON.stringify({
    nodes: [{ id: 1, callFrame: frame('hot', 9) }, { id: 2, callFrame: frame('', 19) }],
    samples: [1, 1, 1, 2],
    timeDeltas: [1000, 1000, 1000, 1000],
  }));
  const r = spawnSync(PINNED_NODE, [join(ROOT, 'tools', 'profile-top.ts'), file], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  const lines = r.stdout.trim().split('\n');
  assert.match(lines[0], /4 ms sampled/);
  assert.equal(lines[1], '  75.0%  hot x.js:10');
  assert.equal(lines[2], '  25.0%  (anonymous) x.js:20');
});
