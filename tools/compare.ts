// `make compare`: every selected benchmark configuration on two executables
// (node-base and node-patched by default), interleaved run by run, then
// Node's compare table (Welch's t-test), the geometric mean, the
// significantly slower rows, the raw CSV in compare.js's format and an SVG.
//
//   node tools/compare.ts [--old base] [--new patched] [--runs N | --quick]
//     [--filter text]… [--set key=value]… [--name NAME | --out DIR]
//     [--clock wall|cpu] [--timeout s] [--no-progress] [category…]
//   node tools/compare.ts --from-csv results.csv [--out DIR]   (analyse a CSV only)
//
// Schedule: round r runs every configuration once on each side, in the order
// old,new on even rounds and new,old on odd ones, so drift of the machine
// (other load, thermal state) falls on both sides alike and each
// configuration's samples spread over the whole run.
//
// --clock cpu times the benchmark's main thread CPU time instead of wall
// time (benchmark/common.js, NODE_BENCHMARK_CLOCK): far less noise when other
// work shares the cores, at the price of not counting V8's helper threads.
//
// --set CPUSET=LIST runs every benchmark process under `taskset -c LIST`, as
// Node's compare.js does with the same option (tools/bench/cpu-pin.ts says
// why it matters on these machines).
import { mkdirSync, readFileSync, rmSync, writeFileSync, appendFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { isAbsolute, join, relative, resolve } from 'node:path';
import { intFlag, parseFlags } from './lib/args.ts';
import { duration } from './lib/progress.ts';
import { OUT, ROOT } from './lib/paths.ts';
import { analyse, type Analysis } from './bench/analyse.ts';
import { renderChart } from './bench/chart.ts';
import { CSV_HEADER, formatConfiguration, formatSample, parseCsv, type Binary, type Sample } from './bench/csv.ts';
import { assertCanPin, pinnedCommand, splitCpuset } from './bench/cpu-pin.ts';
import { describe, resolveExecutable, type Executable } from './bench/executable.ts';
import { runBenchmark, type RunningChild } from './bench/runner.ts';
import { BENCHMARK_DIR, findBenchmarks, listConfigs, type Config, type Listing } from './bench/suite.ts';
import { renderPaired, renderReport } from './bench/table.ts';

// About 30 minutes for the whole default suite on the 2-core reference
// machine: one round of all 49 configurations on both sides took 46 s at a
// load average of 1.5 (77 s at 5-12). QUICK takes 3-5 minutes.
export const DEFAULT_RUNS = 36;
export const QUICK_RUNS = 4;

const USAGE = 'node tools/compare.ts [--old base] [--new patched] [--runs N | --quick] [--filter text]… [--set key=value]… [--name NAME | --out DIR] [--clock wall|cpu] [--timeout s] [--no-progress] [category…] | --from-csv FILE';

const { values, positionals } = parseFlags({
  old: { type: 'string', default: 'base' },
  new: { type: 'string', default: 'patched' },
  runs: { type: 'string' },
  quick: { type: 'boolean', default: false },
  filter: { type: 'string', multiple: true, default: [] },
  set: { type: 'string', multiple: true, default: [] },
  name: { type: 'string' },
  out: { type: 'string' },
  timeout: { type: 'string', default: '120' },
  clock: { type: 'string', default: 'wall' },
  'no-progress': { type: 'boolean', default: false },
  'from-csv': { type: 'string' },
}, USAGE);

function die(message: string): never {
  process.stderr.write(`compare: ${message}\n`);
  process.exit(2);
}

function outputDir(): string {
  if (values.out) return isAbsolute(values.out) ? values.out : resolve(values.out);
  const name = values.name ?? new Date().toISOString().replace(/:/g, '-').replace(/\..*$/, '');
  if (!/^[\w.-]+$/.test(name)) die(`--name may only use letters, digits, '.', '_' and '-', got '${name}'`);
  return join(OUT, 'compare', name);
}

interface Meta {
  old: { spec: string; runs: string };
  new: { spec: string; runs: string };
  runsPerSide: number;
  clock: string;
  /** The CPUs every run was pinned to (--set CPUSET=), or null. */
  cpuset: string | null;
  filters: string[];
  sets: string[];
  started: string;
  finished?: string;
  seconds?: number;
  cpus: number;
  loadavgStart: number[];
  loadavgEnd?: number[];
  interrupted?: boolean;
}

function writeOutputs(dir: string, analysis: Analysis, meta: Meta | undefined, title: string): string {
  const report = renderReport(analysis);
  writeFileSync(join(dir, 'table.txt'), report);
  const paired = renderPaired(analysis);
  writeFileSync(join(dir, 'paired.txt'), paired);
  const subtitle = meta ?
    `old = ${meta.old.spec}, new = ${meta.new.spec}; ${meta.runsPerSide} runs each, ${meta.clock} clock${meta.cpuset ? `, CPU ${meta.cpuset}` : ''}; geometric mean new/old ${analysis.geomean.toFixed(4)}` :
    `geometric mean new/old ${analysis.geomean.toFixed(4)}`;
  writeFileSync(join(dir, 'chart.svg'), renderChart(analysis.rows, title, subtitle));
  const rows = analysis.rows.map((r) => ({
    filename: r.filename, configuration: r.configuration, confidence: r.confidence, p: r.p,
    improvement: r.improvement, accuracy: { '*': r.accuracy[0], '**': r.accuracy[1], '***': r.accuracy[2] },
    ratio: r.ratio, oldMean: r.oldMean, newMean: r.newMean, old: r.old, new: r.new, paired: r.paired,
  }));
  writeFileSync(join(dir, 'results.json'), `${JSON.stringify({ meta, geomean: analysis.geomean, pairedGeomean: analysis.pairedGeomean, slower: analysis.slower.map((r) => r.name), rows }, null, 2)}\n`);
  return `${report}\n${paired}`;
}

function fromCsv(file: string): void {
  let samples: Sample[];
  try {
    samples = parseCsv(readFileSync(file, 'utf8'));
  } catch (err) {
    die(`${file}: ${(err as Error).message}`);
  }
  const analysis = analyse(samples);
  const dir = values.out ? outputDir() : resolve(file, '..');
  mkdirSync(dir, { recursive: true });
  process.stdout.write(writeOutputs(dir, analysis, undefined, `benchmark comparison (${relative(ROOT, resolve(file))})`));
  process.stdout.write(`table: ${join(dir, 'table.txt')}\nchart: ${join(dir, 'chart.svg')}\n`);
}

interface Job {
  filename: string;
  path: string;
  config: Config;
  flags: string[];
  label: string;
}

class Progress {
  private done = 0;
  private readonly started = Date.now();
  private lastLine = 0;
  private readonly tty = process.stderr.isTTY === true;
  private readonly total: number;
  private readonly enabled: boolean;
  constructor(total: number, enabled: boolean) {
    this.total = total;
    this.enabled = enabled;
  }
  /** Before a run starts. */
  show(round: number, rounds: number, job: Job, binary: Binary): void {
    if (!this.enabled) return;
    const elapsed = (Date.now() - this.started) / 1000;
    const left = this.done === 0 ? NaN : (elapsed / this.done) * (this.total - this.done);
    const pct = ((100 * this.done) / this.total).toFixed(0).padStart(3);
    const line = `[${pct}%] run ${round + 1}/${rounds} ${job.label} (${binary}) — ${duration(left)} left`;
    if (this.tty) {
      const width = process.stderr.columns || 120;
      process.stderr.write(`\r\x1b[K${line.length > width - 1 ? `${line.slice(0, width - 2)}…` : line}`);
    } else if (Date.now() - this.lastLine > 15_000 || this.done === 0) {
      this.lastLine = Date.now();
      process.stderr.write(`${line}\n`);
    }
  }
  tick(): void {
    this.done++;
  }
  end(): void {
    if (this.enabled && this.tty) process.stderr.write('\r\x1b[K');
  }
  get seconds(): number {
    return (Date.now() - this.started) / 1000;
  }
}

async function main(): Promise<void> {
  if (values['from-csv']) return fromCsv(values['from-csv']);

  const runs = values.runs !== undefined ? intFlag('compare', 'runs', values.runs, 1, USAGE) : values.quick ? QUICK_RUNS : DEFAULT_RUNS;
  const timeoutMs = intFlag('compare', 'timeout', values.timeout, 1, USAGE) * 1000;
  const filters = values.filter.flatMap((f) => f.split(',')).map((f) => f.trim()).filter(Boolean);
  const allSets = values.set.flatMap((s) => s.split(/\s+/)).filter(Boolean);
  for (const s of allSets) if (!/^[^=]+=/.test(s)) die(`--set expects key=value, got '${s}'`);
  let cpuset: string | null;
  let sets: string[];
  try {
    ({ cpuset, rest: sets } = splitCpuset(allSets));
  } catch (err) {
    die((err as Error).message);
  }
  const categories = positionals.length > 0 ? positionals : ['webstreams'];
  const clock = values.clock;
  if (clock !== 'wall' && clock !== 'cpu') die(`--clock must be wall or cpu, got '${clock}'`);
  const dir = outputDir();

  let old: Executable;
  let fresh: Executable;
  try {
    old = resolveExecutable(values.old);
    fresh = resolveExecutable(values.new);
    for (const exe of [old, fresh]) exe.env = { ...exe.env, NODE_BENCHMARK_CLOCK: clock };
    if (cpuset !== null) {
      assertCanPin(cpuset);
      for (const exe of [old, fresh]) Object.assign(exe, pinnedCommand(cpuset, exe.command, exe.args));
    }
  } catch (err) {
    die((err as Error).message);
  }

  // What runs: files, then each file's configurations under --set.
  let files: string[];
  try {
    files = findBenchmarks(categories, filters);
  } catch (err) {
    die((err as Error).message);
  }
  if (files.length === 0) die(`no benchmark matches --filter ${filters.join(',')} in ${categories.join(', ')}`);
  const jobs: Job[] = [];
  const usedKeys = new Set<string>();
  for (const filename of files) {
    let listed: Listing;
    try {
      listed = listConfigs(filename, sets);
    } catch (err) {
      die((err as Error).message);
    }
    for (const k of listed.keys) usedKeys.add(k);
    for (const config of listed.configs) {
      jobs.push({ filename, path: join(BENCHMARK_DIR, filename), config, flags: listed.flags, label: `${filename} ${formatConfiguration(config)}` });
    }
  }
  for (const s of sets) {
    const key = s.slice(0, s.indexOf('='));
    if (!usedKeys.has(key)) die(`--set ${s}: no selected benchmark has a configuration key '${key}'`);
  }

  let described: string[];
  try {
    described = [describe(old), describe(fresh)];
  } catch (err) {
    die((err as Error).message);
  }
  const meta: Meta = {
    old: { spec: old.spec, runs: described[0] },
    new: { spec: fresh.spec, runs: described[1] },
    runsPerSide: runs,
    clock,
    cpuset,
    filters,
    sets,
    started: new Date().toISOString(),
    cpus: cpus().length,
    loadavgStart: loadavg(),
  };
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const csvPath = join(dir, 'results.csv');
  writeFileSync(csvPath, `${CSV_HEADER}\n`);

  console.log(`old: ${old.spec} (${meta.old.runs})`);
  console.log(`new: ${fresh.spec} (${meta.new.runs})`);
  console.log(`${jobs.length} configurations in ${files.length} files, ${runs} runs each side, interleaved (${jobs.length * runs * 2} runs), ${clock} clock${cpuset !== null ? `, pinned to CPU ${cpuset}` : ''}; load average ${meta.loadavgStart.map((l) => l.toFixed(2)).join(' ')} on ${meta.cpus} CPUs`);
  console.log(`writing ${relative(process.cwd(), csvPath) || csvPath}\n`);

  const samples: Sample[] = [];
  const progress = new Progress(jobs.length * runs * 2, !values['no-progress']);
  let current: RunningChild | undefined;
  let interrupted = false;
  process.on('SIGINT', () => {
    if (interrupted) process.exit(130);
    interrupted = true;
    current?.kill();
    process.stderr.write('\ncompare: interrupted; analysing the runs so far (Ctrl-C again to quit)\n');
  });

  const sides: Record<Binary, Executable> = { old, new: fresh };
  outer: for (let round = 0; round < runs; round++) {
    const order: Binary[] = round % 2 === 0 ? ['old', 'new'] : ['new', 'old'];
    for (const job of jobs) {
      for (const binary of order) {
        if (interrupted) break outer;
        progress.show(round, runs, job, binary);
        current = runBenchmark(sides[binary], job.path, job.config, timeoutMs, job.flags);
        let report;
        try {
          report = await current.promise;
        } catch (err) {
          if (interrupted) break outer;
          progress.end();
          process.stderr.write(`compare: ${job.label} failed on ${binary} (${sides[binary].spec}): ${(err as Error).message}\n`);
          process.stderr.write(`compare: partial results in ${csvPath}\n`);
          process.exit(1);
        }
        progress.tick();
        const sample: Sample = { binary, filename: job.filename, configuration: formatConfiguration(report.conf), rate: report.rate, time: report.time };
        samples.push(sample);
        appendFileSync(csvPath, `${formatSample(sample)}\n`);
      }
    }
  }
  progress.end();

  meta.finished = new Date().toISOString();
  meta.seconds = Math.round(progress.seconds);
  meta.loadavgEnd = loadavg();
  meta.interrupted = interrupted || undefined;
  const analysis = analyse(samples);
  if (analysis.rows.length === 0) die('no configuration completed on both sides');
  const title = `webstreams benchmarks: ${fresh.spec} vs ${old.spec}`;
  process.stdout.write(writeOutputs(dir, analysis, meta, title));
  console.log(`\ntook ${duration(meta.seconds)}; load average at the end ${meta.loadavgEnd.map((l) => l.toFixed(2)).join(' ')}`);
  console.log(`CSV: ${csvPath}`);
  console.log(`table: ${join(dir, 'table.txt')}  chart: ${join(dir, 'chart.svg')}  data: ${join(dir, 'results.json')}`);
  if (interrupted) process.exitCode = 130;
}

await main();
