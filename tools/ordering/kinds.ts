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
//   read-ahead    as queue-levels once pipes may have read a different
//                 number of chunks ahead of their destinations: where a
//                 pipeline stalls or is torn down, the callbacks that feed
//                 it (a source's pull(), an iterator's next, a
//                 generator's step, a transform()) may have run more or
//                 fewer times: a
//                 stream's last ones are missing on one side; the runs both
//                 made, and every other callback, are the same. A stream
//                 whose pull() or from() iterator closed it may end
//                 `closed` on that side and `readable` on the other (a
//                 pipe there left the queue the close waits on, or did not
//                 run that pull or step).
//   teardown-writes as read-ahead once a sink torn down on both sides (its
//                 abort() called on both, or ending errored with the same
//                 error on both, all a pipe's abort of a sink without
//                 abort() leaves) may have written more or fewer of its
//                 last chunks before that: its last write() calls are
//                 missing on one side, so one side's chunks are the other's
//                 first ones (a lost chunk in the middle, or before a
//                 close(), still differs). Named scenarios only: a random
//                 program that loses its last chunk before an abort would
//                 fit it.
//
// `races` (fuzz only) is not a level: a random program whose own operations
// race a pipe may differ beyond its level if the base lib, with one of those
// operations a few turns later, differs from the new lib's run only within
// it (tools/ordering/judge-programs.ts).
//
// `byob-requests` (fuzz only) is not a level either: a random program whose
// byte source fills a byobRequest where there is one (byteFill respond or
// respondWithNewView) may differ beyond its level where the new lib's pipe
// read sooner and so showed the source a request the base did not, if the
// new lib, run with the source making the base's choices (enqueueing where
// the base found no request), differs from the base's run only within it.
import type { ProjectionDiff } from './projections.ts';
import { collapseThenReads, compareProjections, parseEvent, project, stripPosition } from './projections.ts';

export const LEVELS = ['turns', 'interleaving', 'queue-levels', 'read-ahead', 'teardown-writes'] as const;
export type Level = (typeof LEVELS)[number];
export const KINDS: readonly string[] = [...LEVELS, 'races', 'byob-requests'];

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

