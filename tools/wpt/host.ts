// Runs inside node-base / node-patched: each WPT file in its own Worker
// (which inherits the injected lib), a few at a time, one JSON line per
// finished file on stdout.
import { readFileSync } from 'node:fs';
import { Worker } from 'node:worker_threads';
import { forEachConcurrently } from '../lib/pool.ts';
import { HARNESS_STATUS, SUBTEST_STATUS, type FileResult, type WorkerJob, type WorkerMessage } from './protocol.ts';

const [jobsFile, concurrencyArg] = process.argv.slice(2);
const jobs = JSON.parse(readFileSync(jobsFile, 'utf8')) as WorkerJob[];
const concurrency = Number(concurrencyArg) || 2;
const workerScript = new URL('./worker.ts', import.meta.url);
// Past testharness's own deadline a Worker that still has not reported is
// stuck (a busy loop, say): terminate it.
const GRACE_MS = 10_000;

function runOne(job: WorkerJob): Promise<FileResult> {
  const started = Date.now();
  const result: FileResult = { path: job.path, harness: 'CRASH', subtests: [], ms: 0 };
  return new Promise((resolve) => {
    // Tests' own console output must not mix with the JSON lines on stdout.
    const worker = new Worker(workerScript, { workerData: job, stdout: true, stderr: true });
    worker.stdout.resume();
    let stderr = '';
    worker.stderr.on('data', (chunk: Buffer) => { if (stderr.length < 4096) stderr += chunk; });
    let finished = false;
    const finish = (harness: string, message?: string) => {
      if (finished) return;
      finished = true;
      clearTimeout(killer);
      result.harness = harness;
      if (message) result.harnessMessage = harness === 'OK' || !stderr ? message : `${message}\n${stderr}`;
      result.ms = Date.now() - started;
      void worker.terminate();
      resolve(result);
    };
    const killer = setTimeout(() => finish('TIMEOUT', `no completion after ${job.timeoutMs + GRACE_MS} ms; Worker terminated`),
      job.timeoutMs + GRACE_MS);
    worker.on('message', (m: WorkerMessage) => {
      if (m.type === 'result') {
        result.subtests.push({ name: m.name, status: SUBTEST_STATUS[m.status] ?? String(m.status), message: m.message ?? undefined });
      } else {
        finish(HARNESS_STATUS[m.status] ?? String(m.status), m.message ?? undefined);
      }
    });
    worker.on('error', (err) => finish('ERROR', `uncaught: ${err instanceof Error ? err.stack ?? err.message : String(err)}`));
    worker.on('exit', (code) => finish('CRASH', `Worker exited with code ${code} before completion`));
  });
}

await forEachConcurrently(jobs, concurrency, runOne, (result) => {
  process.stdout.write(`${JSON.stringify(result)}\n`);
});
