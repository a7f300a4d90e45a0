// The kinds of difference a `deviation:` line may allow, and the check that a
// pair of logs differs only in that way (README "Judging and declaring
// deviations"). The levels nest, narrowest first; each allows what the one
// before it does and a little more:
//
//   turns         the same events in the same order; only their positions
//                 (phase:tick) differ.
//   interleaving  every projection (tools/ordering/projections.ts) is the
//                 same: each stream's callbacks, each sink's chunks, each
//                 promise's settlement, each stream's final state, and the
//                 same events overall; only the order across streams differs.
//   queue-levels  as interleaving once the observations of how full a queue
//                 was are masked: the desiredSize numbers callbacks saw,
//                 size() calls (skipped when a chunk goes straight to a
//                 pending read) and whether close() found the queue drained
//                 ("Controller is already closed" vs "ReadableStream is
//                 already closed").
//
// `races` (fuzz only) is not a level: a random program whose own operations
// race a pipe may differ beyond its level if the base lib, with one of those
// operations a few turns later, differs from the new lib's run only within
// it (tools/ordering/judge-programs.ts).
import type { ProjectionDiff } from './projections.ts';
import { compareProjections, project, stripPosition } from './projections.ts';

export const LEVELS = ['turns', 'interleaving', 'queue-levels'] as const;
export type Level = (typeof LEVELS)[number];
export const KINDS: readonly string[] = [...LEVELS, 'races'];

export function isLevel(kind: string): kind is Level {
  return (LEVELS as readonly string[]).includes(kind);
}

/** The widest level among `kinds` (undefined if none is a level). */
export function widestLevel(kinds: Iterable<string>): Level | undefined {
  let widest = -1;
  for (const k of kinds) widest = Math.max(widest, (LEVELS as readonly string[]).indexOf(k));
  return widest < 0 ? undefined : LEVELS[widest];
}

const SIZE_CALL = /^\d+:\d+ size\(/;

/** The lines with what only says how full a queue was made alike on both sides. */
export function maskQueueLevels(lines: readonly string[]): string[] {
  return lines.filter((line) => !SIZE_CALL.test(line)).map((line) => line
    .replace(/desiredSize:(?:-?\d+(?:\.\d+)?|Infinity|-Infinity|NaN)/g, 'desiredSize:#')
    .replace(/Invalid state: (?:Controller|ReadableStream) is already closed/g, 'Invalid state: (closed or closing)'));
}

/** The order of events, positions stripped: where the two sequences first part. */
function orderDiff(a: readonly string[], b: readonly string[]): ProjectionDiff[] {
  const x = a.map(stripPosition);
  const y = b.map(stripPosition);
  const n = Math.min(x.length, y.length);
  let at = 0;
  while (at < n && x[at] === y[at]) at++;
  return at === x.length && at === y.length ? [] : [{ projection: 'order', key: 'all events', at, old: x, new: y }];
}

/** What keeps the two logs from differing only as `level` allows; empty when they do. */
export function violations(level: Level, oldLines: readonly string[], newLines: readonly string[]): ProjectionDiff[] {
  switch (level) {
    // The projections that differ too come first: they name what changed.
    case 'turns': {
      const order = orderDiff(oldLines, newLines);
      return order.length ? [...compareProjections(project(oldLines), project(newLines)), ...order] : [];
    }
    case 'interleaving': return compareProjections(project(oldLines), project(newLines));
    case 'queue-levels': return compareProjections(project(maskQueueLevels(oldLines)), project(maskQueueLevels(newLines)));
  }
}

/** The narrowest level the difference fits: 'identical', a level, or 'beyond' (fits none). */
export function classify(oldLines: readonly string[], newLines: readonly string[]): Level | 'identical' | 'beyond' {
  if (oldLines.length === newLines.length && oldLines.every((line, i) => line === newLines[i])) return 'identical';
  for (const level of LEVELS) if (violations(level, oldLines, newLines).length === 0) return level;
  return 'beyond';
}
