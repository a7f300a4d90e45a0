// `make fuzz`: randomized differential testing. Generates COUNT random
// stream programs from SEED (tools/ordering/generate.ts), runs them on both
// libs (one process per side per batch), and judges the logs
// (tools/ordering/judge-programs.ts): a program that differs passes only if
// it uses a declared fuzz feature and differs only as the declaration allows.
// A failing program is minimized (ddmin over its op list) and printed; with
// --save it becomes a scenario of the corpus (test/ordering/scenarios/fuzz-found/).
// --from N starts at program N of the seed, so that a program a long run
// reported (`fuzz/seed-S-N`) can be run and minimized again on its own.
// --drops lets transform()s drop some of their chunks (another set of
// programs for the same seeds; reported as `fuzz/drops-seed-S-N`).
// --coding lets pipeThrough() go through TextEncoderStream and
// TextDecoderStream as well (reported as `fuzz/coding-seed-S-N`).
// --triples N: how many programs no pair of things later explains get
// witnesses of three (default 2; each can take a minute).
//
//   node tools/fuzz.ts [--seed N] [--from N] [--count N] [--old base] [--new patched] [--overlay DIR]
//                      [--batch N] [--minimize N] [--triples N] [--save] [--save-dir DIR]
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { intFlag, parseFlags } from './lib/args.ts';
import { OUT } from './lib/paths.ts';
import { reportSummary } from './lib/summary.ts';
import { compareLogs, renderDiff } from './ordering/diff.ts';
import { fuzzExemptions } from './ordering/deviations.ts';
import { FEATURES, generateProgram, optionNames, programName, type Op, type Program, type SourceSpec } from './ordering/generate.ts';
import { DELAYS, PAIR_DELAYS, TRIPLE_DELAYS, TRIPLE_PROGRAMS, judgePrograms, restoredToBase, type Entry, type Outcome } from './ordering/judge-programs.ts';
import { LEVELS } from './ordering/kinds.ts';
import { ddmin } from './ordering/minimize.ts';
import { renderProjectionDiff, renderProjectionDiffs } from './ordering/projections.ts';
import { describeBaseFixes } from './ordering/base-fixes.ts';
import { resolveSides } from './ordering/sides.ts';
import { delaysShutdown } from './ordering/shutdown-hook.ts';
import { CORPUS } from './ordering/side.ts';

const USAGE = 'node tools/fuzz.ts [--seed N] [--from N] [--count N] [--drops] [--coding] [--old base|<dir>] [--new patched|<dir>] [--overlay DIR] [--batch N] [--minimize N] [--triples N] [--save] [--save-dir DIR]';
const { values } = parseFlags({
  seed: { type: 'string', default: '1' },
  from: { type: 'string', default: '0' },
  count: { type: 'string', default: '1000' },
  old: { type: 'string', default: 'base' },
  new: { type: 'string', default: 'patched' },
  overlay: { type: 'string' },
  batch: { type: 'string', default: '500' },
  minimize: { type: 'string', default: '3' },
  triples: { type: 'string', default: String(TRIPLE_PROGRAMS) },
  save: { type: 'boolean', default: false },
  'save-dir': { type: 'string', default: join(CORPUS, 'fuzz-found') },
  quiet: { type: 'boolean', default: false },
  drops: { type: 'boolean', default: false },
  coding: { type: 'boolean', default: false },
}, USAGE);

const seed = intFlag('fuzz', 'seed', values.seed, 0, USAGE);
const first = intFlag('fuzz', 'from', values.from, 0, USAGE);
const count = intFlag('fuzz', 'count', values.count, 1, USAGE);
const end = first + count;
const batchSize = intFlag('fuzz', 'batch', values.batch, 1, USAGE);
const maxMinimize = intFlag('fuzz', 'minimize', values.minimize, 0, USAGE);
// How many programs of the run get witnesses of three (the first that need them).
const maxTriples = intFlag('fuzz', 'triples', values.triples, 0, USAGE);
const options = { drops: values.drops === true, coding: values.coding === true };
const label = [options.drops && ' with drops', options.coding && ' with encoding streams'].filter(Boolean).join(',');
const suite = ['fuzz', ...optionNames(options)].join('-');

