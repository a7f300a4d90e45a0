// The ordering suite can fail: a lib that fulfils reads or settles writes
// one microtask late is caught by the corpus and by the fuzzer; a deviation
// declared in a layer's PATCH.md turns the difference into a pass; the
// harness's log positions mean what the README says.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PINNED_NODE, ROOT } from '../../tools/lib/paths.ts';
import { resolveLib } from '../../tools/lib/injected.ts';
import { runSide } from '../../tools/ordering/side.ts';
import { lateReadLib, lateWriteLib } from '../helpers/ordering-libs.ts';

const env: NodeJS.ProcessEnv = { ...process.env, TEST_SUMMARY_DIR: '' };
delete env.LAYERS;

const temps: string[] = [];
after(() => { for (const dir of temps) rmSync(dir, { recursive: true, force: true }); });

function tempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  temps.push(dir);
  return dir;
}

/**
 * Runs an ordering tool. Without an explicit --overlay it gets an empty
 * one, so the deviations the real series declares do not excuse a
 * deliberately broken lib.
 */
function tool(name: string, args: string[]) {
  const overlay = args.includes('--overlay') ? [] : ['--overlay', tempDir('ordering-no-layers-')];
  return spawnSync(PINNED_NODE, [join(ROOT, 'tools', name), ...args, ...overlay], { encoding: 'utf8', env, timeout: 180_000 });
}

/** A one-layer overlay whose PATCH.md declares `deviations`. */
function overlayDeclaring(deviations: string[]): string {
  const root = tempDir('ordering-overlay-');
  mkdirSync(join(root, '01-late-read'));
  const front = deviations.map((id) => `deviation: ${id} | reads settle one microtask later on purpose`).join('\n');
  writeFileSync(join(root, '01-late-read', 'PATCH.md'), `---\n${front}\n---\nstream: settle reads later\n\nTest layer.\n`);
  return root;
}

test('harness: positions are phase:tick, nextTick and macrotask work open new phases', async () => {
  const corpus = tempDir('ordering-corpus-');
  mkdirSync(join(corpus, 'probe'));
  writeFileSync(join(corpus, 'probe', 'ticks.js'), `export default {
    'positions': async (t) => {
      t.log('sync');
      t.track('resolved', Promise.resolve(1));
      t.track('two hops', Promise.resolve().then(() => 2));
      process.nextTick(() => t.log('next tick'));
      await t.macrotask();
      t.log('after macrotask');
    },
    'pending': (t) => new Promise(() => {}),
  };\n`);
  const side = await runSide(resolveLib('base'), { kind: 'corpus', corpus });
  assert.deepEqual(side.logs.get('probe/ticks/positions'), [
    '1:0 sync',
    '1:1 resolved fulfilled 1',
    '1:2 two hops fulfilled 2',
    '2:0 next tick',
    '4:1 after macrotask',
    '4:2 body done',
  ]);
  assert.deepEqual(side.logs.get('probe/ticks/pending'), ['4:0 (body still pending)']);
});

