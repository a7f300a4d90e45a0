// Every benchmark file (Node's set in webstreams/ and the real-world set in
// real-world/) runs every configuration to completion on
// node-patched with a tiny n, passes Node's --test mode (so the files can be
// upstreamed), and its self-checks catch broken streams: on
// libs that drop every second chunk (readable default controller, byte
// controller, or writable sink writes) every file that moves chunks fails
// instead of posting a number.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from '../../tools/lib/paths.ts';
import { injectedNode, resolveLib } from '../../tools/lib/injected.ts';
import { BENCHMARK_DIR, findBenchmarks, listConfigs } from '../../tools/bench/suite.ts';
import { NODE_WEBSTREAMS_BENCHMARKS } from '../../tools/node/node-benchmarks.ts';
import { dropEverySecondChunk, replaceOnce, variantLib } from '../helpers/libs.ts';

const TINY = 'n=64';
const FILES = findBenchmarks(['webstreams', 'real-world'], []);
const LINE = /^((?:webstreams|real-world)\/[\w.-]+\.js)((?: [\w]+=(?:\d+(?:\.\d+)?|"[^"]*"))+): (\d{1,3}(?:,\d{3})*(?:\.\d+)?)$/;

interface Outcome {
  file: string;
  status: number | null;
  stdout: string;
  stderr: string;
}

function runFile(libDir: string, file: string, args = [TINY]): Promise<Outcome> {
  const cmd = injectedNode({ name: libDir, dir: libDir }, [join(BENCHMARK_DIR, file), ...args]);
  return new Promise((resolve) => {
    const child = spawn(cmd.command, cmd.args, { env: cmd.env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    child.on('close', (status) => {
      clearTimeout(timer);
      resolve({ file, status, stdout, stderr });
    });
  });
}

/** Runs files on a lib, two at a time (the machine has two cores). */
async function runAll(libDir: string, files = FILES): Promise<Outcome[]> {
  const queue = [...files];
  const results: Outcome[] = [];
  const worker = async () => {
    for (let file = queue.shift(); file; file = queue.shift()) results.push(await runFile(libDir, file));
  };
  await Promise.all([worker(), worker()]);
  return results.sort((a, b) => a.file.localeCompare(b.file));
}

test('the suite has Node\'s webstreams set and the real-world shapes', () => {
  const names = FILES.filter((f) => f.startsWith('webstreams/')).map((f) => f.replace(/^webstreams\/|\.js$/g, ''));
  for (const upstream of NODE_WEBSTREAMS_BENCHMARKS) {
    assert.ok(names.includes(upstream), `missing Node's ${upstream}.js`);
  }
  for (const shape of ['read-loop', 'write-loop', 'pipe-through-chain', 'pipe-to-sink', 'byte-stream', 'for-await',
    'tee-read', 'response', 'construct']) {
    assert.ok(names.includes(shape), `missing real-world ${shape}.js`);
  }
  // The shapes the issue names, as configurations.
  const configs = (file: string, key: string) => listConfigs(`webstreams/${file}.js`, []).configs.map((c) => c[key]);
  assert.deepEqual([...new Set(configs('pipe-through-chain', 'transforms'))], [1, 3, 8]);
  assert.deepEqual([...new Set(configs('pipe-through-chain', 'transformer'))], ['function', 'none', 'filter']);
  assert.deepEqual(configs('byte-stream', 'kind'), ['start-enqueue', 'pull', 'byob']);
  assert.deepEqual(configs('tee-read', 'mode'), ['concurrent', 'sequential']);
  assert.deepEqual(configs('construct', 'kind'), ['ReadableStream', 'WritableStream', 'TransformStream']);
  assert.ok(configs('read-loop', 'size').every((s) => s === 1024));
});

// Issue 16's real-world set: pipelines built the way applications build
// them, with the npm packages they use (package.json devDependencies).
test('the real-world set has the SSE, NDJSON, fetch() rewriting, Response.text(), server-rendering and request-adapter pipelines', () => {
  const realWorld = FILES.filter((f) => f.startsWith('real-world/'));
  assert.deepEqual(realWorld, ['real-world/fetch-rewrite.js', 'real-world/ndjson.js', 'real-world/node-request.js', 'real-world/response-text.js',
    'real-world/sse.js', 'real-world/ssr-response.js']);
  const source = (file: string) => readFileSync(join(BENCHMARK_DIR, file), 'utf8');
  // The SSE and NDJSON pipelines live in real-world/lib/, shared with their models.
  assert.match(source('real-world/sse.js'), /ssePipeline\(source, sink\.write\)/);
  assert.match(source('real-world/lib/sse.js'), /require\('eventsource-parser\/stream'\)/);
  assert.match(source('real-world/lib/sse.js'), /new TextDecoderStream\(\)[\s\S]*new EventSourceParserStream\(\)/);
  assert.match(source('real-world/ndjson.js'), /loadNdjsonPipeline\(\)/);
  assert.match(source('real-world/lib/ndjson.js'), /import\('textlinestream'\)[\s\S]*new TextDecoderStream\(\)[\s\S]*new TextLineStream\(\)/);
  assert.match(source('real-world/fetch-rewrite.js'), /http\.createServer[\s\S]*server\.listen\(0, '127\.0\.0\.1'[\s\S]*await fetch\(url\)/);
  assert.match(source('real-world/response-text.js'), /new Response\(makeBody\(\)\)\.text\(\)/);
  assert.match(source('real-world/node-request.js'), /body: Readable\.toWeb\(req\)[\s\S]*duplex: 'half'[\s\S]*await request\.json\(\)[\s\S]*concurrency/);
  // A new byte-stream body and new TransformStreams per response, several responses in flight.
  assert.match(source('real-world/ssr-response.js'), /type: 'bytes'[\s\S]*highWaterMark: 0[\s\S]*\.pipeThrough\(headInsertion\(\)\)[\s\S]*\.pipeTo\(response\)[\s\S]*concurrency/);
  const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { devDependencies: Record<string, string> };
  for (const name of ['eventsource-parser', 'textlinestream']) {
    assert.match(pkg.devDependencies[name] ?? '', /^\d+\.\d+\.\d+$/, `${name}: an exact version in devDependencies`);
  }
});

test('every file completes every configuration on node-patched with a tiny n', async () => {
  const outcomes = await runAll(resolveLib('patched').dir);
  for (const o of outcomes) {
    assert.equal(o.status, 0, `${o.file} failed:\n${o.stderr}`);
    const expected = listConfigs(o.file, [TINY]).configs.length;
    const lines = o.stdout.trim().split('\n');
    assert.equal(lines.length, expected, `${o.file}: ${expected} configurations, output:\n${o.stdout}`);
    for (const line of lines) {
      const m = LINE.exec(line);
      assert.ok(m, `${o.file}: not a benchmark line: ${line}`);
      assert.equal(m[1], o.file);
      assert.match(m[2], / n=64( |$)/);
    }
  }
});

test('every file passes the --test mode Node\'s own test/benchmark suite uses (one config, numbers cut to 1)', async () => {
  const lib = resolveLib('patched').dir;
  for (const file of FILES) {
    const o = await runFile(lib, file, ['--test']);
    assert.equal(o.status, 0, `${file} --test failed:\n${o.stderr}`);
    assert.equal(o.stdout.trim().split('\n').length, 1, `${file} --test: ${o.stdout}`);
  }
});

test('broken libs make the self-checks fail instead of posting a number', async () => {
  const dropDefault = variantLib('bench-drop-default', dropEverySecondChunk);
  const dropBytes = variantLib('bench-drop-bytes', (modules) => replaceOnce(modules, 'internal/webstreams/readablestream',
    'function readableByteStreamControllerEnqueue(controller, chunk) {\n',
    'let byteDropToggle = false;\nfunction readableByteStreamControllerEnqueue(controller, chunk) {\n' +
    '  byteDropToggle = !byteDropToggle;\n  if (!byteDropToggle) return;\n'));
  const dropWrites = variantLib('bench-drop-writes', (modules) => {
    replaceOnce(modules, 'internal/webstreams/writablestream',
      'function writableStreamDefaultControllerProcessWrite(controller, chunk) {\n',
      'let writeDropToggle = false;\nfunction writableStreamDefaultControllerProcessWrite(controller, chunk) {\n');
    replaceOnce(modules, 'internal/webstreams/writablestream',
      '    result = writeAlgorithm(chunk, controller);\n',
      '    writeDropToggle = !writeDropToggle;\n    result = writeDropToggle ? writeAlgorithm(chunk, controller) : undefined;\n');
  });

  const failing = new Set<string>();
  const failingOnDropDefault = new Set<string>();
  for (const lib of [dropDefault, dropBytes, dropWrites]) {
    // A file already caught needs no second broken lib.
    for (const o of await runAll(lib, FILES.filter((f) => !failing.has(f)))) {
      if (o.status !== 0) {
        failing.add(o.file);
        if (lib === dropDefault) failingOnDropDefault.add(o.file);
        // It failed on a check, not on a crash of the harness.
        assert.match(o.stderr, /Error|assert|never finished|without calling bench\.end/i, `${o.file} on ${lib}:\n${o.stderr}`);
      }
    }
  }
  // Every real-world pipeline goes through default controllers (the source,
  // TextDecoderStream, the parsers and mappers), so dropping chunks there
  // alone must fail each of them.
  for (const file of FILES.filter((f) => f.startsWith('real-world/'))) {
    assert.ok(failingOnDropDefault.has(file), `${file} posted a number on a lib that drops every second default-controller chunk`);
  }
  // Only the files that move no chunks have nothing to check.
  const chunkless = ['webstreams/creation.js', 'webstreams/js_transfer.js'];
  for (const file of FILES) {
    if (chunkless.includes(file)) continue;
    assert.ok(failing.has(file), `${file} posted numbers on every broken lib`);
  }
});
