// The runtime really runs the injected lib everywhere web streams are
// reached, and refuses bad input with a clear error.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { libDir, PINNED_NODE, RUNTIME_REGISTER } from '../../tools/lib/paths.ts';
import { readLibDir, writeLibDir } from '../../tools/lib/libdir.ts';
import { replaceOnce, runOnLib, variantLib } from '../helpers/libs.ts';

const READABLE = 'internal/webstreams/readablestream';

// Every way user code reaches ReadableStream, reporting a marker the
// injected module adds to the class.
const PROBE = String.raw`
const http = require('node:http');
const { Worker } = require('node:worker_threads');
const out = {};
out.global = globalThis.ReadableStream.injectedMarker;
out.streamWeb = require('node:stream/web').ReadableStream.injectedMarker;
out.response = new Response('x').body.constructor.injectedMarker;
const inWorker = (options) => new Promise((resolve, reject) => {
  const w = new Worker("require('node:worker_threads').parentPort.postMessage(ReadableStream.injectedMarker)", { eval: true, ...options });
  w.once('message', resolve);
  w.once('error', reject);
});
const nested = "const { Worker, parentPort } = require('node:worker_threads');" +
  "const w = new Worker(\"require('node:worker_threads').parentPort.postMessage(ReadableStream.injectedMarker)\", { eval: true, execArgv: [] });" +
  "w.once('message', (m) => parentPort.postMessage(m));";
const server = http.createServer((req, res) => res.end('hello')).listen(0, '127.0.0.1', async () => {
  const response = await fetch('http://127.0.0.1:' + server.address().port + '/');
  out.fetch = response.body.constructor.injectedMarker;
  out.fetchText = await response.text();
  server.close();
  out.worker = await inWorker({});
  out.workerExecArgv = await inWorker({ execArgv: ['--no-warnings'] });
  out.workerEnv = await inWorker({ env: { UNRELATED: '1' } });
  out.workerNested = await new Promise((resolve, reject) => {
    const w = new Worker(nested, { eval: true, execArgv: [] });
    w.once('message', resolve);
    w.once('error', reject);
  });
  console.log(JSON.stringify(out));
});
`;

const PLACES = ['global', 'streamWeb', 'response', 'fetch', 'worker', 'workerExecArgv', 'workerEnv', 'workerNested'];

function markerLib(): string {
  return variantLib('marker', (modules) => {
    const text = modules.get(READABLE)!;
    modules.set(READABLE, `${text}\nReadableStream.injectedMarker = 'overlay';\n`);
  });
}

test('an injected module is what globals, stream/web, Response, fetch and Workers run', () => {
  const r = runOnLib(markerLib(), ['-e', PROBE]);
  assert.equal(r.status, 0, r.stderr);
  const out = JSON.parse(r.stdout);
  for (const place of PLACES) assert.equal(out[place], 'overlay', `${place} does not run the injected lib`);
  assert.equal(out.fetchText, 'hello');
});

test('ESM imports of node:stream/web see the injected module', () => {
  const r = runOnLib(markerLib(), ['--input-type=module', '-e',
    "import { ReadableStream } from 'node:stream/web'; console.log(ReadableStream.injectedMarker);"]);
  assert.equal(r.status, 0, r.stderr);
  assert.equal(r.stdout.trim(), 'overlay');
});

test('the base lib through the same path has no marker (the probe can fail)', () => {
  const r = runOnLib(libDir('base'), ['-e', PROBE]);
  assert.equal(r.status, 0, r.stderr);
  const out = JSON.parse(r.stdout);
  for (const place of PLACES) assert.equal(out[place], undefined, place);
});

function expectRefusal(r: ReturnType<typeof spawnSync>, pattern: RegExp): void {
  assert.equal(r.status, 2, `expected exit 2, got ${r.status}: ${r.stderr}`);
  assert.match(String(r.stderr), pattern);
}

test('a missing lib directory is refused', () => {
  expectRefusal(runOnLib('/nonexistent/lib', ['-e', '1']), /cannot read lib directory \/nonexistent\/lib \(ENOENT\)/);
});

test('an unreadable lib directory is refused', () => {
  const dir = libDir('test-unreadable');
  mkdirSync(join(dir, 'manifest.json'), { recursive: true });
  expectRefusal(runOnLib(dir, ['-e', '1']), /cannot read lib directory .*test-unreadable \(EISDIR\)/);
});

test('a module that fails to compile is refused with its file and line', () => {
  const dir = variantLib('syntax-error', (modules) => {
    replaceOnce(modules, 'internal/webstreams/util', "'use strict';\n", "'use strict';\nconst = broken;\n");
  });
  expectRefusal(runOnLib(dir, ['-e', '1']), /cannot compile .*internal\/webstreams\/util\.js:\n.*util\.js:2\n/);
});

test('a lib made for another Node version is refused', () => {
  const { manifest, modules } = readLibDir(libDir('base'));
  const dir = libDir('test-wrong-version');
  writeLibDir(dir, { ...manifest, nodeVersion: 'v0.0.1' }, modules);
  // Tools pick the binary a lib was made for; run it in the pinned one, as bin/node-patched would.
  expectRefusal(runOnLib(dir, ['-e', '1'], { WEBSTREAMS_NODE: PINNED_NODE }), /made for Node v0\.0\.1 but this binary is v26\./);
});

test('webstreams loaded before injection is refused', () => {
  const preload = join(libDir('test-preload'), 'load-stream-web.cjs');
  mkdirSync(join(preload, '..'), { recursive: true });
  writeFileSync(preload, "require('node:stream/web');\n");
  const r = spawnSync(PINNED_NODE, ['--expose-internals', '--require', preload, '--require', RUNTIME_REGISTER, '-e', '1'], {
    env: { ...process.env, WEBSTREAMS_LIB: libDir('base') },
    encoding: 'utf8',
  });
  expectRefusal(r, /internal\/webstreams\/\w+ was loaded before injection/);
});

test('running without --expose-internals is refused', () => {
  const r = spawnSync(PINNED_NODE, ['--require', RUNTIME_REGISTER, '-e', '1'], {
    env: { ...process.env, WEBSTREAMS_LIB: libDir('base') },
    encoding: 'utf8',
  });
  expectRefusal(r, /needs --expose-internals/);
});

test('no internal globals leak to user code', () => {
  const r = runOnLib(libDir('base'), ['-p', "typeof primordials + ' ' + typeof internalBinding"]);
  assert.equal(r.status, 0, r.stderr);
  assert.equal(r.stdout.trim(), 'undefined undefined');
});
