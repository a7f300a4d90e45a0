// Judges random programs: runs a batch on both libs and decides, per
// program, whether it is identical, a declared deviation checked on its
// projections, or a failure (undeclared, or beyond the declared kinds).
//
// A program that uses a `fuzz:<feature>` some layer declares is checked
// against the widest level those declarations allow (tools/ordering/kinds.ts).
// If it does not fit and they also allow `races`, the difference must be a
// race the base lib loses the same way: the base runs the program again with
// one thing a few turns later (each op after the first use of the declared
// feature, the source's own calls from such an enqueue, close or error op
// on, each such call a few ops sooner, each iteration's loop body, an
// async generator source's steps, each pipe's shutdown action
// (tools/ordering/shutdown-hook.ts, where the old lib takes the hook),
// or the result of each user callback that ran; DELAYS turns), then with
// two of them later (PAIR_DELAYS each), then, for the first few programs
// still unexplained, three (TRIPLE_DELAYS each), and one of those runs must fit
// the level against the new lib's run. A pipe
// that moves sooner is, to the operations and callbacks it races, the same
// as those coming later; a lost, reordered or invented chunk, or an error
// delivered as a close, is no run of the base at any timing.
import { availableParallelism } from 'node:os';
import { runSide, unreproducible } from './side.ts';
import { allowedKinds, type Declared } from './deviations.ts';
import { PIPE_OPS, programFeatures, type Program } from './generate.ts';
import { classify, violations, widestLevel, type Level } from './kinds.ts';
import { parseEvent, stripPosition, type ProjectionDiff } from './projections.ts';
import type { Lib } from '../lib/injected.ts';
import { shutdownKey, withShutdownHook } from './shutdown-hook.ts';
import { SOURCE_CALLS } from '../../test/ordering/program.js';

export type Entry = { id: string; program: Program };

export type Outcome =
  | { kind: 'identical' }
  /** Declared and checked: `found` is the narrowest level the difference fits. */
  | { kind: 'declared'; found: Level; by: Declared[] }
  /** Declared with `races`: the base's run with one, two or three things later (`delay`: an op index, `<op>.late`, `<op>.body` or a callback → turns; `<op>.early` → ops) fits `found` against the new lib's run. */
  | { kind: 'raced'; delay: Record<string, number>; found: Level | 'identical'; by: Declared[] }
  /**
   * Only the base hit an internal assertion (an unhandled ERR_INTERNAL_ASSERTION
   * rejection: a bug in Node, not behaviour to keep); without those lines
   * the logs are `found`, within the program's declared level (turns if none).
   */
  | { kind: 'base-assertion'; found: Level | 'identical' }
  /**
   * Declared with `byob-requests`: run with the byte source making the choices
   * it made on the base (`unused` fills enqueued where the new lib showed it a
   * byobRequest), the new lib fits `found` against the base's run (with
   * `delay`'s one thing later where races are allowed too).
   */
  | { kind: 'replayed'; delay: Record<string, number>; unused: number; found: Level | 'identical'; by: Declared[] }
  /** Judged against the state before a later layer range: the new side's run has the base's events (restoredToBase). */
  | { kind: 'restored'; found: 'identical' | 'turns' }
  | { kind: 'undeclared'; found: Level | 'beyond' }
  /**
   * `raced`/`replayed`: a race or byobRequest replay was allowed, and none
   * fits; `triples`: whether witnesses of three things later were tried
   * (false: the run had given them to as many programs as it may);
   * `unreproducible`: a replay fit, but the new lib run again plainly gave
   * another log than the run judged.
   */
  | { kind: 'beyond'; allowed: Level; by: Declared[]; violations: ProjectionDiff[]; raced?: boolean; triples?: boolean; replayed?: boolean; unreproducible?: boolean };

export interface Judged {
  outcomes: Outcome[];
  /** Both sides' logs of the batch (not the race witnesses' runs). */
  logs: [Map<string, string[]>, Map<string, string[]>];
  /** How many programs got witnesses of three. */
  triplesTried: number;
  /** Why the old lib has no pipe-shutdown witnesses, when it has none. */
  noShutdownWitness?: string;
}

