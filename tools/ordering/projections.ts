// The views of an event log that must not change where a layer declares
// that only timing may (README "Judging and declaring deviations"):
//
// - callbacks: per stream (the name before the last `.` of a logged user
//   callback: `ts1.transform` belongs to ts1), its own callback calls with
//   their arguments, controllers' desiredSize included, and what the lib did
//   with their results (`then` read or called). Reads of a result's `then`
//   in a row count as one: the spec reads it once, while Node reads it once
//   for each promise it resolves with the result, and how many those are
//   depends on the pipe's manner (a write that waited on a
//   TransformStream's backpressure has one more);
// - chunks: per sink or transformer, the chunks its write()/transform() got,
//   and per reader or async iterator, the values its reads delivered;
// - settlements: per tracked promise or operation label (`r0.read#2`,
//   `pipeTo#1`, `iter#1`, …), its outcomes in order;
// - finals: the state every stream ended in (`final <name> <state>` lines
//   the harness writes when a scenario ends);
// - events: every line, position stripped, as a multiset, so a line outside
//   the views above (a user's t.log, a size() call) may move but not change,
//   appear or vanish.
//
// The line grammar is the harness's (test/ordering/harness.js): callbacks
// are `<name>(<args>)`, settlements `<label> fulfilled|rejected|threw|=|value
// <value>`, final states `final <stream> <state>`.

import { firstDifference } from './diff.ts';

export type ProjectionName = 'callbacks' | 'chunks' | 'settlements' | 'finals' | 'events' | 'order';

export interface Projections {
  callbacks: Map<string, string[]>;
  chunks: Map<string, string[]>;
  settlements: Map<string, string[]>;
  finals: Map<string, string[]>;
  /** Every event (position stripped) → how many times it occurs. */
  events: Map<string, number>;
}

export type Event =
  | { kind: 'call'; owner: string; callback: string; args: string }
  | { kind: 'result'; owner: string; callback: string; what: string }
  | { kind: 'settle'; label: string; how: string; value: string }
  | { kind: 'final'; stream: string; state: string }
  | { kind: 'other' };

const POSITION = /^\d+:\d+ /;
const NAME = String.raw`[A-Za-z_$][\w$#-]*(?:\.[A-Za-z_$][\w$#-]*)*`;
const CALL = new RegExp(`^(${NAME})\\((.*)\\)$`, 's');
// `<owner>.pull closed <stream>` and `<owner>.next closed <stream>`: a
// source's pull() or from() iterator closed its own stream
// (test/ordering/program.js), so read-ahead can tell that close from others.
const RESULT = new RegExp(`^(${NAME}) (thenable\\.then called|result\\.then read|result\\.then called|closed \\S+)$`);
const SETTLE = /^(\S(?:.*?\S)?) (fulfilled|rejected|threw|=|value) (.*)$/s;
const FINAL = /^final (\S+) (.*)$/s;
// A sink's or transformer's controller ends its argument list; what comes
// before it is the chunk.
const CHUNK_ARGS = /^(.*), (?:WritableStreamDefaultController|TransformStreamDefaultController)\{[^{}]*\}$/s;
// Reads are labelled `<reader>read#<n>` (`r1.read#2`, `read#3`, `r0.readByob#1`);
// the values of one reader's reads are its chunks.
const READ_LABEL = /^(.*(?:read|readByob))#\d+$/;
const READ_VALUE = /^\{done:false,value:(.*)\}$/s;
const ITER_LABEL = /^iter#\d+$/;

export function stripPosition(line: string): string {
  return line.replace(POSITION, '');
}

function split(name: string): { owner: string; callback: string } {
  const dot = name.lastIndexOf('.');
  return dot < 0 ? { owner: name, callback: name } : { owner: name.slice(0, dot), callback: name.slice(dot + 1) };
}

/** What one log line (position stripped) is, for the projections. */
export function parseEvent(text: string): Event {
  let m = FINAL.exec(text);
  if (m) return { kind: 'final', stream: m[1], state: m[2] };
  m = CALL.exec(text);
  if (m) return { kind: 'call', ...split(m[1]), args: m[2] };
  m = RESULT.exec(text);
  if (m) return { kind: 'result', ...split(m[1]), what: m[2] };
  m = SETTLE.exec(text);
  if (m) return { kind: 'settle', label: m[1], how: m[2], value: m[3] };
  return { kind: 'other' };
}

function push(map: Map<string, string[]>, key: string, value: string): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

/**
 * The log without the reads of a result's `then` that follow another read of
 * it, with no other callback or result of the same stream between: one read,
 * to every view and to the kinds' checks (tools/ordering/kinds.ts).
 */
