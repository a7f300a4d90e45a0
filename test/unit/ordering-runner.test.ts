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
import { project } from '../../tools/ordering/projections.ts';
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

/** A one-layer overlay whose PATCH.md declares `deviations` (`id` or `id | kinds`; kinds default to queue-levels). */
function overlayDeclaring(deviations: string[]): string {
  const root = tempDir('ordering-overlay-');
  mkdirSync(join(root, '01-late-read'));
  const front = deviations.map((d) => `deviation: ${d.includes(' | ') ? d : `${d} | queue-levels`} | reads settle one microtask later on purpose`).join('\n');
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

test('harness: its logs feed every projection (callbacks with desiredSize, chunks, settlements, final states)', async () => {
  const corpus = await runSide(resolveLib('base'), { kind: 'corpus', filter: 'pipe/pass-through-source-errors-to-sink' });
  const p = project(corpus.logs.get('pipe/pass-through-source-errors-to-sink')!);
  assert.deepEqual(p.callbacks.get('sink'), [
    'write("c1", WritableStreamDefaultController{aborted:false,desiredSize:0})',
    'write("c2", WritableStreamDefaultController{aborted:false,desiredSize:0})',
    'write("c3", WritableStreamDefaultController{aborted:false,desiredSize:0})',
    'abort(Error("source error"))',
  ]);
  assert.match(p.callbacks.get('source')![0], /^pull\(ReadableStreamDefaultController\{desiredSize:1\}\)$/);
  assert.deepEqual(p.chunks.get('sink'), ['"c1"', '"c2"', '"c3"']);
  assert.deepEqual(p.settlements.get('pipeTo'), ['rejected Error("source error")']);
  // Streams the scenario constructs are named by kind and order; pipeThrough's TransformStream by its sides.
  assert.deepEqual([...p.finals], [
    ['ReadableStream#1', ['errored Error("source error")']],
    ['TransformStream#1.readable', ['errored Error("source error")']],
    ['TransformStream#1.writable', ['errored Error("source error")']],
    ['WritableStream#1', ['errored Error("source error")']],
  ]);
  // A random program names its streams as its ops do, tee branches and pipe outputs included.
  const program = { source: { type: 'default', pull: 'sync', pullCloseAfter: 2 }, ops: [
    { op: 'tee', r: 0 }, { op: 'pipeThrough', r: 1, transform: { transform: 'sync' } }, { op: 'pipeTo', r: 3, sink: { write: 'sync' } },
    { op: 'getReader', r: 2 }, { op: 'read', r: 2 }, { op: 'iterate', r: 0, n: 1, exit: 'end' },
  ] };
  const side = await runSide(resolveLib('base'), { kind: 'programs', programs: [{ id: 'p', program }] });
  const q = project(side.logs.get('p')!);
  assert.deepEqual([...q.finals.keys()], ['r0', 'r1', 'r2', 'ts1.writable', 'r3', 'w0']);
  assert.deepEqual(q.chunks.get('ts1'), ['"c1"', '"c2"']);
  assert.deepEqual(q.chunks.get('w0'), ['"c1"', '"c2"']);
  assert.deepEqual(q.chunks.get('r2.read'), ['"c1"']);
  assert.deepEqual(q.settlements.get('pipeTo#1'), ['fulfilled undefined']);
  assert.deepEqual(q.finals.get('w0'), ['closed']);
});

test('harness: a from() source logs the iterator step that ends it, once, whatever the iterable', async () => {
  const kinds = ['array', 'generator', 'async-generator', 'iterable-return', 'promises'];
  const programs = kinds.flatMap((fromKind) => [
    { id: `${fromKind} piped`, program: { source: { type: 'from', fromKind, count: 2 }, ops: [{ op: 'pipeTo', r: 0, sink: { write: 'sync' } }] } },
    // Read once only: the iteration never ends.
    { id: `${fromKind} read once`, program: { source: { type: 'from', fromKind, count: 2 }, ops: [{ op: 'read', r: 0 }] } },
  ]);
  const { logs } = await runSide(resolveLib('base'), { kind: 'programs', programs });
  for (const fromKind of kinds) {
    const piped = project(logs.get(`${fromKind} piped`)!);
    assert.deepEqual(piped.callbacks.get('source'), ['next closed r0'], fromKind);
    assert.deepEqual(piped.chunks.get('w0'), ['"c1"', '"c2"'], fromKind);
    assert.deepEqual(piped.finals.get('r0'), ['closed'], fromKind);
    const once = project(logs.get(`${fromKind} read once`)!);
    assert.equal(once.callbacks.get('source'), undefined, fromKind);
    assert.deepEqual(once.finals.get('r0'), ['readable'], fromKind);
  }
});

test('a lib that fulfils reads one microtask late fails the corpus, naming the scenarios', () => {
  const r = tool('ordering.ts', ['--new', lateReadLib('ordering-late-read')]);
  assert.equal(r.status, 1, r.stdout + r.stderr);
  assert.match(r.stdout, /^DIFFERS reader\/many-pending-reads-fulfilled-in-order \(undeclared; a declaration of kind \S+ would cover it\)$/m);
  assert.match(r.stdout, /^ {2}- 1:\d+ read#1 fulfilled \{done:false,value:1\}$/m);
  const summary = /(\d+) identical, 0 declared deviations \(0 checked on their projections, 0 beyond their declared kinds\), (\d+) undeclared differences/.exec(r.stdout);
  assert.ok(summary && Number(summary[2]) > 10, r.stdout.slice(-500));
});

test('declaring the differing scenarios with their kinds turns the failure into a pass; a wrong kind does not', () => {
  const lib = lateReadLib('ordering-late-read-declared');
  const failing = tool('ordering.ts', ['--new', lib]);
  // The runner says which kind would cover each difference, or that none would.
  const covered = [...failing.stdout.matchAll(/^DIFFERS (\S+) \(undeclared; a declaration of kind (\S+) would cover it\)$/gm)].map((m) => [m[1], m[2]]);
  const beyond = [...failing.stdout.matchAll(/^DIFFERS (\S+) \(undeclared; its projections differ too\)$/gm)].map((m) => m[1]);
  assert.ok(covered.length > 10);
  assert.ok(covered.some(([, kind]) => kind === 'turns') && covered.some(([, kind]) => kind === 'interleaving'));
  // Two reads of one reader settling in the other order is no timing difference.
  assert.deepEqual(beyond, ['source/pull-after-start-async-enqueue']);
  // One extra declaration for a scenario that does not differ: a warning only.
  const stale = 'source/no-source';
  assert.ok(!covered.some(([id]) => id === stale));
  const declarations = [...covered.map(([id, kind]) => `${id} | ${kind}`), ...beyond, stale];
  const r = tool('ordering.ts', ['--new', lib, '--overlay', overlayDeclaring(declarations)]);
  assert.equal(r.status, 1, r.stdout.slice(-2000) + r.stderr);
  assert.match(r.stdout, /^ALLOWED reader\/many-pending-reads-fulfilled-in-order as \S+: its projections are the same \(declared by 01-late-read \[\S+\]: reads settle one microtask later on purpose\)$/m);
  // Declared, and still failing: the reads' values reach the reader in another order.
  assert.match(r.stdout, /^DIFFERS source\/pull-after-start-async-enqueue beyond its declared kinds \(declared queue-levels by 01-late-read \[queue-levels\]: .*\); what differs:$/m);
  assert.match(r.stdout, /^ {4}chunks received by read \(2 entries\), first difference at #1: - "x" {2}\+ "y"$/m);
  assert.match(r.stdout, new RegExp(`\\(${covered.length} checked on their projections: .*, 1 beyond their declared kinds\\), 0 undeclared differences, 1 stale declarations`));
  assert.match(r.stdout, /warning: 01-late-read declares a deviation for source\/no-source, but its logs are identical/);
  // Without the scenario no kind covers, the declarations make the run pass.
  const pass = tool('ordering.ts', ['--new', lib, '--filter', 'reader/', '--overlay', overlayDeclaring(declarations)]);
  assert.equal(pass.status, 0, pass.stdout.slice(-2000) + pass.stderr);
  assert.match(pass.stdout, /0 beyond their declared kinds\), 0 undeclared differences/);
  // A kind narrower than the difference fails, naming the kind it has.
  const [needsInterleaving] = covered.find(([, kind]) => kind === 'interleaving')!;
  const narrow = tool('ordering.ts', ['--new', lib, '--filter', needsInterleaving, '--overlay', overlayDeclaring([`${needsInterleaving} | turns`])]);
  assert.equal(narrow.status, 1);
  assert.match(narrow.stdout, new RegExp(`^DIFFERS ${needsInterleaving.replace(/[/.]/g, '\\$&')} beyond its declared kinds \\(declared turns`, 'm'));
  assert.match(narrow.stdout, /^ {4}order of all events/m);
  // Declaring only some of them still fails on the rest.
  const partial = tool('ordering.ts', ['--new', lib, '--overlay', overlayDeclaring(declarations.slice(1))]);
  assert.equal(partial.status, 1);
  assert.match(partial.stdout, new RegExp(`^DIFFERS ${covered[0][0].replace(/[/.]/g, '\\$&')} \\(undeclared`, 'm'));
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
  assert.match(late.stdout, new RegExp(`^DIFFERS fuzz-found/${saved[0].replace('.json', '')} \\(undeclared; `, 'm'));
  assert.equal(tool('ordering.ts', ['--new', 'base', '--corpus', saveDir]).status, 0);
  // --from runs that one program again, by its index, on its own.
  const index = m[1].split('-').pop()!;
  const again = tool('fuzz.ts', ['--seed', '1', '--from', index, '--count', '1', '--new', lib, '--minimize', '0']);
  assert.equal(again.status, 1, again.stdout + again.stderr);
  assert.match(again.stdout, new RegExp(`^FAILS ${m[1]} \\(`, 'm'));
  assert.match(again.stdout, new RegExp(`fuzz: seed 1, 1 programs from #${index}, .*: 0 identical, .*1 differing`));
});

test('fuzz: deviations declared as fuzz:<feature> cover the programs that use the feature, checked on their projections', () => {
  const lib = lateReadLib('ordering-late-read-fuzz');
  const overlay = overlayDeclaring(['fuzz:source:default', 'fuzz:source:bytes', 'fuzz:source:from']);
  const r = tool('fuzz.ts', ['--seed', '3', '--count', '200', '--new', lib, '--overlay', overlay, '--minimize', '1']);
  // Most programs only see reads settle later; a program whose reads settle
  // in another order, or whose own ops now race the reads, still fails.
  const m = /(\d+) identical, (\d+) declared deviations \((\d+) checked on their projections: [^)]*, 0 races the base shows with one, two or three ops, source calls, loop bodies, pipes' shutdowns or callbacks later\), (\d+) differing/.exec(r.stdout);
  assert.ok(m, r.stdout.slice(-3000));
  assert.ok(Number(m[2]) > 10);
  assert.equal(m[3], m[2]);
  assert.equal(Number(m[1]) + Number(m[2]) + Number(m[4]), 200);
  assert.equal(r.status, Number(m[4]) > 0 ? 1 : 0);
  if (Number(m[4]) > 0) assert.match(r.stdout, /^FAILS fuzz\/seed-3-\d+ \(\d+ ops\): beyond queue-levels: (callbacks of|chunks received by|settlement of|final state of|event) /m);
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
  const from = tool('fuzz.ts', ['--from', 'x']);
  assert.equal(from.status, 2);
  assert.match(from.stderr, /--from must be an integer >= 0, not 'x'/);
  const bad = tempDir('ordering-corpus-');
  writeFileSync(join(bad, 'Bad Name.js'), 'export default { x: () => {} };\n');
  const badId = tool('ordering.ts', ['--new', 'base', '--corpus', bad]);
  assert.equal(badId.status, 1);
  assert.match(badId.stderr, /scenario id 'Bad Name\/x' must be lower-case words/);
  const missing = tool('ordering.ts', ['--new', '/nonexistent/lib']);
  assert.equal(missing.status, 1);
  assert.match(missing.stderr, /lib '\/nonexistent\/lib' is not built/);
});
