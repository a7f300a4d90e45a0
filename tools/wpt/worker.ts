// Runs one WPT file in a Worker thread of the injected Node, the way a
// browser would run it in a window: testharness.js, the META scripts, then
// the test, all as classic scripts in this thread's global scope.
import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
import { relative, resolve } from 'node:path';
import { runInThisContext, runInNewContext } from 'node:vm';
import { setFlagsFromString } from 'node:v8';
import { parentPort, workerData } from 'node:worker_threads';
import type { WorkerJob, WorkerMessage } from './protocol.ts';

const job = workerData as WorkerJob;
const post = (message: WorkerMessage) => parentPort!.postMessage(message);
const g = globalThis as Record<string, unknown>;

function runScript(file: string): void {
  runInThisContext(readFileSync(file, 'utf8'), { filename: file });
}

// The globals Node's own WPT runner (test/common/wpt/worker.js) provides.
g.self = globalThis;
g.GLOBAL = { isWindow: () => false, isShadowRealm: () => false };
g.Window = Object.getPrototypeOf(globalThis).constructor;
g.location = new URL(`http://wpt/${relative(job.wptRoot, job.testFile).replace(/\.js$/, '.html')}`);
g.require = createRequire(job.testFile);
if (job.title) g.META_TITLE = job.title;
// Only gc.js needs this; exposing it everywhere is harmless.
setFlagsFromString('--expose-gc');
g.gc = runInNewContext('gc');
// Tests fetch() fixture files relative to the WPT root or the test.
g.fetch = async (url: string) => {
  const file = url.startsWith('/') ? resolve(job.wptRoot, `.${url}`) : resolve(job.testFile, '..', url);
  const data = readFileSync(file);
  return {
    ok: true,
    arrayBuffer: () => data.buffer.slice(data.byteOffset, data.byteOffset + data.byteLength),
    bytes: () => new Uint8Array(data),
    json: () => JSON.parse(data.toString()),
    text: () => data.toString(),
  };
};

runScript(job.harness);
const harness = g as unknown as {
  add_result_callback(cb: (t: { name: string; status: number; message: string | null }) => void): void;
  add_completion_callback(cb: (tests: unknown, status: { status: number; message: string | null }) => void): void;
  timeout(): void;
};

harness.add_result_callback((t) => post({ type: 'result', name: t.name, status: t.status, message: t.message }));
// Past the deadline, testharness marks every unfinished test TIMEOUT and completes.
const deadline = setTimeout(() => harness.timeout(), job.timeoutMs);
harness.add_completion_callback((_tests, status) => {
  clearTimeout(deadline);
  post({ type: 'done', status: status.status, message: status.message });
});

for (const script of job.scripts) runScript(script);
runScript(job.testFile);
