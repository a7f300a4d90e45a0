// `make fuzz`: randomized differential testing. Generates COUNT random
// stream programs from SEED (tools/ordering/generate.ts), runs them on both
// libs (one process per side per batch), and diffs the logs. A differing
// program is minimized (ddmin over its op list) and printed; with --save it
// becomes a scenario of the corpus (test/ordering/scenarios/fuzz-found/).
//
//   node tools/fuzz.ts [--seed N] [--count N] [--old base] [--new patched] [--overlay DIR]
//                      [--batch N] [--minimize N] [--save] [--save-dir DIR]
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseFlags } from './lib/args.ts';
import { OUT } from './lib/paths.ts';
import { reportSummary } from './lib/summary.ts';
import { compareLogs, renderDiff } from './ordering/diff.ts';
import { fuzzExemptions } from './ordering/deviations.ts';
import { FEATURES, generateProgram, programFeatures, type Op, type Program, type SourceSpec } from './ordering/generate.ts';
import { ddmin } from './ordering/minimize.ts';
import { resolveSides } from './ordering/sides.ts';
import { CORPUS, runSide } from './ordering/side.ts';
import type { Lib } from './lib/injected.ts';

const USAGE = 'node tools/fuzz.ts [--seed N] [--count N] [--old base|<dir>] [--new patched|<dir>] [--overlay DIR] [--batch N] [--minimize N] [--save] [--save-dir DIR]';
const { values } = parseFlags({
  seed: { type: 'string', default: '1' },
  count: { type: 'string', default: '1000' },
  old: { type: 'string', default: 'base' },
  new: { type: 'string', default: 'patched' },
  overlay: { type: 'string' },
  batch: { type: 'string', default: '500' },
  minimize: { type: 'string', default: '3' },
  save: { type: 'boolean', default: false },
  'save-dir': { type: 'string', default: join(CORPUS, 'fuzz-found') },
  quiet: { type: 'boolean', default: false },
}, USAGE);

function intFlag(name: string, value: string | undefined, min: number): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < min) {
    console.error(`fuzz: --${name} must be an integer >= ${min}, not '${value}'\nusage: ${USAGE}`);
    process.exit(2);
  }
  return n;
}

const seed = intFlag('seed', values.seed, 0);
const count = intFlag('count', values.count, 1);
const batchSize = intFlag('batch', values.batch, 1);
const maxMinimize = intFlag('minimize', values.minimize, 0);

type Entry = { id: string; program: Program };

/** Runs programs on both sides; true for each whose logs differ. */
async function differing(oldLib: Lib, newLib: Lib, entries: Entry[]): Promise<{ flags: boolean[]; logs: [Map<string, string[]>, Map<string, string[]>] }> {
  const batch = { kind: 'programs' as const, programs: entries };
  const [a, b] = await Promise.all([runSide(oldLib, batch), runSide(newLib, batch)]);
  const cmp = compareLogs(a.logs, b.logs);
  const bad = new Set(cmp.differing.map((d) => d.id));
  return { flags: entries.map((e) => bad.has(e.id)), logs: [a.logs, b.logs] };
}

/** Drops optional source settings one at a time while the program still differs. */
async function simplifySource(source: SourceSpec, ops: Op[], test: (programs: Program[]) => Promise<boolean[]>): Promise<SourceSpec> {
  let current = source;
  for (;;) {
    const keys = (Object.keys(current) as (keyof SourceSpec)[]).filter((k) => k !== 'type');
    const candidates = keys.map((k) => {
      const copy = { ...current };
      delete copy[k];
      return copy;
    });
    if (candidates.length === 0) return current;
    const flags = await test(candidates.map((s) => ({ source: s, ops })));
    const hit = flags.indexOf(true);
    if (hit < 0) return current;
    current = candidates[hit];
  }
}

