// The WPT runner catches a broken lib, and judges results exactly.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { PINNED_NODE, ROOT } from '../../tools/lib/paths.ts';
import { judge, regressions, type Expectations } from '../../tools/wpt/expectations.ts';
import { parseMeta, resolveScript } from '../../tools/wpt/files.ts';
import type { FileResult } from '../../tools/wpt/protocol.ts';
import { dropEverySecondChunk, variantLib } from '../helpers/libs.ts';

const file = (path: string, harness: string, subtests: [string, string][]): FileResult => ({
  path, harness, ms: 1, subtests: subtests.map(([name, status]) => ({ name, status })),
});

const EXP: Expectations = {
  source: 'test',
  skip: {},
  fail: { 'a.any.js': { reason: 'known', subtests: ['known bad'] } },
};

test('judge: passes, expected failures, unexpected failures and passes', () => {
  const v = judge([
    file('a.any.js', 'OK', [['good', 'PASS'], ['known bad', 'FAIL'], ['new bad', 'TIMEOUT']]),
    file('b.any.js', 'ERROR', [['fine', 'PASS']]),
  ], EXP);
  assert.equal(v.passed, 2);
  assert.equal(v.expectedFailures, 1);
  assert.deepEqual(v.unexpectedFailures.map((f) => `${f.path}:${f.name}:${f.status}`),
    ['a.any.js:new bad:TIMEOUT', 'b.any.js:(harness):ERROR']);
  assert.deepEqual(v.unexpectedPasses, []);
  const fixed = judge([file('a.any.js', 'OK', [['known bad', 'PASS']])], EXP);
  assert.deepEqual(fixed.unexpectedPasses.map((f) => f.name), ['known bad']);
});

test('judge: an expected failure that never ran is reported', () => {
  const v = judge([file('a.any.js', 'OK', [['good', 'PASS']])], EXP);
  assert.deepEqual(v.unexpectedFailures.map((f) => f.status), ['MISSING']);
});

test('regressions: only what patched adds, including subtests it lost', () => {
  const base = [file('a.any.js', 'OK', [['x', 'PASS'], ['y', 'FAIL'], ['z', 'PASS']])];
  const patched = [file('a.any.js', 'OK', [['x', 'FAIL'], ['y', 'FAIL']])];
  assert.deepEqual(regressions(base, patched).map((f) => `${f.name}:${f.status}`), ['x:FAIL', 'z:MISSING']);
  assert.deepEqual(regressions(base, base), []);
});

test('META parsing and script resolution follow WPT', () => {
  const meta = parseMeta('// META: global=window,worker\n// META: script=../resources/rs-utils.js\n// META: script=/common/gc.js\n');
  assert.deepEqual(meta.get('global'), ['window,worker']);
  assert.deepEqual(meta.get('script'), ['../resources/rs-utils.js', '/common/gc.js']);
  assert.equal(resolveScript('/w', '/w/streams/x/t.any.js', '../resources/a.js'), '/w/streams/resources/a.js');
  assert.equal(resolveScript('/w', '/w/streams/x/t.any.js', '/common/gc.js'), '/w/common/gc.js');
  assert.equal(resolveScript('/w', '/w/streams/t.any.js', '/resources/WebIDLParser.js'), '/w/resources/webidl2/lib/webidl2.js');
});

test('a lib whose enqueue drops every second chunk fails the WPT run with a readable report', () => {
  const broken = variantLib('drop-chunks', dropEverySecondChunk);
  const r = spawnSync(PINNED_NODE, [join(ROOT, 'tools', 'wpt.ts'), '--lib', 'base', '--lib', broken,
    '--filter', 'readable-streams/general', '--timeout', '3000', '--quiet'], { encoding: 'utf8', timeout: 120_000 });
  assert.equal(r.status, 1, r.stdout + r.stderr);
  assert.match(r.stdout, /REGRESSIONS: .*test-drop-chunks fails \d+ subtests the base passes/);
  assert.match(r.stdout, /readable-streams\/general\.any\.js :: .+ \[(FAIL|TIMEOUT)\]/);
  assert.match(r.stdout, /base: \d+ passed, 0 expected failures, 0 unexpected failures/);
});

test('the folders of the streams built on TransformStream run too, named by folder', () => {
  const broken = variantLib('drop-chunks', dropEverySecondChunk);
  const r = spawnSync(PINNED_NODE, [join(ROOT, 'tools', 'wpt.ts'), '--lib', 'base', '--lib', broken,
    '--dir', 'encoding/streams', '--dir', 'compression', '--filter', 'split', '--timeout', '3000', '--quiet'],
  { encoding: 'utf8', timeout: 120_000 });
  assert.equal(r.status, 1, r.stdout + r.stderr);
  assert.match(r.stdout, /WPT encoding\/streams @ \w{8}, compression @ \w{8} .*, 2 files run/);
  assert.match(r.stdout, /REGRESSIONS: .*test-drop-chunks fails \d+ subtests the base passes/);
  assert.match(r.stdout, /encoding\/streams\/decode-split-character\.any\.js :: .+ \[(FAIL|TIMEOUT)\]/);
  assert.match(r.stdout, /compression\/decompression-split-chunk\.any\.js :: .+ \[(FAIL|TIMEOUT)\]/);
  assert.match(r.stdout, /base: \d+ passed, 0 expected failures, 0 unexpected failures/);
});
