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

test('profile-top --by origin sums self time by where the code lives', () => {
  const file = join(mkdtempSync(join(tmpdir(), 'profile-')), 'x.cpuprofile');
  const frame = (functionName: string, url: string) => ({ functionName, url, lineNumber: 0 });
  writeFileSync(file, JSON.stringify({
    nodes: [
      { id: 1, callFrame: frame('pump', 'file:///out/lib/patched/internal/webstreams/readablestream.js') },
      { id: 2, callFrame: frame('enqueue', 'file:///out/lib/patched/internal/webstreams/transformstream.js') },
      { id: 3, callFrame: frame('(garbage collector)', '') },
      { id: 4, callFrame: frame('feed', 'file:///work/node_modules/eventsource-parser/dist/index.js') },
      { id: 5, callFrame: frame('main', 'file:///work/benchmark/real-world/sse.js') },
    ],
    samples: [1, 2, 2, 3, 4, 5, 5, 5],
    timeDeltas: [1000, 1000, 1000, 1000, 1000, 1000, 1000, 1000],
  }));
  const r = spawnSync(PINNED_NODE, [join(ROOT, 'tools', 'profile-top.ts'), file, '--by', 'origin'], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  assert.deepEqual(r.stdout.trim().split('\n').slice(1), [
    '  37.5%  web streams',
    '  37.5%  benchmark',
    '  12.5%  garbage collector',
    '  12.5%  npm packages',
  ]);
  const bad = spawnSync(PINNED_NODE, [join(ROOT, 'tools', 'profile-top.ts'), file, '--by', 'module'], { encoding: 'utf8' });
  assert.equal(bad.status, 2);
  assert.match(bad.stderr, /--by takes function or origin/);
});

test('profile-top --since counts the samples from the first with that function on its stack', () => {
  const file = join(mkdtempSync(join(tmpdir(), 'profile-')), 'x.cpuprofile');
  const frame = (functionName: string) => ({ functionName, url: 'file:///lib/x.js', lineNumber: 0 });
  // setup (1) runs first; pump (3) is called from timed (2), so the first
  // sample with timed on its stack is the one in pump.
  writeFileSync(file, JSON.stringify({
    nodes: [
      { id: 1, callFrame: frame('setup') },
      { id: 2, callFrame: frame('timed'), children: [3] },
      { id: 3, callFrame: frame('pump') },
      { id: 4, callFrame: frame('(garbage collector)') },
    ],
    samples: [1, 4, 1, 3, 4, 1, 3],
    timeDeltas: [1000, 1000, 1000, 1000, 1000, 1000, 1000],
  }));
  const run = (...args: string[]) =>
    spawnSync(PINNED_NODE, [join(ROOT, 'tools', 'profile-top.ts'), file, ...args], { encoding: 'utf8' });
  const r = run('--since', 'timed');
  assert.equal(r.status, 0, r.stderr);
  assert.deepEqual(r.stdout.trim().split('\n'), [
    `${file}: 4 ms sampled since timed`,
    '  50.0%  pump x.js:1',
    '  25.0%  (garbage collector) x.js:1',
    '  25.0%  setup x.js:1',
  ]);
  const missing = run('--since', 'nowhere');
  assert.equal(missing.status, 1);
  assert.match(missing.stderr, /no sample in .* has nowhere on its stack/);
});
