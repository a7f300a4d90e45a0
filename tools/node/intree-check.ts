// The `node-intree` suite of `make test`: `make node-build`'s own code path
// on a real Node source tree (Debian's nodejs source, .fixtures/node-full,
// copied into a throw-away git repository), without a full Node build:
//
// - node-build refuses the tree when EXPECT_BASE names another base; without
//   it, the series is rebased onto the tree's lib (v24 is far from v26) and
//   the run stops at the first conflict with the report, changing nothing;
// - with EXPECT_BASE=<its version> it applies a one-patch series with git am,
//   copies and wires the binding, runs ./configure --ninja with the Debian
//   flags, and compiles src/node_webstreams.cc alone with the command the
//   generated ninja files hold (NODE_WANT_INTERNALS, the Fast API path);
// - the wiring lands in sorted position and a second run changes nothing;
// - node_external_reference.cc compiled and node_binding.cc preprocessed
//   with their generated commands register the binding.
//
// Each check prints ok/FAIL; the totals go to the `make test` summary.
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT } from '../lib/paths.ts';
import { reportSummary } from '../lib/summary.ts';
import { generatedCommand, objectTarget } from './build-steps.ts';
import { ensureNodeTree, FIXTURE_CONFIGURE_FLAGS } from './fixture-tree.ts';
import { git } from './git.ts';
import { OBJECT_SYMBOLS, reportObject, undefinedSymbols } from './report.ts';
import { wireTree } from './wiring.ts';
import { WIRING_SUBJECT } from './node-build.ts';

const IDENTITY = {
  GIT_AUTHOR_NAME: 'webstreams-overlay test', GIT_AUTHOR_EMAIL: 'test@example.invalid',
  GIT_COMMITTER_NAME: 'webstreams-overlay test', GIT_COMMITTER_EMAIL: 'test@example.invalid',
  GIT_AUTHOR_DATE: '2026-01-01T00:00:00Z', GIT_COMMITTER_DATE: '2026-01-01T00:00:00Z',
};

let passed = 0;
let failed = 0;
const failures: string[] = [];

function check(name: string, fn: () => void): boolean {
  const started = Date.now();
  try {
    fn();
    passed++;
    console.log(`  ok   ${name} (${((Date.now() - started) / 1000).toFixed(1)} s)`);
    return true;
  } catch (err) {
    failed++;
    failures.push(name);
    console.log(`  FAIL ${name}\n${String((err as Error).message).replace(/^/gm, '       ')}`);
    return false;
  }
}

function expect(cond: unknown, message: string): void {
  if (!cond) throw new Error(message);
}

function nodeBuild(dir: string, args: string[]): { status: number; stdout: string; stderr: string } {
  const env: NodeJS.ProcessEnv = { ...process.env, ...IDENTITY };
  for (const name of ['EXPECT_BASE', 'NODE_BUILD', 'BRANCH', 'BASE_REF', 'PATCHES', 'CONFIGURE_FLAGS']) delete env[name];
  const r = spawnSync(process.execPath, [join(ROOT, 'tools', 'node', 'node-build.ts'), '--node-dir', dir, ...args], {
    encoding: 'utf8', env, maxBuffer: 64 * 1024 * 1024,
  });
  return { status: r.status ?? 1, stdout: r.stdout, stderr: r.stderr };
}

/** The lines around the first line containing `needle`. */
function around(text: string, needle: string): string[] {
  const lines = text.split('\n').map((l) => l.replace(/\\\s*$/, '').trim());
  const i = lines.findIndex((l) => l.includes(needle));
  return i < 0 ? [] : lines.slice(i - 1, i + 2);
}

/** A git repo holding the fixture tree, on branch main, with a Node-like .gitignore. */
function makeRepo(source: string, into: string): void {
  cpSync(source, into, { recursive: true });
  // Node's own .gitignore keeps build products out of `git status`; the tarball has none.
  writeFileSync(join(into, '.gitignore'), '/out/\n/config.gypi\n/config.mk\n/config.status\n/icu_config.gypi\n*.pyc\n');
  git(into, ['init', '--quiet', '--initial-branch=main']);
  git(into, ['add', '--all']);
  git(into, ['commit', '--quiet', '--no-gpg-sign', '-m', 'base: Debian nodejs source tree'], IDENTITY);
}

/** A one-patch series (a new benchmark file) made with git format-patch in `repo`, which ends as it began. */
function makeSeries(repo: string, dir: string): void {
  git(repo, ['switch', '--quiet', '--create', 'series-scratch']);
  mkdirSync(join(repo, 'benchmark', 'webstreams'), { recursive: true });
  writeFileSync(join(repo, 'benchmark', 'webstreams', 'intree-smoke.js'), "'use strict';\n// Added by the series under test.\n");
  git(repo, ['add', 'benchmark/webstreams/intree-smoke.js']);
  git(repo, ['commit', '--quiet', '--no-gpg-sign', '-m', 'benchmark: add a webstreams smoke file\n\nA stand-in patch for the in-tree check.'], IDENTITY);
  mkdirSync(dir, { recursive: true });
  const made = git(repo, ['format-patch', '-1', '-o', dir]);
  expect(existsSync(made), `git format-patch did not write ${made}`);
  renameSync(made, join(dir, '0001-intree-smoke.patch'));
  git(repo, ['switch', '--quiet', 'main']);
  git(repo, ['branch', '--quiet', '-D', 'series-scratch']);
}

