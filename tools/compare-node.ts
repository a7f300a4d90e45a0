// `make compare ENGINE=node`: Node's own tools as the authority. Node's
// benchmark/compare.js runs the series' benchmark files on the two sides,
// Node's benchmark/compare.R renders its CSV, and tools/compare.ts
// --from-csv renders the same CSV; the two tables are set side by side,
// row by row, and must agree.
//
//   node tools/compare-node.ts [--old base] [--new patched] [--runs N | --quick]
//     [--filter text]… [--set key=value]… [--name NAME | --out DIR]
//     [--node-tree DIR] [--with-r auto|yes|no] [--beside DIR|CSV] [--no-progress]
//   node tools/compare-node.ts --from-csv results.csv [--out DIR] [--with-r …] [--beside …]
//
// WITH_R and BESIDE in the environment stand for the options of the same
// names (so they pass through tools/node/compare-checkout.ts).
// - The Node tree whose benchmark/ harness runs: --node-tree (or NODE_TREE),
//   else NODE_DIR (a checkout), else the fixture tree (Debian's nodejs
//   source, tools/node/fixture-tree.ts).
// - out/compare-node/<name>/benchmark/ is staged from that tree's top-level
//   benchmark/ files (compare.js, common.js, _cli.js, compare.R, …) and the
//   project's benchmark/webstreams/*.js, which replace the tree's files of
//   the same names; the tree's other webstreams files are not staged, so the
//   rows are the series' own. A package.json {"type":"commonjs"} beside
//   them keeps Node from reading compare.js as ESM (ours is "type": "module").
// - OLD/NEW mean what they mean to tools/compare.ts (tools/bench/executable.ts):
//   base, patched (LAYERS=a..b), a lib directory, node@x.y.z or a command.
//   compare.js takes one binary path per side, so a side that needs
//   arguments or environment (an injected lib) gets a two-line wrapper in
//   out/compare-node/<name>/bin/, like bin/node-base and bin/node-patched.
// - compare.js's CSV goes to results.csv as it arrives; its progress bar
//   shows on a terminal, otherwise a line every 15 s says how far it is.
// - Renderings of results.csv: compare.R.txt (Rscript compare.R <
//   results.csv; R with ggplot2 and plyr, installed by ci/setup-system.sh),
//   table.txt/chart.svg/results.json (node tools/compare.ts --from-csv), and
//   side-by-side.md. The exit status is 1 when the two renderings disagree
//   beyond the last printed digit on any row.
// - --beside <a tools/compare.ts run (its folder or results.csv)> adds a
//   second table: this compare.js run against that run on the rows both
//   have, with the difference of the improvements and its 95 % bound.
import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { appendFileSync, chmodSync, copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { delimiter, dirname, isAbsolute, join, relative, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { intFlag, parseFlags } from './lib/args.ts';
import { duration } from './lib/progress.ts';
import { OUT, ROOT } from './lib/paths.ts';
import { nodeVersionOf } from './lib/base-source.ts';
import { isExecutableFile } from './lib/releases.ts';
import { analyse, type Row } from './bench/analyse.ts';
import { CSV_HEADER, parseCsv } from './bench/csv.ts';
import { assertCanPin, splitCpuset } from './bench/cpu-pin.ts';
import { describe, resolveExecutable, type Executable } from './bench/executable.ts';
import { BENCHMARK_DIR, findBenchmarks, listConfigs } from './bench/suite.ts';
import { ensureNodeTree } from './node/fixture-tree.ts';

// The same defaults as tools/compare.ts (compare.js's own default is 30).
export const DEFAULT_RUNS = 36;
export const QUICK_RUNS = 4;
export const CATEGORY = 'webstreams';
/** What the staged harness must have: compare.js and what it and the benchmark files load. */
export const HARNESS = ['compare.js', 'common.js', '_cli.js', '_benchmark_progress.js'];

export class UsageError extends Error {}

export interface NodeTree {
  dir: string;
  /** Where it came from: --node-tree, NODE_DIR or the fixture tree. */
  source: string;
  version?: string;
  commit?: string;
}

/** The tree whose benchmark/ harness runs; refuses one without compare.js and the files it needs. */
export function resolveTree(given: string | undefined, source: string, log: (m: string) => void): NodeTree {
  let dir: string;
  if (given) {
    dir = isAbsolute(given) ? given : resolve(given);
    if (!existsSync(dir) || !statSync(dir).isDirectory()) throw new UsageError(`no such Node tree: ${given} (${source})`);
  } else {
    dir = ensureNodeTree(log).dir;
  }
  for (const file of HARNESS) {
    if (!existsSync(join(dir, 'benchmark', file))) {
      throw new UsageError(`${dir}: benchmark/${file} is missing; give a Node source tree (${source}) whose benchmark/ has ${HARNESS.join(', ')}`);
    }
  }
  const tree: NodeTree = { dir, source };
  try {
    tree.version = nodeVersionOf(join(dir, 'src', 'node_version.h'));
  } catch {
    // a tree without src/ still has a usable harness
  }
  const head = spawnSync('git', ['-C', dir, 'rev-parse', '--verify', '--quiet', 'HEAD'], { encoding: 'utf8' });
  if (head.status === 0 && existsSync(join(dir, '.git'))) tree.commit = head.stdout.trim();
  return tree;
}

export interface Staged {
  dir: string;
  /** Our files, as webstreams/<name>. */
  ours: string[];
  /** Our files that replace the tree's file of the same name. */
  replaced: string[];
  /** The tree's webstreams files that have no counterpart here (not staged). */
  treeOnly: string[];
}

const jsFiles = (dir: string) => (existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith('.js') && !f.startsWith('.') && !f.startsWith('_')).sort() : []);

/** <into>: the tree's top-level benchmark/ files, a CommonJS package.json, and our webstreams files. */
export function stage(tree: string, into: string, ourDir = join(BENCHMARK_DIR, CATEGORY)): Staged {
  const from = join(tree, 'benchmark');
  rmSync(into, { recursive: true, force: true });
  mkdirSync(join(into, CATEGORY), { recursive: true });
  for (const name of readdirSync(from)) {
    const file = join(from, name);
    if (statSync(file).isFile()) copyFileSync(file, join(into, name));
  }
  writeFileSync(join(into, 'package.json'), '{\n  "type": "commonjs"\n}\n');
  const ours = jsFiles(ourDir);
  if (ours.length === 0) throw new UsageError(`no benchmark files in ${ourDir}`);
  for (const name of ours) copyFileSync(join(ourDir, name), join(into, CATEGORY, name));
  const theirs = jsFiles(join(from, CATEGORY));
  return {
    dir: into,
    ours: ours.map((n) => `${CATEGORY}/${n}`),
    replaced: theirs.filter((n) => ours.includes(n)).map((n) => `${CATEGORY}/${n}`),
    treeOnly: theirs.filter((n) => !ours.includes(n)).map((n) => `${CATEGORY}/${n}`),
  };
}

const shellQuote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

/**
 * The one path compare.js gets for a side: the executable itself when it
 * needs no arguments and no environment of its own, else a wrapper script
 * at `file` that sets that environment and execs the command with its
 * arguments (and compare.js's).
 */
export function binaryFor(exe: Executable, file: string, side: string): string {
  const env = Object.entries(exe.env).filter(([k, v]) => v !== undefined && process.env[k] !== v) as Array<[string, string]>;
  if (exe.args.length === 0 && env.length === 0) return exe.command;
  for (const [k] of env) if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(k)) throw new Error(`cannot put environment variable '${k}' into a shell wrapper`);
  const lines = [
    '#!/bin/sh',
    `# ${side} = ${exe.spec}, for Node's benchmark/compare.js (one binary path per side):`,
    '# the command tools/compare.ts runs for it. Written by tools/compare-node.ts.',
    ...env.flatMap(([k, v]) => [`${k}=${shellQuote(v)}`, `export ${k}`]),
    `exec ${[exe.command, ...exe.args].map(shellQuote).join(' ')} "$@"`,
    '',
  ];
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, lines.join('\n'));
  chmodSync(file, 0o755);
  return file;
}