/** Drops optional source settings one at a time while the program still fails. */
async function simplifySource(source: SourceSpec, ops: Op[], test: (programs: Program[]) => Promise<boolean[]>): Promise<SourceSpec> {
  let current = source;
  for (;;) {
    const keys = (Object.keys(current) as (keyof SourceSpec)[]).filter((k) => k !== 'type');
    const candidates = keys.map((k) => {
      const copy = { ...current };
      delete copy[k];
      return copy;
    });
    if (candidates.length === 0) return current;
    const flags = await test(candidates.map((s) => ({ source: s, ops })));
    const hit = flags.indexOf(true);
    if (hit < 0) return current;
    current = candidates[hit];
  }
}

const failed = (o: Outcome) => o.kind === 'undeclared' || o.kind === 'beyond';
const LISTED = 10;

/** The first thing that differs in a failing program, on one line. */
function summarize(o: Outcome, oldName: string, newName: string): string {
  if (o.kind === 'undeclared') return `undeclared${o.found === 'beyond' ? '' : ` (a declaration of kind ${o.found} would cover it)`}`;
  if (o.kind !== 'beyond') return '';
  const replay = o.unreproducible ? 'a byobRequest replay only, not the run judged' : 'no byobRequest replay';
  const unexplained = [o.raced ? 'no race' : '', o.replayed ? replay : ''].filter(Boolean).join(' and ');
  const untried = o.raced && o.triples === false ? '; three things later not tried' : '';
  return `beyond ${o.allowed}${unexplained ? ` (${unexplained} explains it${untried})` : ''}: ${renderProjectionDiff(o.violations[0], oldName, newName)}`;
}

/** Why a failing program fails, and what differs in it, for the report. */
function explain(o: Outcome, oldName: string, newName: string): string {
  if (o.kind === 'undeclared') {
    return o.found === 'beyond' ? 'it uses no declared fuzz feature, and its projections differ too'
      : `it uses no declared fuzz feature (a declaration of kind ${o.found} would cover it)`;
  }
  if (o.kind !== 'beyond') return '';
  const by = o.by.map((d) => `fuzz:${d.scenario.slice(5)} [${d.kinds.join(', ')}] by ${d.layer}`).join('; ');
  const three = o.triples ? `, three up to ${TRIPLE_DELAYS.at(-1)} each` : `; three not tried: the run gives them to ${maxTriples} program(s), --triples`;
  const race = o.raced ? `; and no run of ${oldName} with one, two or three of its ops, source calls, loop bodies, pipes' shutdowns or callbacks later (one up to ${DELAYS.at(-1)} turns, two up to ${PAIR_DELAYS.at(-1)} each${three}) fits it, so no race explains it` : '';
  const replayRun = `${newName} run with the byte source making the choices it made on ${oldName} (enqueueing where it found no byobRequest)`;
  const replay = !o.replayed ? ''
    : o.unreproducible ? `; and ${replayRun} fits it, but ${newName} run again without the replay gives another log than the run judged, so the replay says nothing of that run`
    : `; and ${replayRun} does not fit it either`;
  return [`it differs beyond what its declarations allow (${by})${race}${replay}; what differs, judged as ${o.allowed}:`,
    renderProjectionDiffs(o.violations, oldName, newName)].join('\n');
}