function main(): void {
  const started = Date.now();
  console.log('In-tree checks of make node-build on the Debian nodejs source tree');
  const tree = ensureNodeTree((m) => console.log(`  ${m}`));
  const work = mkdtempSync(join(tmpdir(), 'webstreams-intree-'));
  const repo = join(work, 'node');
  const patches = join(work, 'patches');
  try {
    if (!check(`a git repository of the fixture tree (Node ${tree.version})`, () => {
      makeRepo(tree.dir, repo);
      makeSeries(repo, patches);
    })) return;
    const base = git(repo, ['rev-parse', 'HEAD']);

    const unchanged = () => git(repo, ['rev-parse', 'HEAD']) === base && git(repo, ['branch', '--list']).trim() === '* main';
    check('node-build with EXPECT_BASE=<the pinned version> refuses the tree, saying which base it expected', () => {
      const r = nodeBuild(repo, ['--patches', patches, '--build', 'none', '--expect-base', 'v26.12.1']);
      expect(r.status === 1, `exit ${r.status}, expected 1\n${r.stderr}`);
      expect(/the series expects v26\.\d+\.\d+/.test(r.stderr) && r.stderr.includes(tree.version), `message lacks the expected and found versions:\n${r.stderr}`);
      expect(unchanged(), 'the refused run changed the repository');
    });

    check("node-build rebases the series onto the tree's lib and stops at its first conflict with the report, changing nothing", () => {
      const r = nodeBuild(repo, ['--build', 'none']);
      expect(r.status === 1, `exit ${r.status}, expected 1\n${r.stderr}`);
      expect(r.stderr.includes(`rebase onto the checkout at ${base.slice(0, 12)}:`), `no rebase report:\n${r.stderr}`);
      expect(/^ {4}(CONFLICT|FAILED)/m.test(r.stderr) && /not reached/.test(r.stderr), `the report names no conflict:\n${r.stderr}`);
      expect(unchanged(), 'the stopped run changed the repository');
    });

    let output = '';
    const built = check('node-build EXPECT_BASE=<fixture version> NODE_BUILD=object: git am, wiring, ./configure --ninja, the binding object', () => {
      const r = nodeBuild(repo, ['--patches', patches, '--build', 'object', '--expect-base', tree.version,
        `--configure-flags=${FIXTURE_CONFIGURE_FLAGS.join(' ')}`]);
      output = r.stdout;
      expect(r.status === 0, `exit ${r.status}\n${r.stderr.split('\n').filter((l) => !/pkg-config|PKG_CONFIG|virtual:world/.test(l)).join('\n')}\n${r.stdout}`);
      console.log(r.stdout.replace(/^/gm, '       '));
    });
    if (!built) return;

    check('the branch holds the series and one wiring commit; the other branches are untouched', () => {
      expect(git(repo, ['branch', '--show-current']) === 'webstreams-overlay', 'not on branch webstreams-overlay');
      expect(git(repo, ['rev-parse', 'main']) === base, 'main moved');
      const subjects = git(repo, ['log', '--format=%s', `${base}..HEAD`]).split('\n');
      expect(JSON.stringify(subjects) === JSON.stringify([WIRING_SUBJECT, 'benchmark: add a webstreams smoke file']), `commits: ${JSON.stringify(subjects)}`);
      const files = git(repo, ['show', '--name-status', '--format=', 'HEAD']).split('\n').sort();
      const want = ['A\tsrc/node_webstreams.cc', 'M\tnode.gyp', 'M\tsrc/node_binding.cc', 'M\tsrc/node_external_reference.h'];
      expect(JSON.stringify(files) === JSON.stringify(want), `wiring commit touches ${JSON.stringify(files)}`);
      expect(readFileSync(join(repo, 'src', 'node_webstreams.cc'), 'utf8') === readFileSync(join(ROOT, 'src-native', 'node_webstreams.cc'), 'utf8'), 'src/node_webstreams.cc differs from src-native/');
      expect(git(repo, ['status', '--porcelain']) === '', 'the tree is not clean after the build');
    });

    check('the wiring sits in sorted position in the real node.gyp, node_binding.cc, node_external_reference.h', () => {
      const read = (f: string) => readFileSync(join(repo, f), 'utf8');
      const gyp = around(read('node.gyp'), "'src/node_webstreams.cc'");
      expect(JSON.stringify(gyp) === JSON.stringify(["'src/node_watchdog.cc',", "'src/node_webstreams.cc',", "'src/node_worker.cc',"]), `node.gyp: ${JSON.stringify(gyp)}`);
      const binding = around(read('src/node_binding.cc'), 'V(webstreams)');
      expect(JSON.stringify(binding) === JSON.stringify(['V(watchdog)', 'V(webstreams)', 'V(worker)']), `node_binding.cc: ${JSON.stringify(binding)}`);
      const refs = around(read('src/node_external_reference.h'), 'V(webstreams)');
      expect(JSON.stringify(refs) === JSON.stringify(['V(wasm_web_api)', 'V(webstreams)', 'V(worker)']), `node_external_reference.h: ${JSON.stringify(refs)}`);
    });

    check('wiring again is a no-op (idempotent)', () => {
      const edits = wireTree(repo);
      expect(edits.every((e) => e.status === 'present'), JSON.stringify(edits));
      expect(git(repo, ['status', '--porcelain']) === '', 'a second wiring changed files');
    });

    const outDir = join(repo, 'out', 'Release');
    check('./configure ran through node-build and generated ninja files that build src/node_webstreams.cc', () => {
      expect(/^configure  \S*python\S* \.\/configure --ninja /m.test(output), `no configure line in the report:\n${output}`);
      expect(existsSync(join(repo, 'config.gypi')) && existsSync(join(outDir, 'build.ninja')), 'config.gypi or out/Release/build.ninja missing');
      expect(objectTarget(outDir).endsWith('.node_webstreams.o'), 'no object target for the binding');
    });

    check('the binding object was compiled with the in-tree flags, Fast API path included, without warnings', () => {
      const target = objectTarget(outDir);
      const command = generatedCommand(outDir, target);
      for (const flag of ['-DNODE_WANT_INTERNALS=1', '-I../../src', '-I../../deps/v8/include']) {
        expect(command.includes(flag), `the generated command lacks ${flag}`);
      }
      expect(existsSync(join(repo, 'deps', 'v8', 'include', 'v8-fast-api-calls.h')), 'the tree has no v8-fast-api-calls.h');
      const report = reportObject(join(outDir, target));
      for (const [what, ok] of Object.entries(report.symbols)) expect(ok, `the object lacks ${what}: ${OBJECT_SYMBOLS[what as keyof typeof OBJECT_SYMBOLS]}`);
      expect(!/node_webstreams\.cc:\d+:\d+: warning/.test(output), `the compiler warned:\n${output}`);
    });

    check('node_external_reference.cc, compiled with its generated command, references the binding', () => {
      const target = objectTarget(outDir, 'node_external_reference');
      const r = spawnSync('sh', ['-c', generatedCommand(outDir, target)], { cwd: outDir, encoding: 'utf8' });
      expect(r.status === 0, `compile failed:\n${r.stderr}`);
      const wanted = OBJECT_SYMBOLS.externalReferences;
      expect(undefinedSymbols(join(outDir, target)).includes(wanted), `${target} does not reference ${wanted}`);
    });

    check('node_binding.cc, preprocessed with its generated command, declares and calls _register_webstreams()', () => {
      // Preprocessing only expands macros; ada.h (Debian bookworm has no libada-url-dev) may be empty for that.
      const stub = join(work, 'stub-include');
      mkdirSync(stub, { recursive: true });
      writeFileSync(join(stub, 'ada.h'), '');
      const target = objectTarget(outDir, 'node_binding');
      const command = generatedCommand(outDir, target);
      const pre = join(work, 'node_binding.ii');
      const cmd = command.replace(/ -c (\S+) -o \S+$/, ` -E -I${stub} $1 -o ${pre}`).replace(/-MMD -MF \S+ /, '');
      expect(cmd !== command, `unexpected command shape: ${command.slice(-120)}`);
      const r = spawnSync('sh', ['-c', cmd], { cwd: outDir, encoding: 'utf8' });
      expect(r.status === 0, `preprocessing failed:\n${r.stderr}`);
      const text = readFileSync(pre, 'utf8');
      expect(/void _register_webstreams\(\);/.test(text), 'no declaration of _register_webstreams()');
      expect((text.match(/_register_webstreams\(\);/g) ?? []).length >= 2, 'RegisterBuiltinBindings does not call _register_webstreams()');
    });
  } finally {
    rmSync(work, { recursive: true, force: true });
    const seconds = ((Date.now() - started) / 1000).toFixed(1);
    console.log(`\nIn-tree checks: ${passed} passed, ${failed} failed (${seconds} s)${failures.length ? `: ${failures.join('; ')}` : ''}`);
    reportSummary({ suite: 'node-intree', passed, failed });
    process.exitCode = failed > 0 ? 1 : 0;
  }
}

try {
  main();
} catch (err) {
  console.error(`node-intree: ${(err as Error).message}`);
  reportSummary({ suite: 'node-intree', passed, failed: failed + 1, notes: (err as Error).message });
  process.exit(1);
}