// ---- the renderings ---------------------------------------------------------

export interface Rendered {
  confidence: string;
  /** As printed, e.g. `-12.13 %`. */
  improvement: string;
  /** (*), (**), (***) as printed, e.g. `±1.23%` or `NA`. */
  accuracy: string[];
}

/**
 * The rows of a compare.R-style table (compare.R's print of its data frame,
 * or tools/compare.ts's table): for each line that starts with one of
 * `names` (the longest that fits), the five columns after it.
 */
export function parseRendered(text: string, names: readonly string[]): Map<string, Rendered> {
  const byLength = [...names].sort((a, b) => b.length - a.length);
  const rows = new Map<string, Rendered>();
  for (const line of text.split('\n')) {
    const name = byLength.find((n) => line.startsWith(n) && /^\s/.test(line.slice(n.length)));
    if (!name) continue;
    const tokens = line.slice(name.length).trim().split(/\s+/);
    // [confidence] improvement % (*) (**) (***)
    const confidence = tokens.length === 6 ? tokens.shift()! : '';
    if (tokens.length !== 5 || tokens[1] !== '%') continue;
    rows.set(name, { confidence, improvement: `${tokens[0]} %`, accuracy: tokens.slice(2) });
  }
  return rows;
}

export type Verdict = 'same' | 'rounding' | 'different' | 'missing';