async function main(): Promise<void> {
  const { oldLib, newLib, declared } = resolveSides(values.old!, values.new!, values.overlay);
  const { exempt, unknown } = fuzzExemptions(declared, FEATURES);
  const started = Date.now();
  let identical = 0;
  const allowed: string[] = [];
  const failing: Entry[] = [];

  for (let from = 0; from < count; from += batchSize) {
    const entries: Entry[] = [];
    for (let i = from; i < Math.min(count, from + batchSize); i++) entries.push({ id: `fuzz/seed-${seed}-${i}`, program: generateProgram(seed, i) });
    const { flags } = await differing(oldLib, newLib, entries);
    entries.forEach((e, i) => {
      if (!flags[i]) identical++;
      else if ([...programFeatures(e.program)].some((f) => exempt.has(f))) allowed.push(e.id);
      else failing.push(e);
    });
    process.stderr.write(`fuzz seed ${seed}: ${Math.min(count, from + batchSize)}/${count} programs, ${failing.length} differing (${((Date.now() - started) / 1000).toFixed(1)} s)\n`);
  }

  // The shortest programs first: they minimize fastest and read best.
  failing.sort((a, b) => a.program.ops.length - b.program.ops.length);
  for (const entry of failing.slice(0, maxMinimize)) {
    process.stderr.write(`minimizing ${entry.id} (${entry.program.ops.length} ops)…\n`);
    const test = async (programs: Program[]) =>
      (await differing(oldLib, newLib, programs.map((program, i) => ({ id: `min/${i}`, program })))).flags;
    const ops = await ddmin(entry.program.ops, (candidates) => test(candidates.map((ops) => ({ source: entry.program.source, ops }))),
      (size) => process.stderr.write(`  ${size} ops\n`));
    const program: Program = { source: await simplifySource(entry.program.source, ops, test), ops };
    const { logs } = await differing(oldLib, newLib, [{ id: entry.id, program }]);
    const diff = compareLogs(logs[0], logs[1]).differing[0];
    console.log(`\nDIFFERS ${entry.id}, minimized from ${entry.program.ops.length} to ${ops.length} ops:`);
    console.log(JSON.stringify(program));
    if (diff) console.log(renderDiff(diff, oldLib.name, newLib.name));
    const name = `seed-${seed}-${entry.id.split('-').pop()}.json`;
    const dir = values.save ? values['save-dir']! : join(OUT, 'ordering', 'fuzz-failures');
    mkdirSync(dir, { recursive: true });
    const file = join(dir, name);
    writeFileSync(file, `${JSON.stringify({ note: `minimized by make fuzz SEED=${seed}: differs between ${oldLib.name} and ${newLib.name}`, ...program }, null, 2)}\n`);
    console.log(values.save ? `saved as scenario ${file}` : `written to ${file} (make fuzz … --save, or copy it under test/ordering/scenarios/fuzz-found/, to add it to the corpus)`);
  }
  if (failing.length > maxMinimize) console.log(`\n${failing.length - maxMinimize} more differing programs not minimized: ${failing.slice(maxMinimize).map((e) => e.id).join(', ')}`);
  for (const d of unknown) console.log(`\nUNKNOWN ${d.layer} declares 'fuzz:${d.scenario.slice(5)}': fuzz features are ${FEATURES.join(', ')}`);
  if (allowed.length) console.log(`\n${allowed.length} programs differ in declared fuzz features (${[...exempt.keys()].join(', ')})`);

  const failed = failing.length + unknown.length;
  console.log(`\nfuzz: seed ${seed}, ${count} programs, ${oldLib.name} vs ${newLib.name}: ${identical} identical, ${allowed.length} declared deviations, ${failing.length} differing (${((Date.now() - started) / 1000).toFixed(1)} s)`);
  reportSummary({ suite: 'fuzz', passed: identical + allowed.length, failed, notes: `seed ${seed}` });
  if (failed > 0) process.exitCode = 1;
}

main().catch((err: Error) => {
  console.error(`fuzz: ${err.message}`);
  reportSummary({ suite: 'fuzz', passed: 0, failed: 1, notes: err.message.split('\n')[0] });
  process.exitCode = 1;
});
