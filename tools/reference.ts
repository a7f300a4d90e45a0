// `make reference`: a lib against the reference implementation of the
// Streams Standard, on what may not change whatever the turns
// (tools/ordering/reference.ts).
//
//   node tools/reference.ts [--lib patched|base|<dir> | --series NAME] [--filter TEXT]
//       Every corpus scenario; a difference must be declared in
//       test/ordering/reference-differences.json, or for --series (the
//       whole series lib-overlay-NAME/) in lib-overlay-NAME/reference-differences.json.
//   node tools/reference.ts [--lib …] --seed S --count N [--drops] [--without OP,…] [--base LIB] [--listed N] [--members]
//       Random programs of the fuzz generator, to look for bugs. A
//       differing program fails if a run of it again, after other
//       programs, gives another log (the witnesses below rerun the lib).
//       Otherwise it passes if a race explains it, if it pipes and
//       differs only in a pipe's manner (kinds.ts teardown-writes), or if
//       the lib does there exactly what the base does, on time or with one
//       thing later on the base or on the reference (--base; by default
//       the stock base of the lib's series: a difference of Node's,
//       listed, not the series'), or, without --base, if the lib does
//       there what the stock base with one of its layers' fixes does, one
//       whose base-fix.json names a reference reason
//       (tools/ordering/base-fixes.ts). The rest fail,
//       grouped by what differs first (N groups; three programs named a
//       group, or with --members all of them).
//       --without leaves out programs with any of the ops named; by
//       default response (undici's Response, built on Node's own stream
//       classes); --without '' leaves out none.
//       With --series, the series' whole lib (suite reference-fuzz-NAME).
import { join } from 'node:path';
import { parseFlags, intFlag } from './lib/args.ts';
import { resolveBase } from './lib/base-spec.ts';
import { baseFixes, referenceFixes, withBaseFixes, type ReferenceFix } from './ordering/base-fixes.ts';
import { resolveLib, type Lib } from './lib/injected.ts';
import { listLayers } from './lib/layers.ts';
import { LIB_OVERLAY } from './lib/paths.ts';
import { reportSummary } from './lib/summary.ts';
import { generateProgram, programName, type Program } from './ordering/generate.ts';
import { renderProjectionDiffs, type ProjectionDiff } from './ordering/projections.ts';
import {
  asBase, asBaseWitnesses, asFix, checkFixReasons, codingPrograms, judgeAgainstReference, pipeManner,
  raceWitnesses, readReferenceDifferences, referenceDiffs, REFERENCE_DIFFERENCES,
} from './ordering/reference.ts';
import { REFERENCE, runSide, unreproducible, type Batch } from './ordering/side.ts';
import { readSeries, seriesStateLib } from './series/config.ts';

const USAGE = 'node tools/reference.ts [--lib patched|base|<dir> | --series NAME] [--filter TEXT] | [--seed S --count N [--drops] [--without OP,…] [--base LIB] [--listed N] [--members]]';
const { values } = parseFlags({
  lib: { type: 'string' },
  series: { type: 'string' },
  filter: { type: 'string' },
  seed: { type: 'string' },
  count: { type: 'string', default: '1000' },
  drops: { type: 'boolean', default: false },
  without: { type: 'string', default: 'response' },
  base: { type: 'string' },
  listed: { type: 'string', default: '20' },
  members: { type: 'boolean', default: false },
}, USAGE);

if (values.series !== undefined && values.lib !== undefined) {
  console.error(`reference: give --lib or --series, not both\nusage: ${USAGE}`);
  process.exit(2);
}
const series = values.series === undefined ? undefined : readSeries(values.series);
/** The suite make test counts: reference, reference-fuzz, reference-<series>, reference-fuzz-<series>. */
const SUITE = `reference${values.seed === undefined ? '' : '-fuzz'}${series ? `-${series.name}` : ''}`;

async function runBoth(batch: Batch) {
  const resolved = resolveLib(series ? seriesStateLib(series, series.layers.length, '') : values.lib ?? 'patched');
  // A series' lib is a directory; its reports name the series.
  const lib = series ? { ...resolved, name: `the ${series.name} series` } : resolved;
  const [mine, ref] = await Promise.all([runSide(lib, batch), runSide(REFERENCE, batch)]);
  return { lib, mine, ref };
}

