// A lib against the reference implementation of the Streams Standard
// (web-streams-polyfill, run by test/ordering/reference.mjs), on what may
// not change whatever the turns: each stream's own callbacks, each sink's,
// transformer's and reader's chunks, each promise's settlements and each
// stream's final state (tools/ordering/projections.ts). Turns and the
// interleaving of different streams are not compared: WebIDL's promise
// steps take more microtasks than Node's lib, and a pipe's manner is the
// implementation's choice.
//
// Differences of presentation are normalized away first: error messages
// and Node's error codes (the class stays), the key order of read results
// (Node's `{done, value}` is WebIDL's dictionary order, the polyfill's
// `{value, done}` the older spec's), and the polyfill's one rejection with
// a string where the standard's WebIDL throws a TypeError (pipeTo() without
// a destination).
//
// Where the lib and the reference still differ, test/ordering/
// reference-differences.json must say in which projections, scenario by
// scenario, and why (one of its named reasons).
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import type { Lib } from '../lib/injected.ts';
import { ROOT } from '../lib/paths.ts';
import { PIPE_OPS, type Program } from './generate.ts';
import { firstDifference } from './diff.ts';
import { DELAYS, raceCandidates, runWitnesses, type Entry } from './judge-programs.ts';
import { maskQueueLevels, readAhead, violations } from './kinds.ts';
import { compareProjections, project, type ProjectionDiff, type ProjectionName, type Projections } from './projections.ts';
import { CORPUS, REFERENCE } from './side.ts';

export const REFERENCE_DIFFERENCES = join(ROOT, 'test', 'ordering', 'reference-differences.json');

/**
 * The ids of the corpus's saved programs that pipe through an encoding
 * stream (`coding` ops). The reference implementation has no
 * TextEncoderStream or TextDecoderStream, so they cannot be judged
 * against it; the reference suite lists them instead.
 */
export function codingPrograms(dir = CORPUS): Set<string> {
  const ids = new Set<string>();
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || !entry.name.endsWith('.json')) continue;
    const file = join(entry.parentPath, entry.name);
    const program = JSON.parse(readFileSync(file, 'utf8')) as { ops?: { coding?: unknown }[] };
    if (program.ops?.some((o) => o.coding !== undefined)) ids.add(relative(dir, file).replace(/\.json$/, ''));
  }
  return ids;
}

/** The projections compared with the reference. */
export const REFERENCE_PROJECTIONS: readonly ProjectionName[] = ['callbacks', 'chunks', 'settlements', 'finals'];

export interface ReferenceDifference {
  /** The projections that may differ. */
  projections: ProjectionName[];
  /** Why the lib and the reference differ there (the file's `reasons`). */
  why: string;
}

interface DifferencesFile {
  reasons: Record<string, string>;
  scenarios: Record<string, { reason: string; projections: ProjectionName[] }>;
}

const ERROR_TEXT = /\b(\w+Error|DOMException)(?:\[[A-Z0-9_]+\])?\("(?:[^"\\]|\\.)*"\)/g;
const READ_RESULT = /\{value:(.*),done:(true|false)\}/g;
const PIPE_TO_WITHOUT_DESTINATION = /rejected "Parameter 1 is required in 'pipeTo'\."/g;

/** One log line with its presentation normalized (see the file's comment). */
export function normalizeLine(line: string): string {
  return line.replace(READ_RESULT, '{done:$2,value:$1}').replace(ERROR_TEXT, '$1(…)').replace(PIPE_TO_WITHOUT_DESTINATION, 'rejected TypeError(…)');
}

/** The views that differ between a scenario's log on the lib and on the reference. */
export function referenceDiffs(libLines: readonly string[], referenceLines: readonly string[]): ProjectionDiff[] {
  const diffs = compareProjections(project(libLines.map(normalizeLine)), project(referenceLines.map(normalizeLine)));
  return diffs.filter((d) => REFERENCE_PROJECTIONS.includes(d.projection));
}

/** The reasons `file` may name: its own, and those of REFERENCE_DIFFERENCES. */
export function readReasons(file = REFERENCE_DIFFERENCES, raw = readDifferencesFile(file)): Record<string, string> {
  return file === REFERENCE_DIFFERENCES ? raw.reasons : { ...readReasons(), ...raw.reasons };
}

const readDifferencesFile = (file: string) => JSON.parse(readFileSync(file, 'utf8')) as DifferencesFile;

/** `fixes`, once each names a reason `file` defines (readReasons); throws otherwise. */
export function checkFixReasons<T extends { layer: string; reason: string }>(fixes: T[], file = REFERENCE_DIFFERENCES): T[] {
  const reasons = readReasons(file);
  for (const fix of fixes)
    if (reasons[fix.reason] === undefined) throw new Error(`${fix.layer}: base-fix.json names reference reason '${fix.reason}', which ${file} does not define`);
  return fixes;
}