export interface Agreement {
  name: string;
  r?: Rendered;
  ours?: Rendered;
  verdict: Verdict;
}

const numberIn = (s: string) => Number(s.replace(/[±%\s]/g, ''));

/** Row by row: identical text, equal up to the last printed digit (0.01), different, or missing on one side. */
export function agree(names: readonly string[], r: Map<string, Rendered>, ours: Map<string, Rendered>): Agreement[] {
  return names.map((name) => {
    const a = r.get(name);
    const b = ours.get(name);
    if (!a || !b) return { name, r: a, ours: b, verdict: 'missing' };
    const fieldsA = [a.improvement, ...a.accuracy];
    const fieldsB = [b.improvement, ...b.accuracy];
    if (a.confidence === b.confidence && fieldsA.every((f, i) => f === fieldsB[i])) return { name, r: a, ours: b, verdict: 'same' };
    const close = fieldsA.every((f, i) => {
      const x = numberIn(f);
      const y = numberIn(fieldsB[i]);
      return f === fieldsB[i] || (Number.isFinite(x) && Number.isFinite(y) && Math.abs(x - y) <= 0.0100001);
    });
    // A p-value on a star boundary may round either way; the stars must match otherwise.
    return { name, r: a, ours: b, verdict: close && a.confidence === b.confidence ? 'rounding' : 'different' };
  });
}

const cell = (x: Rendered | undefined) => (x ? `${x.confidence ? `${x.confidence} ` : ''}${x.improvement} ${x.accuracy[0]}` : '—');
const short = (name: string) => `\`${name.replace(/^webstreams\//, '')}\``;

export function agreementTable(rows: readonly Agreement[]): string {
  const mark: Record<Verdict, string> = { same: 'identical', rounding: 'last digit', different: '**DIFFERENT**', missing: '**MISSING**' };
  const lines = [
    '| row (webstreams/…) | compare.R | tools/compare.ts --from-csv | |',
    '|---|---|---|---|',
    ...rows.map((a) => `| ${short(a.name)} | ${cell(a.r)} | ${cell(a.ours)} | ${mark[a.verdict]} |`),
  ];
  const count = (v: Verdict) => rows.filter((a) => a.verdict === v).length;
  lines.push('', `compare.R and tools/compare.ts agree on ${count('same') + count('rounding')} of ${rows.length} rows ` +
    `(${count('same')} identical in confidence, improvement and all three accuracies; ${count('rounding')} differ in the last printed digit only)` +
    `${count('different') + count('missing') ? `; ${count('different')} different, ${count('missing')} missing` : ''}.`);
  return lines.join('\n');
}

export interface Beside {
  name: string;
  node?: Row;
  ts?: Row;
  /** |improvement difference| against sqrt(acc95a² + acc95b²), in points. */
  difference?: number;
  bound?: number;
}

