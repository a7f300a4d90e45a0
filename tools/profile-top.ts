// Self time by function of a V8 .cpuprofile (node --cpu-prof), heaviest
// first: the first step of every optimization layer ("profile first").
//
//   NODE_RUN_BENCHMARK_FN= bin/node-patched --cpu-prof --cpu-prof-dir=out/prof \
//     benchmark/webstreams/read-loop.js n=1000000
//   node tools/profile-top.ts out/prof/*.cpuprofile [--top 20]
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { parseFlags } from './lib/args.ts';

interface CpuProfile {
  nodes: { id: number; callFrame: { functionName: string; url: string; lineNumber: number } }[];
  samples: number[];
  timeDeltas: number[];
}

const { values, positionals } = parseFlags({ top: { type: 'string', default: '25' } },
  'node tools/profile-top.ts <file.cpuprofile>… [--top N]');
if (positionals.length === 0) {
  console.error('profile-top: give one or more .cpuprofile files');
  process.exit(2);
}

for (const file of positionals) {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
  const frames = new Map(profile.nodes.map((n) => [n.id, n.callFrame]));
  const self = new Map<string, number>();
  let total = 0;
  profile.samples.forEach((id, i) => {
    const dt = profile.timeDeltas[i] ?? 0;
    total += dt;
    const f = frames.get(id)!;
    const key = `${f.functionName || '(anonymous)'} ${basename(f.url) || ''}:${f.lineNumber + 1}`;
    self.set(key, (self.get(key) ?? 0) + dt);
  });
  console.log(`${file}: ${(total / 1000).toFixed(0)} ms sampled`);
  for (const [key, t] of [...self].sort((a, b) => b[1] - a[1]).slice(0, Number(values.top))) {
    console.log(`${((t / total) * 100).toFixed(1).padStart(6)}%  ${key}`);
  }
}