/** A program's log on one side; a program that side did not run fails every comparison. */
function logOf(logs: ReadonlyMap<string, string[]>, id: string): string[] {
  return logs.get(id) ?? ['(program missing on this side)'];
}

/** The declarations covering a program: those of every feature it uses. */
export function coveringDeclarations(program: Program, exempt: Map<string, Declared[]>): Declared[] {
  return [...programFeatures(program)].flatMap((f) => exempt.get(f) ?? []);
}

/** The index of the first op using a feature `by` declares (-1 for a source type: it exists before any op). */
function firstUse(program: Program, by: readonly Declared[]): number {
  const features = new Set(by.map((d) => d.scenario.slice('fuzz:'.length)));
  if (features.has(`source:${program.source.type}`)) return -1;
  return program.ops.findIndex((o) => features.has(o.op));
}

/**
 * Each iterate op's loop body (`<op>.body`): a body doing asynchronous work
 * of its own takes turns after each value, which any iteration may race.
 */
function iterationBodies(program: Program): string[] {
  return program.ops.flatMap((o, i) => (o.op === 'iterate' ? [`${i}.body`] : []));
}

/**
 * The source's own controller calls from each enqueue, close or error op on
 * (`<op>.late`), which a slower producer would make later while the
 * program's other ops keep their time, and each such call a few ops sooner
 * (`<op>.early`), as a faster producer would make it.
 */
function sourceCalls(program: Program, after: number): string[] {
  return program.ops.flatMap((o, i) => (i > after && SOURCE_CALLS.has(o.op) ? [`${i}.late`, `${i}.early`] : []));
}

/** Each pipe's shutdown action (`<op>.shutdown` of a pipeTo or pipeThrough op), which a slower pipe would perform later. */
function pipeShutdowns(program: Program): string[] {
  return program.ops.flatMap((o, i) => (PIPE_OPS.includes(o.op) ? [shutdownKey(i)] : []));
}

/** An async generator source's steps (`source.next`), which a slower generator would take later. */
function sourceSteps(program: Program): string[] {
  return program.source.type === 'from' && program.source.fromKind === 'async-generator' ? ['source.next'] : [];
}

/** The user callbacks that ran (`source.pull`, `ts1.transform`, …), in order of first call. */
function callbackNames(lines: readonly string[]): string[] {
  const names = new Set<string>();
  for (const line of lines) {
    const e = parseEvent(stripPosition(line));
    if (e.kind === 'call') names.add(e.owner === e.callback ? e.owner : `${e.owner}.${e.callback}`);
  }
  return [...names];
}

/**
 * Everything of a program that may come later in a race witness, whatever
 * it uses: each op, the source's own calls, each loop body, an async
 * generator's steps, and each user callback that ran in `lines`.
 */
export function raceCandidates(program: Program, lines: readonly string[]): (number | string)[] {
  return [...program.ops.keys(), ...sourceCalls(program, -1), ...iterationBodies(program), ...sourceSteps(program), ...callbackNames(lines)];
}

const INTERNAL_ASSERTION = /^\d+:\d+ unhandled rejection Error\[ERR_INTERNAL_ASSERTION\]/;

/**
 * The outcome of a program in which only the base hit an internal assertion,
 * if without those lines the logs differ within the program's declared level
 * (turns if it has none: the assertion's own turns shift what follows).
 */
export function baseAssertionOutcome(oldLines: readonly string[], newLines: readonly string[], by: readonly Declared[]): Outcome | undefined {
  if (!oldLines.some((l) => INTERNAL_ASSERTION.test(l)) || newLines.some((l) => INTERNAL_ASSERTION.test(l))) return undefined;
  const fixed = oldLines.filter((l) => !INTERNAL_ASSERTION.test(l));
  const level = widestLevel(['turns', ...allowedKinds(by)])!;
  if (violations(level, fixed, newLines).length > 0) return undefined;
  return { kind: 'base-assertion', found: classify(fixed, newLines) as Level | 'identical' };
}