/** This run's rows next to a tools/compare.ts run's, with the difference of the two improvements. */
export function besideRows(node: readonly Row[], ts: readonly Row[]): Beside[] {
  const other = new Map(ts.map((r) => [r.name, r]));
  const names = [...node.map((r) => r.name), ...ts.map((r) => r.name).filter((n) => !node.some((r) => r.name === n))];
  const mine = new Map(node.map((r) => [r.name, r]));
  return names.map((name) => {
    const a = mine.get(name);
    const b = other.get(name);
    if (!a || !b) return { name, node: a, ts: b };
    return { name, node: a, ts: b, difference: a.improvement - b.improvement, bound: Math.hypot(a.accuracy[0], b.accuracy[0]) };
  });
}

const rowCell = (r: Row | undefined) => (r ? `${r.confidence && r.confidence !== 'NA' ? `${r.confidence} ` : ''}${r.improvement.toFixed(2)} % ±${r.accuracy[0].toFixed(2)}%` : '—');

export function besideTable(rows: readonly Beside[], nodeLabel: string, tsLabel: string): string {
  const lines = [
    `| row (webstreams/…) | ${nodeLabel} | ${tsLabel} | difference (95 % bound) |`,
    '|---|---|---|---|',
    ...rows.map((b) => `| ${short(b.name)} | ${rowCell(b.node)} | ${rowCell(b.ts)} | ${b.difference === undefined ? 'row in one run only' :
      `${b.difference >= 0 ? '+' : ''}${b.difference.toFixed(2)} (±${b.bound!.toFixed(2)})${Math.abs(b.difference) > b.bound! ? ' **outside**' : ''}`} |`),
  ];
  const both = rows.filter((b) => b.difference !== undefined);
  const outside = both.filter((b) => Math.abs(b.difference!) > b.bound!);
  const sameStars = both.filter((b) => b.node!.confidence === b.ts!.confidence).length;
  const sameSign = both.filter((b) => Math.sign(b.node!.improvement) === Math.sign(b.ts!.improvement)).length;
  lines.push('', `${both.length} rows in both runs: the improvements differ by less than their 95 % bound on ${both.length - outside.length} ` +
    `(about 1 in 20 falls outside by chance), have the same sign on ${sameSign} and the same stars on ${sameStars}.`);
  return lines.join('\n');
}

// ---- running ----------------------------------------------------------------

function onPath(name: string): string | undefined {
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    if (dir && isExecutableFile(join(dir, name))) return join(dir, name);
  }
  return undefined;
}

export interface RCheck {
  rscript?: string;
  version?: string;
  /** Why compare.R cannot run, when it cannot. */
  missing?: string;
}

/** Rscript (RSCRIPT, else on PATH) with ggplot2 and plyr, as compare.R loads them. */
export function findR(): RCheck {
  const rscript = process.env.RSCRIPT || onPath('Rscript');
  const hint = 'Debian: apt-get install --no-install-recommends r-base-core r-cran-ggplot2 r-cran-plyr (bash ci/setup-system.sh does)';
  if (!rscript || !isExecutableFile(rscript)) return { missing: `Rscript ${process.env.RSCRIPT ? `(RSCRIPT=${process.env.RSCRIPT}) ` : ''}is not installed; ${hint}` };
  const r = spawnSync(rscript, ['-e', 'suppressMessages({library(ggplot2); library(plyr)}); cat(R.version.string)'], { encoding: 'utf8', timeout: 60_000 });
  if (r.status !== 0) return { rscript, missing: `${rscript} cannot load ggplot2 and plyr: ${(r.stderr || String(r.error)).trim().split('\n').slice(-2).join(' ')}; ${hint}` };
  return { rscript, version: r.stdout.trim() };
}

function die(message: string): never {
  process.stderr.write(`compare-node: ${message}\n`);
  process.exit(2);
}

interface Renderings {
  exit: number;
}

