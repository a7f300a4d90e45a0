// A layer's PATCH.md: optional front matter, the commit subject, the body.
//
//   ---
//   deviation: <ordering scenario id> | <kind>[, <kind>] | <why the observable order changes>
//   bench: <benchmark filter>, <benchmark filter>
//   adds: benchmark/webstreams/<file>.js, …
//   ---
//   stream: <subject line>
//
//   <body: what and why, wrapped at 72 columns>
//
//   {{benchmarks}}
//
//   Assisted-by: <…>
//
// `{{benchmarks}}` stands for the layer's benchmarks.txt, the short table
// of Node's benchmark/compare.js that `make compare-layers` writes
// (commitMessage() puts it in). The committed series carries no
// Signed-off-by: `make pr` signs off with the submitter's identity.
//
// Front matter lines are `key: value`; `deviation` may repeat; `bench` names
// the benchmarks the layer's own comparison runs (tools/compare-layers.ts);
// `adds` names harness benchmark files the patch adds to Node's tree at the
// same path (the first layer whose table uses a file adds it).
// A deviation names the kinds of difference it allows (tools/ordering/kinds.ts:
// turns, interleaving, queue-levels, read-ahead, teardown-writes (named
// scenarios only); `races` for fuzz: declarations only);
// every other difference still fails.
// The subject must start with `stream: ` (Node's subsystem prefix).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { isLevel, KINDS, LEVELS } from '../ordering/kinds.ts';

export interface Deviation {
  scenario: string;
  /** The kinds of difference allowed, as written (at least one level). */
  kinds: string[];
  reason: string;
}

const DEVIATION_FORMAT = "write 'deviation: <scenario id> | <kind>[, <kind>] | <reason>'";

function parseDeviation(value: string, where: string): Deviation {
  const parts = value.split(/\s+\|\s+/);
  if (parts.length < 3 || !parts[0].trim() || !parts[1].trim() || !parts.slice(2).join(' | ').trim()) {
    throw new Error(`${where}: ${DEVIATION_FORMAT} (kinds: ${KINDS.join(', ')})`);
  }
  const scenario = parts[0].trim();
  const kinds = parts[1].split(',').map((k) => k.trim());
  for (const kind of kinds) {
    if (!KINDS.includes(kind)) throw new Error(`${where}: unknown deviation kind '${kind}' (kinds: ${KINDS.join(', ')})`);
  }
  for (const witnessed of ['races', 'byob-requests']) {
    if (kinds.includes(witnessed) && !scenario.startsWith('fuzz:')) {
      throw new Error(`${where}: '${witnessed}' applies to fuzz:<feature> declarations only (a scenario of the corpus has no settled rerun)`);
    }
  }
  if (kinds.includes('teardown-writes') && scenario.startsWith('fuzz:')) {
    throw new Error(`${where}: 'teardown-writes' applies to named scenarios only (a random program that loses its last chunk would fit it)`);
  }
  if (!kinds.some(isLevel)) throw new Error(`${where}: name a level (${LEVELS.join(', ')}) the difference must fit`);
  return { scenario, kinds, reason: parts.slice(2).join(' | ').trim() };
}

export interface PatchMd {
  subject: string;
  /** Everything after the subject's blank line, trailers included, trimmed. */
  body: string;
  deviations: Deviation[];
  /** Benchmark filters (tools/compare.ts --filter) for this layer's own table. */
  bench: string[];
  /** Harness files (benchmark/webstreams/*.js) the patch adds to Node's tree. */
  adds: string[];
}

const BODY_COLUMNS = 72;
const TRAILER = /^(Signed-off-by|Co-authored-by|Assisted-by|Reviewed-By|PR-URL|Refs|Fixes): /;