// The callbacks by which a pipeline takes in data, as they appear in a
// stream's callbacks projection (calls and what became of their results)
// or, for an iterator source, as a plain line.
const FEEDING_ENTRY = /^(?:pull|transform|next)(?:\(| )/;
// A sink's write(), for teardown-writes.
const WRITE_ENTRY = /^write(?:\(| )/;
const ITERATOR_NEXT = /^([A-Za-z_$][\w$#-]*(?:\.[A-Za-z_$][\w$#-]*)*)\.next$/;
// A generator source's step (ReadableStream.from), as a plain line.
const GENERATOR_STEP = /^((?:async )?generator) next$/;

/** Which stream a line belongs to, and whether it is one of the callbacks `entry` matches. */
function ownerLine(line: string, entry = FEEDING_ENTRY): { owner: string; feeding: boolean } | undefined {
  const text = stripPosition(line);
  const e = parseEvent(text);
  if (e.kind === 'call') return { owner: e.owner, feeding: entry.test(`${e.callback}(`) };
  if (e.kind === 'result') return { owner: e.owner, feeding: entry.test(`${e.callback} `) };
  const next = ITERATOR_NEXT.exec(text) ?? GENERATOR_STEP.exec(text);
  return next ? { owner: next[1], feeding: true } : undefined;
}

/**
 * Both logs without the feeding callbacks only one of them ran: for each
 * stream with more lines in one log than in the other, that many of its
 * last feeding callbacks there (later lines of other kinds, such as a
 * cancel(), stay), if it has that many. `entry` names the callbacks
 * trimmed (a sink's write() for teardown-writes), `eligible` the streams.
 */
export function trimReadAhead(oldLines: readonly string[], newLines: readonly string[], entry = FEEDING_ENTRY,
  eligible: (owner: string) => boolean = () => true): [string[], string[]] {
  const count = (lines: readonly string[]) => {
    const n = new Map<string, number>();
    for (const line of lines) {
      const o = ownerLine(line, entry);
      if (o) n.set(o.owner, (n.get(o.owner) ?? 0) + 1);
    }
    return n;
  };
  const trim = (lines: readonly string[], more: Map<string, number>, fewer: Map<string, number>) => {
    const drop = new Set<number>();
    for (const [owner, n] of more) {
      const extra = n - (fewer.get(owner) ?? 0);
      if (extra <= 0 || !eligible(owner)) continue;
      const feeding: number[] = [];
      for (let i = lines.length - 1; i >= 0 && feeding.length < extra; i--) {
        const o = ownerLine(lines[i], entry);
        if (o?.owner === owner && o.feeding) feeding.push(i);
      }
      if (feeding.length === extra) for (const i of feeding) drop.add(i);
    }
    return lines.filter((_, i) => !drop.has(i));
  };
  const oldCount = count(oldLines);
  const newCount = count(newLines);
  return [trim(oldLines, oldCount, newCount), trim(newLines, newCount, oldCount)];
}

/**
 * The streams their source closed in `lines`: a pull()'s `<owner>.pull
 * closed <stream>` result, or a from() iterator's last step, `<owner>.next
 * closed <stream>` (test/ordering/program.js).
 */
function closedBySource(lines: readonly string[]): Set<string> {
  return new Set(lines.flatMap((l) => {
    const e = parseEvent(stripPosition(l));
    return e.kind === 'result' && (e.callback === 'pull' || e.callback === 'next') && e.what.startsWith('closed ') ? [e.what.slice('closed '.length)] : [];
  }));
}

function finalStates(lines: readonly string[]): Map<string, string> {
  return new Map(lines.flatMap((l) => {
    const e = parseEvent(stripPosition(l));
    return e.kind === 'final' ? [[e.stream, e.state] as const] : [];
  }));
}

/**
 * trimReadAhead, and then a stream that ends `closed` on one side and
 * `readable` on the other read as `readable` on both, where its source's
 * pull() or iterator closed it on the closed side: a pipe that read further
 * drained the queue that close waited on, or ran the pull or step that
 * closed it. The close lines themselves must still match once trimmed.
 */
export function readAhead(oldLines: readonly string[], newLines: readonly string[]): [string[], string[]] {
  const [a, b] = trimReadAhead(oldLines, newLines);
  const reopen = (lines: string[], untrimmed: readonly string[], other: readonly string[]) => {
    const closed = closedBySource(untrimmed);
    if (closed.size === 0) return lines;
    const otherFinals = finalStates(other);
    return lines.map((l) => {
      const e = parseEvent(stripPosition(l));
      return e.kind === 'final' && e.state === 'closed' && closed.has(e.stream) && otherFinals.get(e.stream) === 'readable' ? l.replace(/ closed$/, ' readable') : l;
    });
  };
  return [reopen(a, oldLines, b), reopen(b, newLines, a)];
}

/**
 * The sinks torn down in both logs: their abort() called in both, or
 * ending `errored` with the same error in both (a pipe's abort of a sink
 * without abort() leaves no other line).
 */
function abortedOnBoth(oldLines: readonly string[], newLines: readonly string[]): Set<string> {
  const aborted = (lines: readonly string[]) => new Set(lines.flatMap((l) => {
    const e = parseEvent(stripPosition(l));
    return e.kind === 'call' && e.callback === 'abort' ? [e.owner] : [];
  }));
  const inNew = aborted(newLines);
  const both = new Set([...aborted(oldLines)].filter((o) => inNew.has(o)));
  const newFinals = finalStates(newLines);
  for (const [stream, state] of finalStates(oldLines))
    if (state.startsWith('errored ') && newFinals.get(stream) === state) both.add(stream);
  return both;
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
export function violations(level: Level, oldLog: readonly string[], newLog: readonly string[]): ProjectionDiff[] {
  // A result's `then` read again counts once here too, or read-ahead's trims would count the reads.
  const oldLines = collapseThenReads(oldLog);
  const newLines = collapseThenReads(newLog);
  switch (level) {
    // The projections that differ too come first: they name what changed.
    case 'turns': {
      const order = orderDiff(oldLines, newLines);
      return order.length ? [...compareProjections(project(oldLines), project(newLines)), ...order] : [];
    }
    case 'interleaving': return compareProjections(project(oldLines), project(newLines));
    case 'queue-levels': return compareProjections(project(maskQueueLevels(oldLines)), project(maskQueueLevels(newLines)));
    case 'read-ahead': {
      const [a, b] = readAhead(maskQueueLevels(oldLines), maskQueueLevels(newLines));
      return compareProjections(project(a), project(b));
    }
    case 'teardown-writes': {
      const aborted = abortedOnBoth(oldLines, newLines);
      const [a, b] = trimReadAhead(...readAhead(maskQueueLevels(oldLines), maskQueueLevels(newLines)), WRITE_ENTRY, (o) => aborted.has(o));
      return compareProjections(project(a), project(b));
    }
  }
}

/** The narrowest level the difference fits: 'identical', a level, or 'beyond' (fits none). */
export function classify(oldLines: readonly string[], newLines: readonly string[]): Level | 'identical' | 'beyond' {
  if (oldLines.length === newLines.length && oldLines.every((line, i) => line === newLines[i])) return 'identical';
  for (const level of LEVELS) if (violations(level, oldLines, newLines).length === 0) return level;
  return 'beyond';
}
