// The raw results CSV exactly as Node's `benchmark/compare.js` writes it, so
// benchmark/compare.R and node-benchmark-compare read ours, and we read theirs:
//   "binary","filename","configuration","rate","time"
//   "old","webstreams/tee.js","type='normal' n=200000",1234567.8,0.162
// binary is old or new; configuration is `key=value` pairs joined by spaces
// with values as util.inspect prints them (strings single-quoted).
import { inspect } from 'node:util';

export type Binary = 'old' | 'new';

export interface Sample {
  binary: Binary;
  /** Relative to benchmark/, e.g. webstreams/tee.js */
  filename: string;
  configuration: string;
  /** Operations per second. */
  rate: number;
  /** Seconds measured between bench.start() and bench.end(). */
  time: number;
}

export const CSV_HEADER = '"binary","filename","configuration","rate","time"';

/** A benchmark's reported configuration object as compare.js prints it. */
export function formatConfiguration(conf: Record<string, unknown>): string {
  return Object.entries(conf).map(([key, value]) => `${key}=${inspect(value)}`).join(' ');
}

function quote(text: string): string {
  return `"${text.replace(/"/g, '""')}"`;
}

export function formatSample(s: Sample): string {
  return `${quote(s.binary)},${quote(s.filename)},${quote(s.configuration)},${s.rate},${s.time}`;
}

// One CSV record: quoted fields with "" escapes, or bare numbers. Spaces
// around separators are tolerated (older compare.js wrote `", "`).
function parseLine(line: string, lineNumber: number): string[] {
  const fields: string[] = [];
  let i = 0;
  const fail = (why: string): never => {
    throw new Error(`CSV line ${lineNumber}: ${why}: ${line}`);
  };
  for (;;) {
    while (line[i] === ' ') i++;
    let field = '';
    if (line[i] === '"') {
      i++;
      for (;;) {
        if (i >= line.length) fail('unterminated quoted field');
        if (line[i] === '"') {
          if (line[i + 1] === '"') {
            field += '"';
            i += 2;
            continue;
          }
          i++;
          break;
        }
        field += line[i++];
      }
      while (line[i] === ' ') i++;
    } else {
      const end = line.indexOf(',', i);
      field = (end < 0 ? line.slice(i) : line.slice(i, end)).trim();
      i = end < 0 ? line.length : end;
    }
    fields.push(field);
    if (i >= line.length) return fields;
    if (line[i] !== ',') fail(`expected a comma at column ${i + 1}`);
    i++;
  }
}

export function parseCsv(text: string): Sample[] {
  const lines = text.split(/\r?\n/).map((l, n) => [l, n + 1] as const).filter(([l]) => l.trim() !== '');
  if (lines.length === 0) throw new Error('the CSV is empty');
  const header = parseLine(lines[0][0], 1);
  const expected = ['binary', 'filename', 'configuration', 'rate', 'time'];
  if (header.join(',') !== expected.join(',')) {
    throw new Error(`not a compare.js CSV: header is ${lines[0][0]}, expected ${CSV_HEADER}`);
  }
  return lines.slice(1).map(([line, n]) => {
    const f = parseLine(line, n);
    if (f.length !== 5) throw new Error(`CSV line ${n}: expected 5 fields, got ${f.length}`);
    const [binary, filename, configuration, rate, time] = f;
    if (binary !== 'old' && binary !== 'new') throw new Error(`CSV line ${n}: binary must be old or new, got ${binary}`);
    const sample: Sample = { binary, filename, configuration, rate: Number(rate), time: Number(time) };
    if (!(sample.rate > 0) || !Number.isFinite(sample.rate)) throw new Error(`CSV line ${n}: bad rate ${rate}`);
    return sample;
  });
}