/** compare.R and tools/compare.ts on one CSV, then the two side by side (and a tools/compare.ts run beside, if given). */
function render(csv: string, outDir: string, harness: string, r: RCheck, withR: string, beside: string | undefined): Renderings {
  let samples;
  try {
    samples = parseCsv(readFileSync(csv, 'utf8'));
  } catch (err) {
    die(`${csv}: ${(err as Error).message}`);
  }
  const names = [...new Set(samples.map((s) => (s.configuration ? `${s.filename} ${s.configuration}` : s.filename)))];
  let exit = 0;
  const parts: string[] = [];

  let rTable: Map<string, Rendered> | undefined;
  if (r.rscript && !r.missing) {
    const out = spawnSync(r.rscript, [join(harness, 'compare.R')], { input: readFileSync(csv), cwd: harness, encoding: 'utf8', timeout: 300_000 });
    if (out.status !== 0) {
      process.stderr.write(`compare-node: Rscript compare.R failed (${out.status ?? out.signal}):\n${out.stderr}`);
      exit = 1;
    } else {
      writeFileSync(join(outDir, 'compare.R.txt'), out.stdout);
      process.stdout.write(`\n== Rscript ${relative(ROOT, join(harness, 'compare.R'))} < ${relative(ROOT, csv)}\n${out.stdout}`);
      rTable = parseRendered(out.stdout, names);
    }
  } else {
    process.stdout.write(`\n== compare.R not run: ${r.missing}\n`);
    if (withR === 'yes') exit = 1;
  }

  const ours = spawnSync(process.execPath, [join(ROOT, 'tools', 'compare.ts'), '--from-csv', csv, '--out', outDir], { encoding: 'utf8', timeout: 300_000 });
  if (ours.status !== 0) {
    process.stderr.write(`compare-node: tools/compare.ts --from-csv failed (${ours.status ?? ours.signal}):\n${ours.stderr}`);
    return { exit: 1 };
  }
  process.stdout.write(`\n== node tools/compare.ts --from-csv ${relative(ROOT, csv)}\n${ours.stdout}`);
  const oursTable = parseRendered(readFileSync(join(outDir, 'table.txt'), 'utf8'), names);
  if (oursTable.size !== names.length) {
    process.stderr.write(`compare-node: tools/compare.ts's table has ${oursTable.size} of the CSV's ${names.length} rows\n`);
    exit = 1;
  }

  parts.push(`# ${relative(ROOT, csv)}: two renderings of one compare.js CSV`, '');
  if (rTable) {
    const rows = agree(names, rTable, oursTable);
    parts.push(agreementTable(rows));
    if (rows.some((a) => a.verdict === 'different' || a.verdict === 'missing')) exit = 1;
  } else {
    parts.push(`compare.R not run (${r.missing}); only tools/compare.ts rendered it (table.txt).`);
  }

  if (beside) {
    const besideCsv = existsSync(beside) && statSync(beside).isDirectory() ? join(beside, 'results.csv') : beside;
    let other;
    try {
      other = analyse(parseCsv(readFileSync(besideCsv, 'utf8')));
    } catch (err) {
      die(`--beside ${beside}: ${(err as Error).message}`);
    }
    const mine = analyse(samples);
    const runsOf = (rows: readonly Row[]) => {
      const counts = [...new Set(rows.flatMap((row) => [row.old.length, row.new.length]))].sort((a, b) => a - b);
      return counts.length === 1 ? `${counts[0]}` : `${counts[0]}–${counts[counts.length - 1]}`;
    };
    parts.push('', `# beside a tools/compare.ts run: ${relative(ROOT, besideCsv)}`, '',
      `compare.js: ${runsOf(mine.rows)} runs a side, geometric mean new/old ${mine.geomean.toFixed(4)}; ` +
      `tools/compare.ts: ${runsOf(other.rows)} runs a side, geometric mean ${other.geomean.toFixed(4)}.`, '',
      besideTable(besideRows(mine.rows, other.rows), 'compare.js (confidence, improvement ±95 %)', 'tools/compare.ts'));
  }
  const text = `${parts.join('\n')}\n`;
  writeFileSync(join(outDir, 'side-by-side.md'), text);
  process.stdout.write(`\n== side by side (${relative(ROOT, join(outDir, 'side-by-side.md'))})\n${text}`);
  return { exit };
}

