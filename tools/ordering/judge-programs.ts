// Judges random programs: runs a batch on both libs and decides, per
// program, whether it is identical, a declared deviation checked on its
// projections, or a failure (undeclared, or beyond the declared kinds).
//
// A program that uses a `fuzz:<feature>` some layer declares is checked
// against the widest level those declarations allow (tools/ordering/kinds.ts).
// If it does not fit and they also allow `races`, the difference must be a
// race the base lib loses the same way: the base runs the program again with
// one thing a few turns later (each op after the first use of the declared
// feature, each iteration's loop body, or the result of each user callback
// that ran; DELAYS turns), and
// one of those runs must fit the level against the new lib's run. A pipe
// that moves sooner is, to the operations and callbacks it races, the same
// as those coming later; a lost, reordered or invented chunk, or an error
// delivered as a close, is no run of the base at any timing.
import { runSide } from './side.ts';
import { allowedKinds, type Declared } from './deviations.ts';
import { programFeatures, type Program } from './generate.ts';
import { classify, violations, widestLevel, type Level } from './kinds.ts';
import { parseEvent, stripPosition, type ProjectionDiff } from './projections.ts';
import type { Lib } from '../lib/injected.ts';

export type Entry = { id: string; program: Program };

export type Outcome =
  | { kind: 'identical' }
  /** Declared and checked: `found` is the narrowest level the difference fits. */
  | { kind: 'declared'; found: Level; by: Declared[] }
  /** Declared with `races`: the base's run with `later` (an op index, `<op>.body` or a callback) `turns` later fits `found` against the new lib's run. */
  | { kind: 'raced'; later: number | string; turns: number; found: Level | 'identical'; by: Declared[] }
  /**
   * Only the base hit an internal assertion (an unhandled ERR_INTERNAL_ASSERTION
   * rejection: a bug in Node, not behaviour to keep); without those lines
   * the logs are `found`, within the program's declared level (turns if none).
   */
  | { kind: 'base-assertion'; found: Level | 'identical' }
  | { kind: 'undeclared'; found: Level | 'beyond' }
  /** `raced`: a race was allowed, but no run of the base with an op or callback later fits. */
  | { kind: 'beyond'; allowed: Level; by: Declared[]; violations: ProjectionDiff[]; raced?: boolean };

export interface Judged {
  outcomes: Outcome[];
  /** Both sides' logs of the batch (not the race witnesses' runs). */
  logs: [Map<string, string[]>, Map<string, string[]>];
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

/** The user callbacks that ran (`source.pull`, `ts1.transform`, …), in order of first call. */
function callbackNames(lines: readonly string[]): string[] {
  const names = new Set<string>();
  for (const line of lines) {
    const e = parseEvent(stripPosition(line));
    if (e.kind === 'call') names.add(e.owner === e.callback ? e.owner : `${e.owner}.${e.callback}`);
  }
  return [...names];
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
export const DELAYS = [1, 2, 3, 5, 8, 13, 21];
const WITNESS_BATCH = 2000;

export async function judgePrograms(oldLib: Lib, newLib: Lib, entries: Entry[], exempt: Map<string, Declared[]>): Promise<Judged> {
  const batch = { kind: 'programs' as const, programs: entries };
  const [a, b] = await Promise.all([runSide(oldLib, batch), runSide(newLib, batch)]);
  const outcomes: Outcome[] = [];
  const racing: { index: number; allowed: Level; by: Declared[] }[] = [];
  entries.forEach((e, index) => {
    const x = a.logs.get(e.id) ?? ['(program missing on this side)'];
    const y = b.logs.get(e.id) ?? ['(program missing on this side)'];
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
    if (kinds.has('races')) racing.push({ index, allowed, by });
  });
  if (racing.length) {
    // Each op that can race the declared feature (those after its first
    // use), each iteration's loop body and each user callback that ran, each
    // delay, run on the base in batches; a program stops at its first
    // witness.
    const variants = racing.flatMap((r) => {
      const { program, id } = entries[r.index];
      const later: (number | string)[] = [...program.ops.keys()].filter((op) => op > firstUse(program, r.by));
      later.push(...iterationBodies(program), ...callbackNames(b.logs.get(id)!));
      return later.flatMap((what) => DELAYS.map((turns) => ({
        id: `${id} ${what}+${turns}`, what, turns, r, program: { ...program, delay: { [what]: turns } },
      })));
    });
    for (let from = 0; from < variants.length; from += WITNESS_BATCH) {
      const open = variants.slice(from, from + WITNESS_BATCH).filter((v) => outcomes[v.r.index].kind !== 'raced');
      if (open.length === 0) continue;
      const witnesses = await runSide(oldLib, { kind: 'programs', programs: open.map(({ id, program }) => ({ id, program })) });
      for (const v of open) {
        if (outcomes[v.r.index].kind === 'raced') continue;
        const x = witnesses.logs.get(v.id) ?? ['(program missing on this side)'];
        const y = b.logs.get(entries[v.r.index].id)!;
        if (violations(v.r.allowed, x, y).length === 0) {
          outcomes[v.r.index] = { kind: 'raced', later: v.what, turns: v.turns, found: classify(x, y) as Level | 'identical', by: v.r.by };
        }
      }
    }
  }
  return { outcomes, logs: [a.logs, b.logs] };
}
