// A layer's PATCH.md: optional front matter, the commit subject, the body.
//
//   ---
//   deviation: <ordering scenario id> | <why the observable order changes>
//   bench: <benchmark filter>, <benchmark filter>
//   ---
//   stream: <subject line>
//
//   <body: what and why; the benchmark table goes here>
//
//   Signed-off-by: <name> <email>
//
// Front matter lines are `key: value`; `deviation` may repeat; `bench` names
// the benchmarks the layer's own comparison runs (tools/compare-layers.ts).
// The subject must start with `stream: ` (Node's subsystem prefix).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

export interface Deviation {
  scenario: string;
  reason: string;
}

export interface PatchMd {
  subject: string;
  /** Everything after the subject's blank line, trailers included, trimmed. */
  body: string;
  deviations: Deviation[];
  /** Benchmark filters (tools/compare.ts --filter) for this layer's own table. */
  bench: string[];
}

export function parsePatchMd(text: string, where = 'PATCH.md'): PatchMd {
  let rest = text.replace(/\r\n/g, '\n');
  const deviations: Deviation[] = [];
  const bench: string[] = [];
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
      if (match[1] !== 'deviation') throw new Error(`${where}:${i + 2}: unknown front matter key '${match[1]}'`);
      const [scenario, reason] = match[2].split(/\s+\|\s+/, 2);
      if (!scenario || !reason) throw new Error(`${where}:${i + 2}: write 'deviation: <scenario id> | <reason>'`);
      deviations.push({ scenario: scenario.trim(), reason: reason.trim() });
    });
    rest = rest.slice(end + 5);
  }
  const lines = rest.replace(/^\n+/, '').split('\n');
  const subject = lines[0].trim();
  if (!/^stream: \S/.test(subject)) throw new Error(`${where}: the subject line must start with 'stream: ', got '${subject}'`);
  if (lines.length > 1 && lines[1].trim() !== '') throw new Error(`${where}: a blank line must follow the subject`);
  return { subject, body: lines.slice(2).join('\n').trim(), deviations, bench };
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