async function corpus(): Promise<number> {
  const file = series ? join(series.root, 'reference-differences.json') : REFERENCE_DIFFERENCES;
  const declared = readReferenceDifferences(file);
  const { lib, mine, ref } = await runBoth({ kind: 'corpus', filter: values.filter });
  if (mine.logs.size === 0) throw new Error(`no scenario selected${values.filter ? ` by --filter ${values.filter}` : ''}`);
  const coding = [...codingPrograms()].filter((id) => mine.logs.has(id));
  for (const id of coding) {
    mine.logs.delete(id);
    ref.logs.delete(id);
  }
  if (coding.length) console.log(`not judged: ${coding.length} saved program(s) with encoding streams, which the reference implementation lacks: ${coding.join(', ')}`);
  const selected = values.filter ? new Map([...declared].filter(([id]) => mine.logs.has(id))) : declared;
  const v = judgeAgainstReference(mine.logs, ref.logs, selected);
  for (const [id, diffs] of v.undeclared) {
    const allowed = declared.get(id)?.projections;
    console.log(`\nDIFFERS ${id} from the reference${allowed ? ` beyond its declared ${allowed.join(', ')}` : ' (undeclared)'}:`);
    console.log(renderProjectionDiffs(diffs, lib.name, 'reference'));
  }
  for (const id of v.stale) console.log(`\nSTALE ${id}: declared in ${file}, but ${lib.name} agrees with the reference now; drop the entry`);
  for (const id of v.unknown) console.log(`\nUNKNOWN ${id}: declared in ${file}, but no scenario of the corpus`);
  const failed = v.undeclared.size + v.stale.length + v.unknown.length;
  const notJudged = coding.length ? `, ${coding.length} with encoding streams not judged` : '';
  console.log(`\nreference: ${mine.logs.size} scenarios, ${lib.name} (${mine.ms} ms) vs the reference implementation (${ref.ms} ms): ` +
    `${v.agree.length} agree, ${v.declared.length} declared differences, ${v.undeclared.size} undeclared, ${v.stale.length} stale, ${v.unknown.length} unknown${notJudged}`);
  reportSummary({ suite: SUITE, passed: v.agree.length + v.declared.length, failed, notes: `${v.declared.length} declared differences${notJudged}` });
  return failed;
}

/**
 * What the lib's differences from the reference are checked against
 * (asBase, asFix): --base; otherwise the stock base of the lib's series
 * (for --series NAME its own, for the main series the pinned one), none
 * for the stock base itself. A difference one of the lib's fixes makes
 * must then be that fix's declared one (judgedFixes).
 */
function baseLib(lib: Lib): Lib | undefined {
  if (values.base !== undefined) return resolveLib(values.base);
  if (series) {
    const base = resolveBase(series.base);
    return { name: `base ${base.nodeVersion}`, dir: base.dir };
  }
  const base = resolveLib('base');
  return lib.dir === base.dir ? undefined : base;
}

/**
 * The fixes of the lib's layers that declare a reference reason, for the
 * judge to try one at a time on the stock base: the series' for --series,
 * the main series' for the main lib; none with --base, which may have
 * them already. Each must name a reason the series'
 * reference-differences.json defines.
 */
function judgedFixes(): ReferenceFix[] {
  if (values.base !== undefined) return [];
  const layers = series ? series.layers : (values.lib ?? 'patched') === 'patched' ? listLayers(LIB_OVERLAY) : [];
  return checkFixReasons(referenceFixes(baseFixes(layers)), series ? join(series.root, 'reference-differences.json') : REFERENCE_DIFFERENCES);
}

/** What a difference is, without its values: groups programs that differ alike. */
function signature(d: ProjectionDiff): string {
  const shape = (list: string[]) => (d.at < list.length ? list[d.at] : '(nothing)')
    .replace(/"(?:[^"\\]|\\.)*"/g, 's').replace(/\d+/g, 'N').replace(/\(.*\)/s, '(…)');
  return `${d.projection} of ${d.key.replace(/\d+/g, 'N')}: ${shape(d.old)} / ${shape(d.new)}`;
}