/** How many turns later an op may come, or a callback's result settle, in a race witness. */
export const DELAYS = [1, 2, 3, 5, 8, 13, 21, 34, 55];
/** The delays of each thing in a witness of two: fewer, as the pairs multiply the runs. */
export const PAIR_DELAYS = [1, 2, 3, 5, 8];
/** The delays of each thing in a witness of three: fewer still. */
export const TRIPLE_DELAYS = [1, 2, 8];
/**
 * How many programs a fuzz run gives witnesses of three by default: each
 * takes thousands of runs, and a lib with a real bug leaves many programs
 * unexplained; those past the limit stay beyond, marked as not tried.
 */
export const TRIPLE_PROGRAMS = 2;
const WITNESS_BATCH = 2000;
const PARALLEL = Math.max(1, Math.min(4, availableParallelism()));

interface Racing { index: number; allowed: Level; by: Declared[]; later: (number | string)[] }

/** Every choice of `k` of `items`, in their order. */
function combinations<T>(items: readonly T[], k: number): T[][] {
  if (k === 0) return [[]];
  return items.flatMap((item, i) => combinations(items.slice(i + 1), k - 1).map((rest) => [item, ...rest]));
}

/** Every way to delay each of `things` by one of `turns`. */
function delayings(things: readonly (number | string)[], turns: readonly number[]): Record<string, number>[] {
  return things.reduce<Record<string, number>[]>((partial, what) =>
    partial.flatMap((delay) => turns.map((t) => ({ ...delay, [what]: t }))), [{}]);
}

/** Each thing that may come later, by each of DELAYS turns: the witnesses of one delay. */
function singleDelays(r: Racing): Record<string, number>[] {
  return r.later.flatMap((what) => DELAYS.map((turns) => ({ [what]: turns })));
}

/** `triples`: how many of the programs no pair explains get witnesses of three (the first ones). */
export async function judgePrograms(oldLib: Lib, newLib: Lib, entries: Entry[], exempt: Map<string, Declared[]>,
  { triples = 0 }: { triples?: number } = {}): Promise<Judged> {
  const batch = { kind: 'programs' as const, programs: entries };
  const [a, b] = await Promise.all([runSide(oldLib, batch), runSide(newLib, batch)]);
  // The witnesses run on the old lib with the hook; it runs a program
  // without `<op>.shutdown` as the old lib does.
  const hooked = withShutdownHook(oldLib);
  const witnessLib = hooked.lib ?? oldLib;
  const outcomes: Outcome[] = [];
  const racing: Racing[] = [];
  entries.forEach((e, index) => {
    const x = logOf(a.logs, e.id);
    const y = logOf(b.logs, e.id);
    const found = classify(x, y);
    if (found === 'identical') return outcomes.push({ kind: 'identical' });
    const by = coveringDeclarations(e.program, exempt);
    const assertion = baseAssertionOutcome(x, y, by);
    if (assertion) return outcomes.push(assertion);
    if (by.length === 0) return outcomes.push({ kind: 'undeclared', found });
    const kinds = allowedKinds(by);
    const allowed = widestLevel(kinds)!;
    const wrong = violations(allowed, x, y);
    if (wrong.length === 0) return outcomes.push({ kind: 'declared', found: found as Level, by });
    outcomes.push({ kind: 'beyond', allowed, by, violations: wrong, raced: kinds.has('races') });
    if (!kinds.has('races')) return;
    // Each op that can race the declared feature (those after its first
    // use), the source's own calls from such an op on, each iteration's
    // loop body and each user callback that ran.
    const first = firstUse(e.program, by);
    const later: (number | string)[] = [...e.program.ops.keys()].filter((op) => op > first);
    later.push(...sourceCalls(e.program, first), ...iterationBodies(e.program), ...sourceSteps(e.program), ...callbackNames(y));
    // A pipe started before the feature's first use may still shut down after it.
    if (hooked.lib) later.push(...pipeShutdowns(e.program));
    racing.push({ index, allowed, by, later });
  });
  // One thing later, then, for what none of those explains, two things
  // later (each pair, PAIR_DELAYS each); a program stops at its first witness.
  await witness(witnessLib, entries, b.logs, outcomes, racing.flatMap((r) => singleDelays(r).map((delay) => ({ r, delay }))));
  const unexplained = racing.filter((r) => outcomes[r.index].kind !== 'raced');
  await witness(witnessLib, entries, b.logs, outcomes, unexplained.flatMap((r) => combinations(r.later, 2).flatMap((things) =>
    delayings(things, PAIR_DELAYS).map((delay) => ({ r, delay })))));
  // Then three things later, for the first programs still unexplained.
  const left = racing.filter((r) => outcomes[r.index].kind !== 'raced');
  const tried = left.slice(0, triples);
  await witness(witnessLib, entries, b.logs, outcomes, tried.flatMap((r) => combinations(r.later, 3).flatMap((things) =>
    delayings(things, TRIPLE_DELAYS).map((delay) => ({ r, delay })))));
  left.forEach((r, i) => {
    const o = outcomes[r.index];
    if (o.kind === 'beyond') o.triples = i < tried.length;
  });
  // Where a race is allowed too, the base's choices may come from a run
  // with one thing later (a pipe that reads sooner also runs ahead of the
  // program's own operations).
  const timings = new Map(racing.map((r) => [r.index, singleDelays(r)]));
  await replayByobChoices(witnessLib, newLib, entries, outcomes, timings, b.logs);
  return { outcomes, logs: [a.logs, b.logs], triplesTried: tried.length, ...(hooked.lib ? {} : { noShutdownWitness: hooked.why }) };
}

