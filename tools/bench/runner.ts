// Runs one configuration of one benchmark file on one executable, the way
// Node's compare.js does: a child with NODE_RUN_BENCHMARK_FN set, reporting
// over IPC ({ type: 'report', name, conf, rate, time }), with the Node flags
// the file asks for (compare.js's child forks the run with them). Works with
// our benchmark/common.js and with upstream's.
import { spawn } from 'node:child_process';
import type { Executable } from './executable.ts';
import { configArgs, type Config } from './suite.ts';

export interface Report {
  name: string;
  conf: Record<string, unknown>;
  rate: number;
  time: number;
}

export interface RunningChild {
  promise: Promise<Report>;
  kill(): void;
}

export function runBenchmark(exe: Executable, path: string, config: Config, timeoutMs: number, flags: string[] = []): RunningChild {
  const child = spawn(exe.command, [...exe.args, ...flags, path, ...configArgs(config)], {
    env: { ...exe.env, NODE_RUN_BENCHMARK_FN: '' },
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
  });
  const promise = new Promise<Report>((resolve, reject) => {
    let stderr = '';
    let stdout = '';
    let report: Report | undefined;
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGKILL');
    }, timeoutMs);
    child.stdout!.on('data', (d: Buffer) => {
      stdout = (stdout + d.toString()).slice(-4000);
    });
    child.stderr!.on('data', (d: Buffer) => {
      stderr = (stderr + d.toString()).slice(-4000);
    });
    child.on('message', (m: unknown) => {
      const msg = m as { type?: string } & Report;
      if (msg && msg.type === 'report') {
        if (report) return reject(new Error('the benchmark reported more than one result'));
        report = { name: msg.name, conf: msg.conf, rate: msg.rate, time: msg.time };
      }
    });
    child.on('error', (err) => {
      clearTimeout(timer);
      reject(new Error(`cannot start ${exe.command}: ${err.message}`));
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      const output = `${stderr}${stdout}`.trim().split('\n').slice(-15).join('\n');
      if (timedOut) return reject(new Error(`timed out after ${timeoutMs / 1000} s\n${output}`));
      if (code !== 0) return reject(new Error(`exited with ${code ?? signal}\n${output}`));
      if (!report) return reject(new Error(`exited without reporting a result\n${output}`));
      if (!(report.rate > 0) || !Number.isFinite(report.rate)) return reject(new Error(`reported a bad rate ${report.rate}`));
      resolve(report);
    });
  });
  return { promise, kill: () => child.kill('SIGKILL') };
}
