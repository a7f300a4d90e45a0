// --set CPUSET=LIST, as Node's compare.js takes it: every benchmark process
// of a compare runs under `taskset -c LIST`. On the shared 2-vCPU machines
// one vCPU is at times much slower than the other for minutes on end
// (another guest on its core, not steal time: CPU time slows as much as
// wall time). An unpinned run lands on either, so each side's samples mix
// two speeds; pinned, the two runs of a round meet the same core and the
// paired ratio keeps its precision. The cost: V8's compile and GC threads
// share the benchmark's CPU. doc/benchmarks.md has the measurements.
import { spawnSync } from 'node:child_process';
import { availableParallelism } from 'node:os';

/** Checks a CPU list in taskset's syntax (`1`, `0,2`, `0-3`) against this machine's CPU count. */
export function checkCpuList(text: string, cpuCount = availableParallelism()): string {
  const list = text.trim();
  const parts = list.split(',');
  for (const part of parts) {
    const m = /^(\d+)(?:-(\d+))?$/.exec(part.trim());
    if (!m) throw new Error(`CPUSET takes CPU numbers and ranges such as 1, 0,2 or 0-3, got '${text}'`);
    const first = Number(m[1]);
    const last = m[2] === undefined ? first : Number(m[2]);
    if (last < first) throw new Error(`CPUSET: the range ${part.trim()} runs backwards`);
    if (last >= cpuCount) throw new Error(`CPUSET: this machine has CPUs 0-${cpuCount - 1}, got ${last}`);
  }
  return parts.map((p) => p.trim()).join(',');
}

/**
 * Takes the CPUSET= entry out of a --set list: its checked CPU list (null
 * without one) and the other entries. Two entries are refused: compare.js
 * would silently take the first.
 */
export function splitCpuset(sets: string[]): { cpuset: string | null; rest: string[] } {
  const cpusets = sets.filter((s) => s.startsWith('CPUSET='));
  if (cpusets.length > 1) throw new Error(`--set CPUSET= was given ${cpusets.length} times`);
  const rest = sets.filter((s) => !s.startsWith('CPUSET='));
  return { cpuset: cpusets.length ? checkCpuList(cpusets[0].slice('CPUSET='.length)) : null, rest };
}

/** The command that runs `command args` on `cpus`. */
export function pinnedCommand(cpus: string, command: string, args: string[]): { command: string; args: string[] } {
  return { command: 'taskset', args: ['-c', cpus, command, ...args] };
}

/** Throws unless taskset runs here and may pin to `cpus` (util-linux; a cgroup may forbid a CPU). */
export function assertCanPin(cpus: string): void {
  const probe = pinnedCommand(cpus, 'true', []);
  const r = spawnSync(probe.command, probe.args, { encoding: 'utf8' });
  if (r.error) throw new Error(`CPUSET needs taskset (util-linux): ${r.error.message}`);
  if (r.status !== 0) throw new Error(`CPUSET=${cpus}: taskset failed: ${r.stderr.trim() || `exit ${r.status}`}`);
}
