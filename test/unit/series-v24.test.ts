// The v24.x series kept beside the main one (doc/series-v24.md): its
// configuration, `make pr SERIES=v24` as backport PRs, and the runtime
// injecting a lib into the v24 binary its manifest names.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { readLibDir } from '../../tools/lib/libdir.ts';
import { libDir, ROOT, RUNTIME_REGISTER } from '../../tools/lib/paths.ts';
import { nodeForVersion } from '../../tools/lib/releases.ts';
import { listPatches } from '../../tools/node/series.ts';
import { readSeries, seriesOfRoot } from '../../tools/series/config.ts';
import { tempDir } from '../helpers/node-repo.ts';

test('series v24: lib-overlay-v24 on node@24.21.0, one committed patch per layer, same slugs', () => {
  const s = readSeries('v24');
  assert.equal(s.base, 'node@24.21.0');
  assert.equal(s.prBase, 'v24.x-staging');
  assert.equal(s.titlePrefix, '[v24.x backport] ');
  const patches = listPatches(s.patches);
  assert.ok(s.layers.length > 0);
  assert.deepEqual(patches.map((p) => p.slug), s.layers.map((l) => l.name.replace(/^\d+-/, '')));
  assert.throws(() => readSeries('v0'), /lib-overlay-v0.*does not exist/);
  assert.throws(() => readSeries('../x'), /expected a name/);
  // The root names its series, and only a root beside lib-overlay/ does.
  assert.equal(seriesOfRoot(s.root), 'v24');
  assert.equal(seriesOfRoot('lib-overlay-v24/'), 'v24');
  assert.equal(seriesOfRoot(join(ROOT, 'lib-overlay')), undefined);
});

test('make pr SERIES=v24 (dry run): backport titles, the first PR against v24.x-staging, the v24 results', () => {
  const s = readSeries('v24');
  const out = tempDir('pr-v24');
  const results = tempDir('results-v24');
  // The v24 series' own results, and a main-series one that must not show up.
  writeFileSync(join(results, 'series-v24-wpt.json'), JSON.stringify({ suite: 'series-v24-wpt', passed: 8466, failed: 0 }));
  writeFileSync(join(results, 'series-v24-ordering.json'), JSON.stringify({ suite: 'series-v24-ordering', passed: 2120, failed: 0 }));
  writeFileSync(join(results, 'wpt.json'), JSON.stringify({ suite: 'wpt', passed: 1, failed: 99 }));
  const r = spawnSync(process.execPath, [join(ROOT, 'tools', 'node', 'pr.ts'), '--series', 'v24', '--out', out, '--results', results], {
    encoding: 'utf8', env: { ...process.env, NODE_DIR: '', PR_BASE: '', PATCHES: '', GITHUB_TOKEN: '', SERIES: '' },
  });
  assert.equal(r.status, 0, r.stderr);
  const plan = JSON.parse(readFileSync(join(out, 'plan.json'), 'utf8'));
  assert.equal(plan.mode, 'dry run');
  assert.equal(plan.layers.length, s.layers.length);
  for (const [i, l] of plan.layers.entries()) {
    assert.match(l.title, /^\[v24\.x backport\] stream: /);
    assert.equal(l.base, i === 0 ? 'v24.x-staging' : plan.layers[i - 1].branch);
    assert.match(l.branch, /^webstreams-v24-\d\d-/);
    assert.match(l.patch, /^patches-v24\//);
  }
  const body = readFileSync(join(out, `${s.layers[0].name}.md`), 'utf8');
  assert.match(body, /\| WPT streams, encoding\/streams, compression and Blob#stream\(\) \| 8466 \| 0 \|/);
  assert.match(body, /\| ordering \(differential, base vs patched\) \| 2120 \| 0 \|/);
  assert.doesNotMatch(body, /\| 99 \|/);
  assert.match(r.stderr, /title=.*\[v24\.x backport\] stream: .*base=v24\.x-staging/);
});

test('the runtime injects a lib into the v24 binary its manifest names, and refuses a lib made for another version', () => {
  const node24 = nodeForVersion('v24.21.0');
  const s = readSeries('v24');
  const base = spawnSync(process.execPath, ['-e', `import('${join(ROOT, 'tools', 'lib', 'base-spec.ts')}').then((m) => console.log(m.resolveBase('${s.base}').dir))`], { encoding: 'utf8' });
  assert.equal(base.status, 0, base.stderr);
  const lib = tempDir('lib-v24');
  cpSync(base.stdout.trim(), lib, { recursive: true });
  assert.equal(readLibDir(lib).manifest.nodeVersion, 'v24.21.0');
  // A marker in the injected readablestream.js: seen only if the runtime's copy is the one loaded.
  const file = join(lib, 'internal', 'webstreams', 'readablestream.js');
  writeFileSync(file, `${readFileSync(file, 'utf8')}\nprocess.env.WEBSTREAMS_V24_MARKER = 'injected';\n`);
  const script = "new ReadableStream().getReader(); console.log(process.version, process.env.WEBSTREAMS_V24_MARKER, typeof require('stream/web').ReadableStream)";
  const r = spawnSync(node24, ['--expose-internals', '--require', RUNTIME_REGISTER, '-e', script], {
    encoding: 'utf8', env: { ...process.env, WEBSTREAMS_LIB: lib, WEBSTREAMS_ALLOW_VERSION_MISMATCH: '' },
  });
  assert.equal(r.status, 0, r.stderr);
  assert.equal(r.stdout.trim(), 'v24.21.0 injected function');
  const main = spawnSync(node24, ['--expose-internals', '--require', RUNTIME_REGISTER, '-e', '0'], {
    encoding: 'utf8', env: { ...process.env, WEBSTREAMS_LIB: libDir('base'), WEBSTREAMS_ALLOW_VERSION_MISMATCH: '' },
  });
  assert.equal(main.status, 2);
  assert.match(main.stderr, /was made for Node v26\.\d+\.\d+ but this binary is v24\.21\.0/);
});