test('a lib that fulfils reads one microtask late fails the corpus, naming the scenarios', () => {
  const r = tool('ordering.ts', ['--new', lateReadLib('ordering-late-read')]);
  assert.equal(r.status, 1, r.stdout + r.stderr);
  assert.match(r.stdout, /^DIFFERS reader\/many-pending-reads-fulfilled-in-order \(undeclared\)$/m);
  assert.match(r.stdout, /^ {2}- 1:\d+ read#1 fulfilled \{done:false,value:1\}$/m);
  const summary = /(\d+) identical, 0 declared deviations, (\d+) undeclared differences/.exec(r.stdout);
  assert.ok(summary && Number(summary[2]) > 10, r.stdout.slice(-500));
});

test('declaring the differing scenarios in the layer PATCH.md turns the failure into a pass', () => {
  const lib = lateReadLib('ordering-late-read-declared');
  const failing = tool('ordering.ts', ['--new', lib]);
  const ids = [...failing.stdout.matchAll(/^DIFFERS (\S+) \(undeclared\)$/gm)].map((m) => m[1]);
  assert.ok(ids.length > 10);
  // One extra declaration for a scenario that does not differ: a warning only.
  const stale = 'source/no-source';
  assert.ok(!ids.includes(stale));
  const r = tool('ordering.ts', ['--new', lib, '--overlay', overlayDeclaring([...ids, stale])]);
  assert.equal(r.status, 0, r.stdout.slice(-2000) + r.stderr);
  assert.match(r.stdout, /^ALLOWED reader\/many-pending-reads-fulfilled-in-order \(declared by 01-late-read: reads settle one microtask later on purpose\)$/m);
  assert.match(r.stdout, new RegExp(`0 undeclared differences, 1 stale declarations`));
  assert.match(r.stdout, /warning: 01-late-read declares a deviation for source\/no-source, but its logs are identical/);
  // Declaring only some of them still fails on the rest.
  const partial = tool('ordering.ts', ['--new', lib, '--overlay', overlayDeclaring(ids.slice(1))]);
  assert.equal(partial.status, 1);
  assert.match(partial.stdout, new RegExp(`^DIFFERS ${ids[0].replace(/[/.]/g, '\\$&')} \\(undeclared\\)$`, 'm'));
  // A declaration naming no scenario is a typo: it fails.
  const typo = tool('ordering.ts', ['--new', 'base', '--overlay', overlayDeclaring(['reader/no-such-scenario'])]);
  assert.equal(typo.status, 1);
  assert.match(typo.stdout, /UNKNOWN 01-late-read declares a deviation for 'reader\/no-such-scenario'/);
});

test('fuzz: a lib that settles writes late is caught, minimized, and the saved case is a corpus scenario', () => {
  const lib = lateWriteLib('ordering-late-write');
  const saveDir = tempDir('ordering-fuzz-');
  const corpusDir = join(saveDir, 'fuzz-found');
  const r = tool('fuzz.ts', ['--seed', '1', '--count', '200', '--new', lib, '--minimize', '1', '--save', '--save-dir', corpusDir]);
  assert.equal(r.status, 1, r.stdout + r.stderr);
  const m = /^DIFFERS (fuzz\/seed-1-\d+), minimized from (\d+) to (\d+) ops:$/m.exec(r.stdout);
  assert.ok(m, r.stdout);
  assert.ok(Number(m[3]) <= Number(m[2]));
  assert.match(r.stdout, /w\d\.write#1 fulfilled/);
  const saved = readdirSync(corpusDir);
  assert.equal(saved.length, 1);
  const program = JSON.parse(readFileSync(join(corpusDir, saved[0]), 'utf8'));
  assert.equal(program.ops.length, Number(m[3]));
  // The saved file runs as a scenario of a corpus: differs on the late lib, not on the base.
  const late = tool('ordering.ts', ['--new', lib, '--corpus', saveDir]);
  assert.equal(late.status, 1, late.stdout + late.stderr);
  assert.match(late.stdout, new RegExp(`^DIFFERS fuzz-found/${saved[0].replace('.json', '')} \\(undeclared\\)$`, 'm'));
  assert.equal(tool('ordering.ts', ['--new', 'base', '--corpus', saveDir]).status, 0);
});

test('fuzz: deviations declared as fuzz:<feature> exempt the programs that use the feature', () => {
  const lib = lateReadLib('ordering-late-read-fuzz');
  const overlay = overlayDeclaring(['fuzz:source:default', 'fuzz:source:bytes', 'fuzz:source:from']);
  const r = tool('fuzz.ts', ['--seed', '3', '--count', '200', '--new', lib, '--overlay', overlay]);
  assert.equal(r.status, 0, r.stdout + r.stderr);
  assert.match(r.stdout, /[1-9]\d* declared deviations, 0 differing/);
  const bad = tool('fuzz.ts', ['--seed', '3', '--count', '10', '--new', 'base', '--overlay', overlayDeclaring(['fuzz:nonsense'])]);
  assert.equal(bad.status, 1);
  assert.match(bad.stdout, /UNKNOWN 01-late-read declares 'fuzz:nonsense'/);
});

test('a runaway scenario stops the run and is named', () => {
  const corpus = tempDir('ordering-corpus-');
  writeFileSync(join(corpus, 'loop.js'), `export default {
    'endless-pipe': (t) => {
      const rs = new ReadableStream({ pull: t.fn('pull', 'sync', (c) => c.enqueue(1)) });
      rs.pipeTo(new WritableStream({ write: t.fn('write', 'sync') }));
    },
  };\n`);
  const r = tool('ordering.ts', ['--new', 'base', '--corpus', corpus]);
  assert.equal(r.status, 1);
  assert.match(r.stderr, /scenario loop\/endless-pipe logged over 20000 events \(an endless loop\?\)/);
});

test('bad input stops with a clear message', () => {
  const r = tool('fuzz.ts', ['--count', 'many']);
  assert.equal(r.status, 2);
  assert.match(r.stderr, /--count must be an integer/);
  const bad = tempDir('ordering-corpus-');
  writeFileSync(join(bad, 'Bad Name.js'), 'export default { x: () => {} };\n');
  const badId = tool('ordering.ts', ['--new', 'base', '--corpus', bad]);
  assert.equal(badId.status, 1);
  assert.match(badId.stderr, /scenario id 'Bad Name\/x' must be lower-case words/);
  const missing = tool('ordering.ts', ['--new', '/nonexistent/lib']);
  assert.equal(missing.status, 1);
  assert.match(missing.stderr, /lib '\/nonexistent\/lib' is not built/);
});
