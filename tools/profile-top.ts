// Self time by function of a V8 .cpuprofile (node --cpu-prof), heaviest
// first: the first step of every optimization layer ("profile first").
//
//   NODE_RUN_BENCHMARK_FN= bin/node-patched --cpu-prof --cpu-prof-dir=out/prof \
//     benchmark/webstreams/read-loop.js n=1000000
//   node tools/profile-top.ts out/prof/*.cpuprofile [--top 20] [--by origin]
//
// --by origin sums self time by where the code lives instead: web streams'
// modules, npm packages, the benchmark's own files, the garbage collector,
// runMicrotasks, idle, and the rest of Node and V8.
//
// --since NAME counts only the samples from the first one with a function
// named NAME on its stack: a benchmark's setup (building its input) can
// outweigh the timed part in a whole-process profile.
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { parseFlags } from './lib/args.ts';

interface CpuProfile {
  nodes: { id: number; callFrame: { functionName: string; url: string; lineNumber: number }; children?: number[] }[];
  samples: number[];
  timeDeltas: number[];
}

type Frame = CpuProfile['nodes'][number]['callFrame'];

const { values, positionals } = parseFlags({
  top: { type: 'string', default: '25' },
  by: { type: 'string', default: 'function' },
  since: { type: 'string' },
}, 'node tools/profile-top.ts <file.cpuprofile>… [--top N] [--by function|origin] [--since NAME]');
if (positionals.length === 0) {
  console.error('profile-top: give one or more .cpuprofile files');
  process.exit(2);
}
if (values.by !== 'function' && values.by !== 'origin') {
  console.error(`profile-top: --by takes function or origin, not '${values.by}'`);
  process.exit(2);
}

function origin(f: Frame): string {
  if (f.functionName === '(garbage collector)') return 'garbage collector';
  if (f.functionName === 'runMicrotasks') return 'runMicrotasks';
  if (f.functionName === '(idle)' || f.functionName === '(program)') return 'idle';
  if (/\/node_modules\//.test(f.url)) return 'npm packages';
  if (/\/internal\/webstreams\//.test(f.url)) return 'web streams';
  if (/\/benchmark\//.test(f.url)) return 'benchmark';
  return 'other (Node, V8 builtins)';
}

const keyOf = values.by === 'origin' ? origin :
  (f: Frame) => `${f.functionName || '(anonymous)'} ${basename(f.url) || ''}:${f.lineNumber + 1}`;

/** The index of the first sample with a frame named `name` on its stack. */
function firstSampleWith(profile: CpuProfile, frames: Map<number, Frame>, name: string): number {
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  return profile.samples.findIndex((id) => {
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      if (frames.get(at)!.functionName === name) return true;
    }
    return false;
  });
}

for (const file of positionals) {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
  const frames = new Map(profile.nodes.map((n) => [n.id, n.callFrame]));
  const from = values.since === undefined ? 0 : firstSampleWith(profile, frames, values.since);
  if (from < 0) {
    console.error(`profile-top: no sample in ${file} has ${values.since} on its stack`);
    process.exit(1);
  }
  const self = new Map<string, number>();
  let total = 0;
  profile.samples.forEach((id, i) => {
    if (i < from) return;
    const dt = profile.timeDeltas[i] ?? 0;
    total += dt;
    const key = keyOf(frames.get(id)!);
    self.set(key, (self.get(key) ?? 0) + dt);
  });
  const since = values.since === undefined ? '' : ` since ${values.since}`;
  console.log(`${file}: ${(total / 1000).toFixed(0)} ms sampled${since}`);
  for (const [key, t] of [...self].sort((a, b) => b[1] - a[1]).slice(0, Number(values.top))) {
    console.log(`${((t / total) * 100).toFixed(1).padStart(6)}%  ${key}`);
  }
}