/** A byte source that fills a byobRequest where it finds one. */
function fillsByobRequests(program: Program): boolean {
  return program.source.type === 'bytes' && (program.source.byteFill === 'respond' || program.source.byteFill === 'respondWithNewView');
}

const FILL = / fill#(\d+) (byobRequest|enqueue)$/;
const UNUSED = / fill#\d+ left a byobRequest unused$/;

/**
 * For each program still beyond its level whose declarations allow
 * `byob-requests` and whose byte source fills byobRequests: the base runs it
 * again logging which fills found a request, then the new lib runs it with
 * the source enqueueing where the base's did (program.byobReplay). If that
 * run fits the level against the base's, the new lib treats what the source
 * gives it as the base does; the original difference is the source's own
 * choice, which follows when the pipe reads, and that is the lib's to decide.
 * A fill that found a request on the base but none on the new lib still
 * differs (its line says so). `timings`: for a program whose declarations
 * allow races, the base's runs with one thing later (program.delay) tried
 * after the plain one. The replay is a rerun of the new lib, so a program
 * it explains must also give `newLogs`' log (the run judged) when run
 * again plainly; one that does not stays beyond, marked `unreproducible`.
 */
export async function replayByobChoices(oldLib: Lib, newLib: Lib, entries: Entry[], outcomes: Outcome[],
  timings: ReadonlyMap<number, Record<string, number>[]>, newLogs: ReadonlyMap<string, string[]>): Promise<void> {
  const variants = entries.flatMap((e, index) => {
    const o = outcomes[index];
    if (o.kind !== 'beyond' || !allowedKinds(o.by).has('byob-requests') || !fillsByobRequests(e.program)) return [];
    o.replayed = true;
    return [{}, ...(timings.get(index) ?? [])].map((delay, k) => ({ index, delay, id: `${e.id} replay#${k}` }));
  });
  if (variants.length === 0) return;
  const recorded = await runSide(oldLib, {
    kind: 'programs',
    programs: variants.map((v) => ({ id: v.id, program: { ...entries[v.index].program, delay: v.delay, byobReplay: [] } })),
  });
  const choicesOf = (lines: readonly string[]) => {
    const fills: boolean[] = [];
    for (const line of lines) {
      const m = FILL.exec(line);
      if (m) fills[Number(m[1])] = m[2] === 'byobRequest';
    }
    return fills;
  };
  const replayed = await runSide(newLib, {
    kind: 'programs',
    programs: variants.map((v) => ({ id: v.id, program: { ...entries[v.index].program, byobReplay: choicesOf(logOf(recorded.logs, v.id)) } })),
  });
  const beyond = new Map<number, Outcome & { kind: 'beyond' }>();
  for (const v of variants) {
    const o = outcomes[v.index];
    if (o.kind !== 'beyond') continue;
    const lines = logOf(replayed.logs, v.id);
    const unused = lines.filter((l) => UNUSED.test(l)).length;
    const x = logOf(recorded.logs, v.id);
    const y = lines.filter((l) => !UNUSED.test(l));
    // With nothing left unused the replay is a plain rerun: it explains nothing.
    if (unused === 0 || violations(o.allowed, x, y).length > 0) continue;
    beyond.set(v.index, o);
    outcomes[v.index] = { kind: 'replayed', delay: v.delay, unused, found: classify(x, y) as Level | 'identical', by: o.by };
  }
  const unsteady = await unreproducible(newLib, [...beyond.keys()].map((index) => entries[index]), newLogs);
  for (const [index, o] of beyond) if (unsteady.includes(entries[index].id)) outcomes[index] = { ...o, unreproducible: true };
}