export function parsePatchMd(text: string, where = 'PATCH.md'): PatchMd {
  let rest = text.replace(/\r\n/g, '\n');
  const deviations: Deviation[] = [];
  const bench: string[] = [];
  const adds: string[] = [];
  if (rest.startsWith('---\n')) {
    const end = rest.indexOf('\n---\n', 3);
    if (end < 0) throw new Error(`${where}: front matter opened with --- is never closed`);
    rest.slice(4, end).split('\n').forEach((line, i) => {
      if (line.trim() === '') return;
      const match = /^(\w+):\s*(.*)$/.exec(line);
      if (!match) throw new Error(`${where}:${i + 2}: front matter lines are 'key: value'`);
      if (match[1] === 'bench') {
        const filters = match[2].split(',').map((f) => f.trim()).filter(Boolean);
        if (filters.length === 0) throw new Error(`${where}:${i + 2}: write 'bench: <filter>, <filter>'`);
        bench.push(...filters);
        return;
      }
      if (match[1] === 'adds') {
        const paths = match[2].split(',').map((f) => f.trim()).filter(Boolean);
        const bad = paths.find((f) => !/^benchmark\/webstreams\/[\w-]+\.js$/.test(f));
        if (paths.length === 0 || bad) throw new Error(`${where}:${i + 2}: write 'adds: benchmark/webstreams/<file>.js, …'${bad ? ` (not '${bad}')` : ''}`);
        adds.push(...paths);
        return;
      }
      if (match[1] !== 'deviation') throw new Error(`${where}:${i + 2}: unknown front matter key '${match[1]}'`);
      deviations.push(parseDeviation(match[2], `${where}:${i + 2}`));
    });
    rest = rest.slice(end + 5);
  }
  const lines = rest.replace(/^\n+/, '').split('\n');
  const subject = lines[0].trim();
  if (!/^stream: \S/.test(subject)) throw new Error(`${where}: the subject line must start with 'stream: ', got '${subject}'`);
  if (subject.length > BODY_COLUMNS) throw new Error(`${where}: the subject line has ${subject.length} characters; core-validate-commit allows ${BODY_COLUMNS}`);
  if (lines.length > 1 && lines[1].trim() !== '') throw new Error(`${where}: a blank line must follow the subject`);
  // Node's core-validate-commit holds the body to 72 columns; it lets an
  // indented line (a table, code) and a trailer run longer.
  const firstLine = text.replace(/\r\n/g, '\n').split('\n').length - lines.length + 1;
  lines.forEach((line, i) => {
    if (i > 1 && line.length > BODY_COLUMNS && !line.startsWith('    ') && !TRAILER.test(line))
      throw new Error(`${where}:${firstLine + i}: the body is wrapped at ${BODY_COLUMNS} columns (core-validate-commit), this line has ${line.length}`);
  });
  return { subject, body: lines.slice(2).join('\n').trim(), deviations, bench, adds };
}

export function readPatchMd(layerDir: string): PatchMd {
  const file = join(layerDir, 'PATCH.md');
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    throw new Error(`${file} is missing: every layer needs a PATCH.md`);
  }
  return parsePatchMd(text, file);
}

/** The file `{{benchmarks}}` stands for, in the layer's folder. */
export const BENCHMARKS_FILE = 'benchmarks.txt';
const PLACEHOLDER = '{{benchmarks}}';

/** The commit message of a layer: subject, blank line, body with its benchmark table put in. */
export function commitMessage(layerDir: string, md: PatchMd = readPatchMd(layerDir)): string {
  let body = md.body;
  if (body.includes(PLACEHOLDER)) {
    const file = join(layerDir, BENCHMARKS_FILE);
    let table: string;
    try {
      table = readFileSync(file, 'utf8').trimEnd();
    } catch {
      throw new Error(`${file} is missing: PATCH.md puts ${PLACEHOLDER} there; run \`make compare-layers\` for this layer`);
    }
    body = body.replace(PLACEHOLDER, table);
  }
  return `${md.subject}\n\n${body}\n`;
}
