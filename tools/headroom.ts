// `make headroom`: how much of each read, write, tee and pipe loop's cost a
// change that keeps the spec's microtask turns could still remove, and for
// pipe chains through synchronous transforms how far they are from the floor
// the spec leaves them. Runs the model category (benchmark/model/: each loop
// on web streams and on a minimal model of the same stream; the read loop
// and the chains also on the userland library issue 16 quotes) base vs
// patched through tools/compare.ts, then writes the headroom table
// (tools/bench/headroom.ts) next to compare's own.
//
//   node tools/headroom.ts [--runs N] [--name NAME] [--clock wall|cpu] [--filter text]… [--set key=value]…
//     (default 10 runs, wall clock, every model file, out/compare/headroom)
//   node tools/headroom.ts --from-csv out/compare/headroom/results.csv
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { parseFlags } from './lib/args.ts';
import { OUT, ROOT } from './lib/paths.ts';
import { parseCsv } from './bench/csv.ts';
import { headroom, renderHeadroom } from './bench/headroom.ts';

const { values } = parseFlags({
  runs: { type: 'string', default: '10' },
  name: { type: 'string', default: 'headroom' },
  clock: { type: 'string' },
  filter: { type: 'string', multiple: true, default: [] },
  set: { type: 'string', multiple: true, default: [] },
  'from-csv': { type: 'string' },
}, 'node tools/headroom.ts [--runs N] [--name NAME] [--clock wall|cpu] [--filter text]… [--set key=value]… | --from-csv FILE');

let csv = values['from-csv'];
if (csv === undefined) {
  // compare.ts checks --runs (and everything else) before it runs anything.
  const options = [...(values.clock ? ['--clock', values.clock] : []), ...values.filter.flatMap((f) => ['--filter', f]),
    ...values.set.flatMap((s) => ['--set', s])];
  const r = spawnSync(process.execPath, [join(ROOT, 'tools/compare.ts'), '--runs', values.runs, '--name', values.name, ...options, 'model'],
    { stdio: 'inherit' });
  if (r.status !== 0) {
    console.error(`headroom: tools/compare.ts failed (${r.status ?? r.signal})`);
    process.exit(1);
  }
  csv = join(OUT, 'compare', values.name, 'results.csv');
}
const table = renderHeadroom(headroom(parseCsv(readFileSync(csv, 'utf8'))));
const out = join(dirname(csv), 'headroom.txt');
writeFileSync(out, table);
console.log(`\n${table}\nwritten to ${out}`);