/**
 * For a layer range that starts later: a failing program whose new-side
 * run has the base's events (only their positions may differ) is one the
 * range brings back to the base after an earlier layer changed it. The
 * race witness, which delays things on the old side only, cannot show
 * that; this compares with the base itself, so nothing the base does not
 * do passes. Returns how many it found.
 */
export async function restoredToBase(baseRef: Lib, entries: Entry[], outcomes: Outcome[], newLogs: ReadonlyMap<string, string[]>): Promise<number> {
  const open = entries.flatMap((_, i) => (outcomes[i].kind === 'undeclared' || outcomes[i].kind === 'beyond' ? [i] : []));
  if (open.length === 0) return 0;
  const run = await runSide(baseRef, { kind: 'programs', programs: open.map((i) => entries[i]) });
  let restored = 0;
  for (const i of open) {
    const found = classify(logOf(run.logs, entries[i].id), logOf(newLogs, entries[i].id));
    if (found !== 'identical' && found !== 'turns') continue;
    outcomes[i] = { kind: 'restored', found };
    restored++;
  }
  return restored;
}

/**
 * Runs each variant on the base, in batches (as many at once as there are
 * cores, up to four), unless its program already has a witness; the first
 * that fits is one.
 */
async function witness(oldLib: Lib, entries: Entry[], newLogs: Map<string, string[]>, outcomes: Outcome[],
  variants: { r: Racing; delay: Record<string, number> }[]): Promise<void> {
  await runWitnesses(oldLib, variants.map((v) => ({ ...v, entry: entries[v.r.index] })),
    (v) => outcomes[v.r.index].kind === 'raced',
    (v, x) => {
      const y = newLogs.get(v.entry.id)!;
      if (violations(v.r.allowed, x, y).length === 0) {
        outcomes[v.r.index] = { kind: 'raced', delay: v.delay, found: classify(x, y) as Level | 'identical', by: v.r.by };
      }
    });
}

/**
 * Runs each witness (its program with `delay`'s things later) on `lib`,
 * WITNESS_BATCH programs a process and PARALLEL processes at once, and
 * hands its log to `check` in the witnesses' order. A program that is
 * `explained` (by an earlier witness) is neither run again nor checked.
 */
export async function runWitnesses<W extends { entry: Entry; delay: Record<string, number> }>(lib: Lib, witnesses: W[],
  explained: (w: W) => boolean, check: (w: W, log: string[]) => void): Promise<void> {
  const step = WITNESS_BATCH * PARALLEL;
  for (let from = 0; from < witnesses.length; from += step) {
    const open = witnesses.slice(from, from + step)
      .filter((w) => !explained(w))
      .map((w) => ({ w, id: `${w.entry.id} ${JSON.stringify(w.delay)}` }));
    if (open.length === 0) continue;
    const batches: (typeof open)[] = [];
    for (let i = 0; i < open.length; i += WITNESS_BATCH) batches.push(open.slice(i, i + WITNESS_BATCH));
    const runs = await Promise.all(batches.map((batch) => runSide(lib, {
      kind: 'programs',
      programs: batch.map(({ w, id }) => ({ id, program: { ...w.entry.program, delay: w.delay } })),
    })));
    batches.forEach((batch, i) => {
      for (const { w, id } of batch) {
        if (!explained(w)) check(w, logOf(runs[i].logs, id));
      }
    });
  }
}