/**
 * The declared differences, scenario id → what may differ and why; throws on
 * a malformed entry. A series' own file may name the reasons of
 * REFERENCE_DIFFERENCES without repeating them.
 */
export function readReferenceDifferences(file = REFERENCE_DIFFERENCES): Map<string, ReferenceDifference> {
  const raw = readDifferencesFile(file);
  const reasons = readReasons(file, raw);
  const out = new Map<string, ReferenceDifference>();
  for (const [id, entry] of Object.entries(raw.scenarios ?? {})) {
    const bad = entry.projections?.find((p) => !REFERENCE_PROJECTIONS.includes(p));
    if (!Array.isArray(entry.projections) || entry.projections.length === 0 || bad !== undefined) {
      throw new Error(`${file}: '${id}' must name one or more of ${REFERENCE_PROJECTIONS.join(', ')} in "projections"${bad ? ` (not '${bad}')` : ''}`);
    }
    const why = reasons[entry.reason];
    if (why === undefined) throw new Error(`${file}: '${id}' names reason '${entry.reason}', which "reasons" does not define`);
    out.set(id, { projections: entry.projections, why });
  }
  return out;
}

const pipes = (program: Program) => program.ops.some((o) => PIPE_OPS.includes(o.op));

/**
 * Whether a random program that pipes differs from the reference only in
 * a pipe's manner (the `pipe-manner` reason of REFERENCE_DIFFERENCES): as
 * far as the ordering judge's teardown-writes level allows
 * (tools/ordering/kinds.ts), that is, in the `desiredSize` a callback saw,
 * in a stream's last pull(), next or transform() run on one side only,
 * and in the last chunks a sink aborted on both sides wrote first. A
 * program without a pipe gets no such latitude.
 */
export function pipeManner(program: Program, libLines: readonly string[], referenceLines: readonly string[]): boolean {
  if (!pipes(program)) return false;
  return violations('teardown-writes', libLines.map(normalizeLine), referenceLines.map(normalizeLine))
    .every((d) => !REFERENCE_PROJECTIONS.includes(d.projection));
}

/**
 * Whether the lib differs from the reference only where it does exactly
 * what `base` does: wherever lib and reference differ, entry by entry
 * (hasLibEntries), the base has the lib's entry. Such a difference is the base's own, not the
 * series'. In a program that pipes, the `desiredSize`s callbacks saw are
 * a pipe's manner and masked on all three first (kinds.ts
 * maskQueueLevels): a series' declared queue-levels deviation does not
 * hide the base's difference. For the same reason the feeding callbacks
 * (pull(), a from() iterator's steps, transform()) one of lib and base ran
 * past the other are left out of both (kinds.ts readAhead): the series'
 * declared read-ahead, which the ordering fuzz judges against the base,
 * on top of the base's own difference.
 */
export function asBase(program: Program, libLines: readonly string[], baseLines: readonly string[], referenceLines: readonly string[]): boolean {
  const view = comparedView(program);
  const [lib, base] = pipes(program) ? readAhead(view(libLines), view(baseLines)) : [view(libLines), view(baseLines)];
  const projected = project(base);
  return referenceDiffs(lib, view(referenceLines)).every((d) => hasLibEntries(d, projected));
}

/**
 * Whether the lib differs from the reference as the base with one fix does
 * (`fixedLines`, a run of the base with one layer's base fix that declares
 * a reference reason) and not as the base alone does: asBase against the
 * fixed base holds, against the base it does not, so the difference is
 * the fix's (a difference the base alone makes is asBase's).
 */
export function asFix(program: Program, libLines: readonly string[], baseLines: readonly string[], fixedLines: readonly string[],
  referenceLines: readonly string[]): boolean {
  return asBase(program, libLines, fixedLines, referenceLines) && !asBase(program, libLines, baseLines, referenceLines);
}

/** A program's log as asBase and asFix compare it: normalized, and in a program that pipes with the `desiredSize`s masked. */
function comparedView(program: Program): (lines: readonly string[]) => string[] {
  return (lines) => {
    const normalized = lines.map(normalizeLine);
    return pipes(program) ? maskQueueLevels(normalized) : normalized;
  };
}

/**
 * Whether `other` (a base's projections) has the lib's entry at every
 * index of a lib-vs-reference difference `d` (d.old the lib's list, d.new
 * the reference's) where the two differ: one key's list holds several
 * ops' settlements (every getReader's, say), and the base may differ from
 * the lib in one of them and share its difference in another. A
 * consumer's chunks are one stream's, so there the base must have the
 * lib's whole list: entry by entry, a run that received fewer chunks
 * (one that pipes later, or the reference with an op later) would pass a
 * chunk the lib lost wherever the reference lacks it too.
 */
function hasLibEntries(d: ProjectionDiff, other: Projections): boolean {
  const p = d.projection;
  const theirs = p === 'events' || p === 'order' ? [] : other[p].get(d.key) ?? [];
  if (p === 'chunks') return firstDifference(d.old, theirs) < 0;
  for (let i = d.at; i < Math.max(d.old.length, d.new.length); i++)
    if (d.old[i] !== d.new[i] && d.old[i] !== theirs[i]) return false;
  return true;
}