async function main(): Promise<void> {
  const USAGE = 'node tools/compare-node.ts [--old base] [--new patched] [--runs N | --quick] [--filter text]… [--set key=value]… [--name NAME | --out DIR] [--node-tree DIR] [--with-r auto|yes|no] [--beside DIR|CSV] [--no-progress] [webstreams] | --from-csv FILE [--out DIR] [--beside …]';
  const { values, positionals } = parseFlags({
    old: { type: 'string', default: 'base' },
    new: { type: 'string', default: 'patched' },
    runs: { type: 'string' },
    quick: { type: 'boolean', default: false },
    filter: { type: 'string', multiple: true, default: [] },
    set: { type: 'string', multiple: true, default: [] },
    name: { type: 'string' },
    out: { type: 'string' },
    clock: { type: 'string' },
    'node-tree': { type: 'string' },
    'with-r': { type: 'string', default: process.env.WITH_R || 'auto' },
    beside: { type: 'string', default: process.env.BESIDE || undefined },
    'no-progress': { type: 'boolean', default: false },
    'from-csv': { type: 'string' },
  }, USAGE);
  // A category may be named (make passes its CATEGORIES), but only this one runs.
  const other = positionals.find((p) => p !== CATEGORY);
  if (other !== undefined) die(`unexpected argument '${other}': only the ${CATEGORY} category runs here\nusage: ${USAGE}`);
  const withR = values['with-r'];
  if (!['auto', 'yes', 'no'].includes(withR)) die(`--with-r must be auto, yes or no, got '${withR}'`);
  if (values.clock !== undefined && values.clock !== 'wall') die(`--clock ${values.clock}: Node's compare.js times wall-clock only (CLOCK=cpu is tools/compare.ts's)`);
  if (values.beside && !existsSync(values.beside)) die(`--beside ${values.beside}: no such file or folder`);

  const name = values.name ?? new Date().toISOString().replace(/:/g, '-').replace(/\..*$/, '');
  if (!values.out && !/^[\w.-]+$/.test(name)) die(`--name may only use letters, digits, '.', '_' and '-', got '${name}'`);
  const outDir = values.out ? resolve(values.out) : join(OUT, 'compare-node', name);

  const env = (k: string) => (process.env[k] ? process.env[k] : undefined);
  const given = values['node-tree'] ?? env('NODE_TREE') ?? env('NODE_DIR');
  const source = values['node-tree'] ? '--node-tree' : env('NODE_TREE') ? 'NODE_TREE' : env('NODE_DIR') ? 'NODE_DIR' : 'the fixture tree';
  let tree: NodeTree;
  try {
    tree = resolveTree(given, source, (m) => process.stderr.write(`compare-node: ${m}\n`));
  } catch (err) {
    die((err as Error).message);
  }
  // R first: asked for and missing stops before an hour of benchmarks.
  const r: RCheck = withR === 'no' ? { missing: 'not asked for (--with-r no)' } : findR();
  if (withR === 'yes' && r.missing) die(`compare.R was asked for (--with-r yes) but cannot run: ${r.missing}`);

  if (values['from-csv']) {
    const csv = resolve(values['from-csv']);
    if (!existsSync(csv)) die(`--from-csv ${values['from-csv']}: no such file`);
    mkdirSync(outDir, { recursive: true });
    process.exitCode = render(csv, outDir, join(tree.dir, 'benchmark'), r, withR, values.beside).exit;
    return;
  }

  const runs = values.runs !== undefined ? intFlag('compare-node', 'runs', values.runs, 1, USAGE) : values.quick ? QUICK_RUNS : DEFAULT_RUNS;
  if (runs < 2) die('--runs must be at least 2: the t-test needs two samples a side');
  const filters = values.filter.flatMap((f) => f.split(',')).map((f) => f.trim()).filter(Boolean);
  for (const f of filters) if (f.includes('/')) die(`--filter ${f}: compare.js matches a filter against the file name only (no '/')`);
  const sets = values.set.flatMap((s) => s.split(/\s+/)).filter(Boolean);
  for (const s of sets) if (!/^[^=]+=/.test(s)) die(`--set expects key=value, got '${s}'`);
  let split: ReturnType<typeof splitCpuset>;
  try {
    split = splitCpuset(sets);
  } catch (err) {
    die((err as Error).message);
  }

  // The rows, as tools/compare.ts would select them (the same files and --set rules).
  let files: string[];
  try {
    files = findBenchmarks([CATEGORY], filters);
  } catch (err) {
    die((err as Error).message);
  }
  if (files.length === 0) die(`no benchmark matches --filter ${filters.join(',')} in ${CATEGORY}`);
  let configurations = 0;
  const keys = new Set<string>(['CPUSET']); // compare.js's own: runs the benchmarks under taskset
  for (const filename of files) {
    try {
      const listed = listConfigs(filename, split.rest);
      listed.keys.forEach((k) => keys.add(k));
      configurations += listed.configs.length;
    } catch (err) {
      die((err as Error).message);
    }
  }
  for (const s of sets) {
    const key = s.slice(0, s.indexOf('='));
    if (!keys.has(key)) die(`--set ${s}: no selected benchmark has a configuration key '${key}'`);
  }
  try {
    // compare.js checks CPUSET's syntax only; a CPU this machine lacks would fail every run.
    if (split.cpuset !== null) assertCanPin(split.cpuset);
  } catch (err) {
    die((err as Error).message);
  }

  let old: Executable;
  let fresh: Executable;
  let described: string[];
  try {
    old = resolveExecutable(values.old);
    fresh = resolveExecutable(values.new);
    described = [describe(old), describe(fresh)];
  } catch (err) {
    die((err as Error).message);
  }

  rmSync(outDir, { recursive: true, force: true });
  mkdirSync(outDir, { recursive: true });
  const staged = stage(tree.dir, join(outDir, 'benchmark'));
  const binaries = { old: binaryFor(old, join(outDir, 'bin', 'old'), 'old'), new: binaryFor(fresh, join(outDir, 'bin', 'new'), 'new') };
  const compareJs = join(staged.dir, 'compare.js');
  const argv = [compareJs, '--old', binaries.old, '--new', binaries.new, '--runs', String(runs),
    ...filters.flatMap((f) => ['--filter', f]), ...sets.flatMap((s) => ['--set', s]),
    ...(values['no-progress'] ? ['--no-progress'] : []), CATEGORY];
  const csvPath = join(outDir, 'results.csv');
  const expected = configurations * runs * 2;
  const meta = {
    engine: 'node benchmark/compare.js',
    tree,
    compareJsSha256: createHash('sha256').update(readFileSync(compareJs)).digest('hex'),
    staged: { ours: staged.ours.length, replaced: staged.replaced, notStaged: staged.treeOnly },
    old: { spec: old.spec, binary: binaries.old, runs: described[0] },
    new: { spec: fresh.spec, binary: binaries.new, runs: described[1] },
    runsPerSide: runs, filters, sets, files, configurations,
    command: [process.execPath, ...argv],
    r: r.version ?? r.missing,
    started: new Date().toISOString(),
    cpus: cpus().length,
    loadavgStart: loadavg(),
    finished: undefined as string | undefined,
    seconds: undefined as number | undefined,
    loadavgEnd: undefined as number[] | undefined,
  };
  writeFileSync(join(outDir, 'meta.json'), `${JSON.stringify(meta, null, 2)}\n`);

  console.log(`harness: ${relative(ROOT, tree.dir) || tree.dir}/benchmark (${tree.source}${tree.version ? `, Node ${tree.version}` : ''}${tree.commit ? ` at ${tree.commit.slice(0, 12)}` : ''})`);
  console.log(`staged:  ${relative(ROOT, staged.dir)}: its harness + our ${staged.ours.length} ${CATEGORY} files` +
    `${staged.replaced.length ? ` (replacing its ${staged.replaced.length} of the same names)` : ''}` +
    `${staged.treeOnly.length ? `; not staged, the tree's own: ${staged.treeOnly.join(', ')}` : ''}`);
  console.log(`old: ${old.spec} = ${relative(ROOT, binaries.old) || binaries.old} (${described[0]})`);
  console.log(`new: ${fresh.spec} = ${relative(ROOT, binaries.new) || binaries.new} (${described[1]})`);
  console.log(`${configurations} configurations in ${files.length} files, ${runs} runs each side (${expected} results); R: ${r.version ?? r.missing}`);
  console.log(`running: node ${argv.map((a) => (a.startsWith(ROOT) ? relative(ROOT, a) : a)).map((a) => (/[\s']/.test(a) ? shellQuote(a) : a)).join(' ')} > ${relative(ROOT, csvPath)}\n`);

  writeFileSync(csvPath, '');
  const started = Date.now();
  const child = spawn(process.execPath, argv, { cwd: staged.dir, stdio: ['ignore', 'pipe', 'inherit'] });
  let interrupted = false;
  process.on('SIGINT', () => {
    // compare.js (same process group) gets the signal too; say where the results are.
    interrupted = true;
  });
  let lines = 0;
  let rows = 0;
  let last = '';
  let lastReport = Date.now();
  const quiet = values['no-progress'] || process.stderr.isTTY; // on a terminal compare.js draws its own progress
  const input = createInterface({ input: child.stdout! });
  input.on('line', (line) => {
    appendFileSync(csvPath, `${line}\n`);
    if (lines++ === 0) {
      if (line !== CSV_HEADER) process.stderr.write(`compare-node: compare.js printed '${line}', not the CSV header ${CSV_HEADER}\n`);
      return;
    }
    rows++;
    last = line.split(',').slice(0, 2).join(' ').replace(/"/g, '');
    if (!quiet && Date.now() - lastReport > 15_000) {
      lastReport = Date.now();
      const elapsed = (Date.now() - started) / 1000;
      process.stderr.write(`compare-node: [${String(Math.floor((100 * rows) / expected)).padStart(3)}%] ${rows}/${expected} results, last ${last} — ${duration((elapsed / rows) * (expected - rows))} left\n`);
    }
  });
  const output = new Promise<void>((done) => input.once('close', done));
  const code = await new Promise<number>((done) => {
    child.on('error', (err) => {
      process.stderr.write(`compare-node: cannot start compare.js: ${err.message}\n`);
      done(1);
    });
    child.on('close', (c, signal) => done(c ?? (signal === 'SIGINT' ? 130 : 1)));
  });
  await output;
  meta.finished = new Date().toISOString();
  meta.seconds = Math.round((Date.now() - started) / 1000);
  meta.loadavgEnd = loadavg();
  writeFileSync(join(outDir, 'meta.json'), `${JSON.stringify(meta, null, 2)}\n`);
  if (interrupted || code !== 0) {
    die(`compare.js ${interrupted ? 'was interrupted' : `exited with ${code}`} after ${rows} of ${expected} results; partial CSV: ${csvPath}\n` +
      `  render what is there: node tools/compare-node.ts --from-csv ${relative(ROOT, csvPath)} --out ${relative(ROOT, outDir)}/partial`);
  }
  if (rows !== expected) process.stderr.write(`compare-node: compare.js wrote ${rows} results, expected ${expected}\n`);
  console.log(`compare.js: ${rows} results in ${duration(meta.seconds)}; load average ${meta.loadavgStart.map((l) => l.toFixed(2)).join(' ')} at the start, ${meta.loadavgEnd.map((l) => l.toFixed(2)).join(' ')} at the end`);
  const { exit } = render(csvPath, outDir, staged.dir, r, withR, values.beside);
  console.log(`\nCSV: ${csvPath}\ncompare.R: ${existsSync(join(outDir, 'compare.R.txt')) ? join(outDir, 'compare.R.txt') : '(not run)'}  tools/compare.ts: ${join(outDir, 'table.txt')}  side by side: ${join(outDir, 'side-by-side.md')}`);
  if (rows !== expected) process.exitCode = 1;
  if (exit !== 0) process.exitCode = exit;
}

if (import.meta.main) await main();
