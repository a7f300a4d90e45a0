// The headroom table: benchmark/model/ runs each loop on web streams and on
// a minimal model of the same stream (benchmark/model/lib/minimal-streams.js:
// the spec's turns and the objects the API returns, no bookkeeping; for a
// pipe chain, the fewer turns the spec's floor allows: FLOOR_MODELS). From one
// base-vs-patched comparison of that category it reports, per loop,
// patched/base, model/base (the most any change keeping the spec's turns
// could give over the base) and model/patched (what is left). Files with
// impl='userland' (the userland library issue 16 quotes) add userland/base.
// The model and the userland library run the same code on both sides, so
// their samples are pooled.
import { compareRow, type Row } from './analyse.ts';
import type { Sample } from './csv.ts';

export interface HeadroomRow {
  /** filename and configuration without impl=…, e.g. model/read-loop.js size=1024 n=2000000 */
  name: string;
  patchedVsBase: Row;
  modelVsBase: Row;
  modelVsPatched: Row;
  /** Only for configurations that ran impl='userland'. */
  userlandVsBase?: Row;
}

const IMPL = /(^| )impl='(webstreams|model|userland)'/;

export function headroom(samples: readonly Sample[]): HeadroomRow[] {
  const groups = new Map<string, { base: number[]; patched: number[]; model: number[]; userland: number[] }>();
  for (const s of samples) {
    const m = IMPL.exec(s.configuration);
    if (!m) throw new Error(`${s.filename} ${s.configuration}: no impl='webstreams'|'model'|'userland' in the configuration`);
    const rest = s.configuration.replace(IMPL, '').trim();
    const name = rest ? `${s.filename} ${rest}` : s.filename;
    let g = groups.get(name);
    if (!g) groups.set(name, (g = { base: [], patched: [], model: [], userland: [] }));
    if (m[2] === 'model' || m[2] === 'userland') g[m[2]].push(s.rate);
    else (s.binary === 'old' ? g.base : g.patched).push(s.rate);
  }
  const rows: HeadroomRow[] = [];
  for (const [name, { userland, ...g }] of groups) {
    for (const [what, xs] of Object.entries(g)) {
      if (xs.length === 0) throw new Error(`${name}: no ${what} samples`);
    }
    rows.push({
      name,
      patchedVsBase: compareRow(name, '', g.base, g.patched),
      modelVsBase: compareRow(name, '', g.base, g.model),
      modelVsPatched: compareRow(name, '', g.patched, g.model),
      ...(userland.length > 0 ? { userlandVsBase: compareRow(name, '', g.base, userland) } : {}),
    });
  }
  return rows.sort((a, b) => a.name.localeCompare(b.name));
}

/**
 * Model files at the floor the spec leaves (fewer turns than the stream's
 * own, which the spec does not fix), not at the stream's turns: their
 * model/… columns bound an implementation that uses that latitude.
 */
export const FLOOR_MODELS: Readonly<Record<string, string>> = {
  'model/pipe-through-chain.js': 'the floor of a pipe chain of synchronous transforms: one pull and one sink-write settlement per chunk, whatever its length, no write inside an enqueue()',
  'model/text-coding.js': 'the same floor with TextDecoderStream\'s or TextEncoderStream\'s transform as the one link: the coding and two settlements per chunk',
  'model/sse.js': 'the floor of real-world/sse.js: its decoding, parser and mapper, one pull settlement per source chunk and one sink-write settlement per event',
  'model/ndjson.js': 'the floor of real-world/ndjson.js: its decoding, line splitter, parser and projection, one pull settlement per source chunk and one sink-write settlement per row',
};

function cell(row: Row): string {
  return `${row.ratio.toFixed(2)}x ${row.confidence.padEnd(3)}`;
}

export function renderHeadroom(rows: readonly HeadroomRow[]): string {
  const width = Math.max(9, ...rows.map((r) => r.name.length));
  const userland = rows.some((r) => r.userlandVsBase);
  const head = `${'benchmark'.padEnd(width)}  patched/base  model/base  model/patched${userland ? '  userland/base' : ''}`;
  const floors = new Set<string>();
  const lines = rows.map((r) => {
    const file = r.name.split(' ')[0];
    if (file in FLOOR_MODELS) floors.add(file);
    const extra = !userland ? '' : `  ${(r.userlandVsBase ? cell(r.userlandVsBase) : '-').padStart(13)}`;
    return `${r.name.padEnd(width)}  ${cell(r.patchedVsBase).padStart(12)}  ${cell(r.modelVsBase).padStart(10)}  ${cell(r.modelVsPatched).padStart(13)}${extra}`;
  });
  const notes = [...floors].map((file) => `${file}: model = ${FLOOR_MODELS[file]}`);
  if (userland) notes.push('userland = experimental-fast-webstreams (benchmark/model/lib/userland-streams.js): fewer turns than the spec\'s, not a spec-exact bound');
  return `${[head, ...lines, ...(notes.length > 0 ? ['', ...notes] : [])].join('\n')}\n`;
}