/** Each entry's runs with one thing (of its race candidates in `logs`) some turns later. */
function oneThingLater(entries: Entry[], logs: Map<string, string[]>): { entry: Entry; delay: Record<string, number> }[] {
  return entries.flatMap((entry) =>
    raceCandidates(entry.program, logs.get(entry.id) ?? []).flatMap((what) => DELAYS.map((turns) => ({ entry, delay: { [what]: turns } }))));
}

/**
 * Of `entries`, those (id → the side that ran later) in which a run with
 * one thing some turns later (the race witnesses) makes the lib's
 * difference from the reference the base's (asBase): first a run of
 * `base`, as the lib and the base may race a program's own ops
 * differently (the ordering fuzz's `races`), so the base's own difference
 * can show on the lib's timing only; then a run of the reference, for a
 * race and the base's own difference in one program, each of which passes
 * on its own.
 */
export async function asBaseWitnesses(base: Lib, entries: Entry[], libLogs: Map<string, string[]>,
  baseLogs: Map<string, string[]>, refLogs: Map<string, string[]>): Promise<Map<string, 'base' | 'reference'>> {
  const found = new Map<string, 'base' | 'reference'>();
  for (const side of ['base', 'reference'] as const) {
    const own = side === 'base' ? baseLogs : refLogs;
    await runWitnesses(side === 'base' ? base : REFERENCE, oneThingLater(entries.filter((e) => !found.has(e.id)), own), (w) => found.has(w.entry.id), (w, delayed) => {
      const id = w.entry.id;
      const [onBase, onRef] = side === 'base' ? [delayed, refLogs.get(id) ?? []] : [baseLogs.get(id) ?? [], delayed];
      if (asBase(w.entry.program, libLogs.get(id) ?? [], onBase, onRef)) found.set(id, side);
    });
  }
  return found;
}

export interface ReferenceVerdict {
  agree: string[];
  /** Declared, and differing only in the declared projections. */
  declared: string[];
  /** Differing where nothing declares it (scenario id → the views). */
  undeclared: Map<string, ProjectionDiff[]>;
  /** Declared scenarios that agree with the reference now. */
  stale: string[];
  /** Declarations naming no scenario of the run. */
  unknown: string[];
}

/** Judges a whole corpus run: every scenario of `lib` against `reference`. */
export function judgeAgainstReference(
  lib: Map<string, string[]>,
  reference: Map<string, string[]>,
  declared: Map<string, ReferenceDifference>,
): ReferenceVerdict {
  const verdict: ReferenceVerdict = { agree: [], declared: [], undeclared: new Map(), stale: [], unknown: [] };
  for (const [id, lines] of lib) {
    const ref = reference.get(id);
    if (!ref) throw new Error(`scenario ${id} ran on the lib but not on the reference`);
    const diffs = referenceDiffs(lines, ref);
    const allowed = declared.get(id)?.projections ?? [];
    const beyond = diffs.filter((d) => !allowed.includes(d.projection));
    if (beyond.length) verdict.undeclared.set(id, beyond);
    else if (diffs.length) verdict.declared.push(id);
    else if (allowed.length) verdict.stale.push(id);
    else verdict.agree.push(id);
  }
  verdict.unknown = [...declared.keys()].filter((id) => !lib.has(id));
  return verdict;
}

export interface RaceWitness {
  /** The side that ran with one thing later. */
  side: 'lib' | 'reference';
  /** What came later, by how many turns (program.delay). */
  delay: Record<string, number>;
}

/**
 * For random programs that differ from the reference: a run of either side
 * with one thing some turns later (an op, a source call, a loop body, a
 * callback's result; tools/ordering/judge-programs.ts) that agrees with the
 * other side's run. The two count microtasks differently (WebIDL's promise
 * steps take more than Node's lib), and a program's ops come at fixed
 * turns, so an op can land before a step on one and after it on the other
 * with neither wrong. A program no such run explains is worth reading.
 */
export async function raceWitnesses(lib: Lib, entries: Entry[], libLogs: Map<string, string[]>,
  refLogs: Map<string, string[]>): Promise<Map<string, RaceWitness>> {
  const found = new Map<string, RaceWitness>();
  for (const side of ['lib', 'reference'] as const) {
    const own = side === 'lib' ? libLogs : refLogs;
    await runWitnesses(side === 'lib' ? lib : REFERENCE, oneThingLater(entries.filter((e) => !found.has(e.id)), own), (w) => found.has(w.entry.id), (w, delayed) => {
      const diffs = side === 'lib' ? referenceDiffs(delayed, refLogs.get(w.entry.id) ?? []) : referenceDiffs(libLogs.get(w.entry.id) ?? [], delayed);
      if (diffs.length === 0) found.set(w.entry.id, { side, delay: w.delay });
    });
  }
  return found;
}