async function main(): Promise<void> {
  const { oldLib, newLib, declared, fixes, laterFixes, baseRef } = resolveSides(values.old!, values.new!, values.overlay);
  if (fixes.length) console.log(describeBaseFixes(fixes));
  if (laterFixes.length) console.log(describeBaseFixes(laterFixes, 'both sides'));
  const { exempt, unknown } = fuzzExemptions(declared, FEATURES);
  const started = Date.now();
  let identical = 0;
  const checked = new Map<string, number>(); // narrowest kind found → declared programs
  let raced = 0;
  let racedByShutdown = 0;
  let replayed = 0;
  let baseAssertions = 0;
  let restored = 0;
  const failing: (Entry & { outcome: Outcome })[] = [];
  // Every judgement, the minimizer's too, also asks the base itself
  // (restoredToBase) when the range starts later, so that a program is
  // never minimized towards one the run as a whole would pass. Only the
  // run's own verdicts use witnesses of three: the minimizer's would take
  // minutes a step.
  let triplesLeft = maxTriples;
  let noShutdownWitness: string | undefined;
  const judge = async (entries: Entry[], triples = 0) => {
    const judged = await judgePrograms(oldLib, newLib, entries, exempt, { triples });
    noShutdownWitness ??= judged.noShutdownWitness;
    if (baseRef) await restoredToBase(baseRef, entries, judged.outcomes, judged.logs[1]);
    return judged;
  };

  for (let from = first; from < end; from += batchSize) {
    const entries: Entry[] = [];
    for (let i = from; i < Math.min(end, from + batchSize); i++) entries.push({ id: `fuzz/${programName(seed, i, options)}`, program: generateProgram(seed, i, options) });
    const { outcomes, triplesTried } = await judge(entries, triplesLeft);
    triplesLeft -= triplesTried;
    entries.forEach((e, i) => {
      const o = outcomes[i];
      if (o.kind === 'identical') identical++;
      else if (o.kind === 'restored') restored++;
      else if (o.kind === 'declared') checked.set(o.found, (checked.get(o.found) ?? 0) + 1);
      else if (o.kind === 'raced') {
        raced++;
        if (delaysShutdown(o.delay)) racedByShutdown++;
      }
      else if (o.kind === 'replayed') replayed++;
      else if (o.kind === 'base-assertion') baseAssertions++;
      else failing.push({ ...e, outcome: o });
    });
    process.stderr.write(`fuzz seed ${seed}${label}: ${Math.min(end, from + batchSize) - first}/${count} programs, ${failing.length} differing (${((Date.now() - started) / 1000).toFixed(1)} s)\n`);
  }

  // The shortest programs first: they minimize fastest and read best.
  failing.sort((a, b) => a.program.ops.length - b.program.ops.length);
  // One line per failing program, naming the first view that differs.
  for (const f of failing.slice(0, LISTED)) console.log(`FAILS ${f.id} (${f.program.ops.length} ops): ${summarize(f.outcome, oldLib.name, newLib.name)}`);
  if (failing.length > LISTED) console.log(`… and ${failing.length - LISTED} more`);
  for (const entry of failing.slice(0, maxMinimize)) {
    process.stderr.write(`minimizing ${entry.id} (${entry.program.ops.length} ops)…\n`);
    const test = async (programs: Program[]) =>
      (await judge(programs.map((program, i) => ({ id: `min/${i}`, program })))).outcomes.map(failed);
    const ops = await ddmin(entry.program.ops, (candidates) => test(candidates.map((ops) => ({ source: entry.program.source, ops }))),
      (size) => process.stderr.write(`  ${size} ops\n`));
    const program: Program = { source: await simplifySource(entry.program.source, ops, test), ops };
    const { outcomes, logs } = await judge([{ id: entry.id, program }]);
    const diff = compareLogs(logs[0], logs[1]).differing[0];
    console.log(`\nDIFFERS ${entry.id}, minimized from ${entry.program.ops.length} to ${ops.length} ops:`);
    console.log(JSON.stringify(program));
    if (failed(outcomes[0])) console.log(explain(outcomes[0], oldLib.name, newLib.name));
    else {
      // The lib carried state over from earlier programs of the batch.
      console.log(`(this program passes when run alone; ${entry.id} failed in its batch because ${explain(entry.outcome, oldLib.name, newLib.name)})`);
    }
    if (diff) console.log(renderDiff(diff, oldLib.name, newLib.name));
    const name = `${entry.id.slice('fuzz/'.length)}.json`;
    const dir = values.save ? values['save-dir']! : join(OUT, 'ordering', 'fuzz-failures');
    mkdirSync(dir, { recursive: true });
    const file = join(dir, name);
    writeFileSync(file, `${JSON.stringify({ note: `minimized by make fuzz SEED=${seed}${label}: differs between ${oldLib.name} and ${newLib.name}`, ...program }, null, 2)}\n`);
    console.log(values.save ? `saved as scenario ${file}` : `written to ${file} (make fuzz … --save, or copy it under test/ordering/scenarios/fuzz-found/, to add it to the corpus)`);
  }
  if (failing.length > maxMinimize) console.log(`\n${failing.length - maxMinimize} more differing programs not minimized: ${failing.slice(maxMinimize).map((e) => e.id).join(', ')}`);
  for (const d of unknown) console.log(`\nUNKNOWN ${d.layer} declares 'fuzz:${d.scenario.slice(5)}': fuzz features are ${FEATURES.join(', ')}`);

  // Every declared program was checked on its projections: against the
  // base's run, or, for a race the declarations allow, against a run of the
  // base with one, two or three ops, source calls, loop bodies, pipes' shutdowns or callbacks later.
  if (noShutdownWitness) console.log(`\nno pipe-shutdown witnesses on ${oldLib.name} (its pipes lack the hook's anchors): ${noShutdownWitness}`);
  const onProjections = [...checked.values()].reduce((n, k) => n + k, 0);
  const declaredCount = onProjections + raced + replayed;
  const kinds = LEVELS.filter((l) => checked.has(l)).map((l) => `${checked.get(l)} ${l}`).join(', ');
  const shutdownText = racedByShutdown ? ` (${racedByShutdown} with a pipe's shutdown later)` : '';
  const replayText = replayed ? `, ${replayed} byte sources that fit once replayed with the choices they made on ${oldLib.name}` : '';
  const checkedText = declaredCount === 0 ? '' :
    ` (${declaredCount} checked on their projections: ${kinds ? `${kinds}, ` : ''}${raced} races the base shows with one, two or three ops, source calls, loop bodies, pipes' shutdowns or callbacks later${shutdownText}${replayText})`;
  if (declaredCount) console.log(`\n${declaredCount} programs differ in declared fuzz features (${[...exempt.keys()].join(', ')}), each checked against the declared kinds`);

  const failedCount = failing.length + unknown.length;
  // A Node bug on the base side is not a behaviour the new lib must keep; the rest of those programs was compared.
  const restoredText = restored === 0 || !baseRef ? '' : `, ${restored} that these layers bring back to ${baseRef.name}'s events (up to turns)`;
  const assertionText = baseAssertions === 0 ? '' :
    `, ${baseAssertions} where only ${oldLib.name} hit an internal assertion (ERR_INTERNAL_ASSERTION, a bug in Node) and the rest is alike`;
  const fromText = first === 0 ? '' : ` from #${first}`;
  console.log(`\nfuzz: seed ${seed}${label}, ${count} programs${fromText}, ${oldLib.name} vs ${newLib.name}: ${identical} identical, ${declaredCount} declared deviations${checkedText}${assertionText}${restoredText}, ${failing.length} differing (${((Date.now() - started) / 1000).toFixed(1)} s)`);
  reportSummary({ suite, passed: identical + declaredCount + baseAssertions + restored, failed: failedCount, notes: `seed ${seed}${label}${fromText}` });
  if (failedCount > 0) process.exitCode = 1;
}

main().catch((err: Error) => {
  console.error(`fuzz: ${err.message}`);
  reportSummary({ suite, passed: 0, failed: 1, notes: err.message.split('\n')[0] });
  process.exitCode = 1;
});
