// Runs one random program of the fuzz generator, or a saved program file
// (what `make fuzz` writes under out/ordering/fuzz-failures/), on libs and
// on the reference implementation, and prints the program and each side's
// log, then what differs between the first two sides on the projections
// (each stream's callbacks, chunks, settlements and final states, error
// texts normalized). For triaging what `make fuzz` and `make reference`
// report.
//
//   node tools/show-program.ts --seed S --index I [--drops] [--coding] [--lib NAME]… [--reference] [--delay JSON]
//   node tools/show-program.ts FILE [--lib NAME]… [--reference] [--delay JSON]
//
// --lib: base, patched, layers-N or a lib directory (several allowed;
// default base and patched). --delay: a race witness for every side, as
// the fuzz's judge writes them (`{"5":8,"w0.write":1}`); one with a pipe's
// `<op>.shutdown` runs each lib with the judge's hook
// (tools/ordering/shutdown-hook.ts).
import { readFileSync } from 'node:fs';
import { intFlag, parseFlags } from './lib/args.ts';
import { resolveLib, type Lib } from './lib/injected.ts';
import { generateProgram, type Program } from './ordering/generate.ts';
import { classify } from './ordering/kinds.ts';
import { renderProjectionDiffs } from './ordering/projections.ts';
import { delaysShutdown, withShutdownHook } from './ordering/shutdown-hook.ts';
import { referenceDiffs } from './ordering/reference.ts';
import { REFERENCE, runSide } from './ordering/side.ts';

const USAGE = 'node tools/show-program.ts (--seed S --index I [--drops] [--coding] | FILE) [--lib NAME]… [--reference] [--delay JSON]';
const { values, positionals } = parseFlags({
  seed: { type: 'string' },
  index: { type: 'string' },
  drops: { type: 'boolean', default: false },
  coding: { type: 'boolean', default: false },
  lib: { type: 'string', multiple: true },
  reference: { type: 'boolean', default: false },
  delay: { type: 'string' },
}, USAGE);

function fail(message: string): never {
  console.error(`show-program: ${message}\nusage: ${USAGE}`);
  process.exit(2);
}

function readProgram(): Program {
  if (positionals.length > 1) fail('give one program file');
  if (positionals.length === 1) {
    if (values.seed !== undefined || values.index !== undefined) fail('give a file or --seed and --index, not both');
    const { note: _note, ...program } = JSON.parse(readFileSync(positionals[0], 'utf8')) as Program & { note?: string };
    if (!Array.isArray(program.ops) || typeof program.source !== 'object') fail(`${positionals[0]} is no program (source and ops)`);
    return program;
  }
  if (values.seed === undefined || values.index === undefined) fail('give a program file, or --seed and --index');
  const seed = intFlag('show-program', 'seed', values.seed, 0, USAGE);
  const index = intFlag('show-program', 'index', values.index, 0, USAGE);
  return generateProgram(seed, index, { drops: values.drops, coding: values.coding });
}

function readDelay(): Record<string, number> | undefined {
  if (values.delay === undefined) return undefined;
  let delay: unknown;
  try {
    delay = JSON.parse(values.delay);
  } catch {
    fail(`--delay is not JSON: ${values.delay}`);
  }
  if (typeof delay !== 'object' || delay === null || Object.values(delay).some((n) => !Number.isInteger(n) || (n as number) < 1))
    fail(`--delay must map what comes later to whole turns >= 1: ${values.delay}`);
  return delay as Record<string, number>;
}

const program = readProgram();
const delay = readDelay();
const run: Program = delay ? { ...program, delay } : program;
const hooked = (lib: Lib): Lib => {
  const withHook = withShutdownHook(lib);
  return withHook.lib ?? fail(`--delay moves a pipe's shutdown, and ${lib.name} cannot take the hook: ${withHook.why}`);
};
const sides: Lib[] = (values.lib ?? ['base', 'patched']).map((name) => resolveLib(name))
  .map((lib) => (delay && delaysShutdown(delay) ? hooked(lib) : lib));
// The polyfill has no encoding streams: Node's would run on its streams, and their records would not read.
if (values.reference && program.ops.some((o) => o.coding)) fail('--reference cannot run a program with encoding streams (coding ops): the reference implementation has none');
if (values.reference) sides.push(REFERENCE);

console.log(JSON.stringify(run));
const batch = { kind: 'programs' as const, programs: [{ id: 'program', program: run }] };
const logs = await Promise.all(sides.map(async (lib) => (await runSide(lib, batch)).logs.get('program') ?? ['(no log)']));
sides.forEach((lib, i) => console.log(`\n==== ${lib.name}\n${logs[i].join('\n')}`));
if (sides.length >= 2) {
  const diffs = referenceDiffs(logs[0], logs[1]);
  console.log(diffs.length === 0 ?
    `\n${sides[0].name} and ${sides[1].name} agree on every projection` :
    `\n${sides[0].name} vs ${sides[1].name}:\n${renderProjectionDiffs(diffs, sides[0].name, sides[1].name, 20)}`);
  // The narrowest kind (tools/ordering/kinds.ts) a declaration would need; the
  // reference's error messages are its own, so only between two of Node's libs.
  if (sides[1] !== REFERENCE) console.log(`narrowest kind of difference: ${classify(logs[0], logs[1])}`);
}