async function programs(): Promise<number> {
  const seed = intFlag('reference', 'seed', values.seed, 0, USAGE);
  const count = intFlag('reference', 'count', values.count, 1, USAGE);
  const listed = intFlag('reference', 'listed', values.listed, 0, USAGE);
  const without = new Set(values.without.split(',').filter(Boolean));
  const entries: { id: string; program: Program }[] = [];
  const options = { drops: values.drops };
  for (let i = 0; i < count; i++) {
    const program = generateProgram(seed, i, options);
    if (!program.ops.some((o) => without.has(o.op))) entries.push({ id: `fuzz/${programName(seed, i, options)}`, program });
  }
  if (entries.length === 0) throw new Error(`--without ${values.without} leaves no program of the ${count}`);
  const { lib, mine, ref } = await runBoth({ kind: 'programs', programs: entries });
  const diffsOf = new Map(entries.map((e) => [e.id, referenceDiffs(mine.logs.get(e.id) ?? [], ref.logs.get(e.id) ?? [])]));
  const differing = entries.filter((e) => diffsOf.get(e.id)!.length > 0);
  process.stderr.write(`${differing.length} of ${entries.length} programs differ; running them again, then looking for runs with one thing later that agree…\n`);
  const unsteady = await unreproducible(lib, differing, mine.logs);
  const steady = differing.filter((e) => !unsteady.includes(e.id));
  const raced = await raceWitnesses(lib, steady, mine.logs, ref.logs);
  const unraced = steady.filter((e) => !raced.has(e.id));
  const manner = new Set(unraced.filter((e) => pipeManner(e.program, mine.logs.get(e.id)!, ref.logs.get(e.id)!)).map((e) => e.id));
  const rest = unraced.filter((e) => !manner.has(e.id));
  const base = baseLib(lib);
  const likeBase = new Set<string>();
  let likeBaseRaced = 0;
  /** Program id → the layer whose declared fix explains it. */
  const likeFix = new Map<string, ReferenceFix>();
  if (rest.length && base && base.dir !== lib.dir) {
    const run = await runSide(base, { kind: 'programs', programs: rest });
    for (const e of rest) if (asBase(e.program, mine.logs.get(e.id)!, run.logs.get(e.id) ?? [], ref.logs.get(e.id)!)) likeBase.add(e.id);
    const later = await asBaseWitnesses(base, rest.filter((e) => !likeBase.has(e.id)), mine.logs, run.logs, ref.logs);
    likeBaseRaced = later.size;
    for (const id of later.keys()) likeBase.add(id);
    for (const fix of judgedFixes()) {
      const left = rest.filter((e) => !likeBase.has(e.id) && !likeFix.has(e.id));
      if (left.length === 0) break;
      const fixed = await runSide(withBaseFixes(base, fix.fixes, `${base.name}+${fix.layer}`), { kind: 'programs', programs: left });
      for (const e of left)
        if (asFix(e.program, mine.logs.get(e.id)!, run.logs.get(e.id) ?? [], fixed.logs.get(e.id) ?? [], ref.logs.get(e.id)!)) likeFix.set(e.id, fix);
    }
  }
  const groups = new Map<string, { id: string; diffs: ProjectionDiff[] }[]>();
  for (const { id } of rest.filter((e) => !likeBase.has(e.id) && !likeFix.has(e.id))) {
    const diffs = diffsOf.get(id)!;
    const key = signature(diffs[0]);
    groups.set(key, [...(groups.get(key) ?? []), { id, diffs }]);
  }
  const sorted = [...groups].sort((a, b) => b[1].length - a[1].length);
  const name = (ids: string[]) => (values.members ? `members: ${ids.join(', ')}` : `e.g. ${ids.slice(0, 3).join(', ')}`);
  for (const [key, members] of sorted.slice(0, listed)) {
    console.log(`\n${members.length}× ${key}\n  ${name(members.map((m) => m.id))}`);
    console.log(renderProjectionDiffs(members[0].diffs, lib.name, 'reference', 3));
  }
  if (sorted.length > listed) console.log(`\n… ${sorted.length - listed} more groups (--listed)`);
  if (unsteady.length) console.log(`\n${unsteady.length} give another log when run again, after other programs (the lib's run depends on what ran before it)\n  ${name(unsteady)}`);
  if (base && likeBase.size) {
    const later = likeBaseRaced ? `, ${likeBaseRaced} of them with one thing some turns later on ${base.name} or on the reference` : '';
    console.log(`\n${likeBase.size} differ from the reference as ${base.name} does (the base's own differences${later})\n  ${name([...likeBase])}`);
  }
  for (const layer of new Set([...likeFix.values()].map((f) => f.layer))) {
    const ids = [...likeFix].filter(([, f]) => f.layer === layer).map(([id]) => id);
    console.log(`\n${ids.length} differ from the reference as ${base!.name} with the fix of ${layer} does (its declared reason: ${likeFix.get(ids[0])!.reason})\n  ${name(ids)}`);
  }
  const bySide = (side: string) => [...raced.values()].filter((w) => w.side === side).length;
  const unexplained = rest.length - likeBase.size - likeFix.size;
  const failed = unexplained + unsteady.length;
  const asFixes = likeFix.size ? `${likeFix.size} as one fix does, ` : '';
  const skipped = count - entries.length;
  console.log(`\nreference: seed ${seed}${values.drops ? ' (drops)' : ''}, ${entries.length} programs${skipped ? ` (${skipped} with ${[...without].join('/')} left out)` : ''}, ` +
    `${lib.name} vs the reference implementation: ${entries.length - differing.length} agree, ${unsteady.length ? `${unsteady.length} not reproducible, ` : ''}${raced.size} agree once one thing comes some turns later ` +
    `(${bySide('lib')} on ${lib.name}, ${bySide('reference')} on the reference), ${manner.size} up to a pipe's manner, ` +
    `${base ? `${likeBase.size} as ${base.name} does, ` : ''}${asFixes}${unexplained} differ in ${groups.size} groups`);
  reportSummary({
    suite: SUITE, passed: entries.length - failed, failed,
    notes: `seed ${seed}, ${unsteady.length ? `${unsteady.length} not reproducible, ` : ''}${raced.size} agree up to a race, ${manner.size} up to a pipe's manner${base ? `, ${likeBase.size} as ${base.name} does` : ''}${likeFix.size ? `, ${likeFix.size} as one fix does` : ''}`,
  });
  return failed;
}

(values.seed === undefined ? corpus() : programs()).then((failed) => {
  if (failed > 0) process.exitCode = 1;
}, (err: Error) => {
  console.error(`reference: ${err.message}`);
  reportSummary({ suite: SUITE, passed: 0, failed: 1, notes: err.message.split('\n')[0] });
  process.exitCode = 1;
});