export function collapseThenReads(lines: readonly string[]): string[] {
  const last = new Map<string, string>();
  return lines.filter((line) => {
    const e = parseEvent(stripPosition(line));
    if (e.kind !== 'call' && e.kind !== 'result') return true;
    const entry = e.kind === 'call' ? `${e.callback}(` : `${e.callback} ${e.what}`;
    const repeated = e.kind === 'result' && e.what === 'result.then read' && last.get(e.owner) === entry;
    last.set(e.owner, entry);
    return !repeated;
  });
}

export function project(lines: readonly string[]): Projections {
  const p: Projections = { callbacks: new Map(), chunks: new Map(), settlements: new Map(), finals: new Map(), events: new Map() };
  for (const line of collapseThenReads(lines)) {
    const text = stripPosition(line);
    const e = parseEvent(text);
    p.events.set(text, (p.events.get(text) ?? 0) + 1);
    switch (e.kind) {
      case 'call': {
        push(p.callbacks, e.owner, `${e.callback}(${e.args})`);
        const chunk = CHUNK_ARGS.exec(e.args);
        if (chunk && (e.callback === 'write' || e.callback === 'transform')) push(p.chunks, e.owner, chunk[1]);
        break;
      }
      case 'result':
        push(p.callbacks, e.owner, `${e.callback} ${e.what}`);
        break;
      case 'settle': {
        push(p.settlements, e.label, `${e.how} ${e.value}`);
        const read = e.how === 'fulfilled' ? READ_LABEL.exec(e.label) : null;
        const value = read ? READ_VALUE.exec(e.value) : null;
        if (read && value) push(p.chunks, read[1], value[1]);
        else if (e.how === 'value' && ITER_LABEL.test(e.label)) push(p.chunks, e.label, e.value);
        break;
      }
      case 'final':
        push(p.finals, e.stream, e.state);
        break;
    }
  }
  return p;
}

export interface ProjectionDiff {
  projection: ProjectionName;
  /** The stream, sink, label or event the view is of. */
  key: string;
  /** Index of the first differing entry in the view. */
  at: number;
  old: string[];
  new: string[];
}

const DESCRIBE: Record<ProjectionName, string> = {
  callbacks: 'callbacks of',
  chunks: 'chunks received by',
  settlements: 'settlement of',
  finals: 'final state of',
  events: 'event',
  order: 'order of',
};

function compareLists(name: ProjectionName, a: Map<string, string[]>, b: Map<string, string[]>, out: ProjectionDiff[]): void {
  const keys = [...a.keys(), ...[...b.keys()].filter((k) => !a.has(k))];
  for (const key of keys) {
    const x = a.get(key) ?? [];
    const y = b.get(key) ?? [];
    const at = firstDifference(x, y);
    if (at >= 0) out.push({ projection: name, key, at, old: x, new: y });
  }
}

/** Every view that differs, in a stable order: callbacks, chunks, settlements, finals, then events. */
export function compareProjections(a: Projections, b: Projections): ProjectionDiff[] {
  const out: ProjectionDiff[] = [];
  compareLists('callbacks', a.callbacks, b.callbacks, out);
  compareLists('chunks', a.chunks, b.chunks, out);
  compareLists('settlements', a.settlements, b.settlements, out);
  compareLists('finals', a.finals, b.finals, out);
  const events = [...a.events.keys(), ...[...b.events.keys()].filter((k) => !a.events.has(k))];
  for (const text of events) {
    const x = a.events.get(text) ?? 0;
    const y = b.events.get(text) ?? 0;
    if (x !== y) out.push({ projection: 'events', key: text, at: Math.min(x, y), old: Array(x).fill(text), new: Array(y).fill(text) });
  }
  return out;
}

/** One line per differing view: `chunks received by w0: at #5 - "c5" + "c6"`. */
export function renderProjectionDiff(d: ProjectionDiff, oldName: string, newName: string): string {
  if (d.projection === 'events') {
    return `event ${JSON.stringify(d.key)}: ${d.old.length}× on ${oldName}, ${d.new.length}× on ${newName}`;
  }
  const entry = (list: string[]) => (d.at < list.length ? list[d.at] : '(nothing)');
  const count = d.old.length === d.new.length ? `${d.old.length} entries` : `${d.old.length} vs ${d.new.length} entries`;
  return `${DESCRIBE[d.projection]} ${d.key} (${count}), first difference at #${d.at + 1}: - ${entry(d.old)}  + ${entry(d.new)}`;
}

/** The differing views, one per line, indented, at most `max` of them. */
export function renderProjectionDiffs(diffs: readonly ProjectionDiff[], oldName: string, newName: string, max = 6): string {
  const lines = diffs.slice(0, max).map((d) => `    ${renderProjectionDiff(d, oldName, newName)}`);
  if (diffs.length > max) lines.push(`    … ${diffs.length - max} more`);
  return lines.join('\n');
}
