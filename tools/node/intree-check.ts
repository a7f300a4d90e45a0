// The `node-intree` suite of `make test`: `make node-build`'s own code path
// on a real Node source tree (Debian's nodejs source, .fixtures/node-full,
// in a throw-away git repository whose `main` carries the series' base
// lib/internal/webstreams), without a full Node build:
//
// - node-build refuses the tree when EXPECT_BASE names another base; on the
//   fixture's own v24 lib, the series is rebased and stops at the first
//   conflict with the report, changing nothing;
// - on `main`, every prefix 1..k of the committed series applies with
//   `git am` and ./configure runs on it with the Debian flags and nothing
//   added; the last one leaves exactly the patched lib in the tree;
// - every benchmark a commit's table cites is in the tree with that commit
//   applied, or one of Node's own that main has (the fixture is v24's
//   tree), and no patch adds one of those;
// - every benchmark/webstreams file, the series' own among them, runs in
//   Node's benchmark test mode (test/benchmark/test-benchmark-webstreams.js,
//   which upstream's CI runs);
// - every commit, signed off as `make pr` signs it, passes Node's
//   `core-validate-commit`.
//
// Each check prints ok/FAIL; the totals go to the `make test` summary.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Checks, expect } from '../lib/checks.ts';
import { readLibDir } from '../lib/libdir.ts';
import { libDir, PATCHES, ROOT } from '../lib/paths.ts';
import { reportSummary } from '../lib/summary.ts';
import { configure } from './build-steps.ts';
import { commitWebstreamsLib, fixtureRepo, TEST_IDENTITY } from './fixture-repo.ts';
import { ensureNodeTree, FIXTURE_CONFIGURE_FLAGS } from './fixture-tree.ts';
import { git } from './git.ts';
import { BENCHMARK_TEST, runWebstreamsBenchmarkTest } from './benchmark-test-mode.ts';
import { addedOnPrBase, uncitedBenchmarks } from './node-benchmarks.ts';
import { listPatches } from './series.ts';

const checks = new Checks();
const check = checks.check.bind(checks);

function nodeBuild(dir: string, args: string[]): { status: number; stdout: string; stderr: string } {
  const env: NodeJS.ProcessEnv = { ...process.env, ...TEST_IDENTITY };
  for (const name of ['EXPECT_BASE', 'NODE_BUILD', 'BRANCH', 'BASE_REF', 'PATCHES', 'CONFIGURE_FLAGS']) delete env[name];
  const r = spawnSync(process.execPath, [join(ROOT, 'tools', 'node', 'node-build.ts'), '--node-dir', dir, ...args], {
    encoding: 'utf8', env, maxBuffer: 64 * 1024 * 1024,
  });
  return { status: r.status ?? 1, stdout: r.stdout, stderr: r.stderr };
}

/**
 * A git repo of the fixture tree: its own lib on tag `fixture`, then on
 * `main` the series' base lib/internal/webstreams (the pinned release's),
 * the tree the committed patches are made for.
 */
function makeRepo(source: string, into: string): void {
  fixtureRepo(source, into, 'main');
  git(into, ['tag', 'fixture']);
  const { manifest, modules } = readLibDir(libDir('base'));
  commitWebstreamsLib(into, modules, manifest.nodeVersion);
}

function main(): void {
  const started = Date.now();
  console.log('In-tree checks of the series and make node-build on the Debian nodejs source tree');
  const tree = ensureNodeTree((m) => console.log(`  ${m}`));
  const work = mkdtempSync(join(tmpdir(), 'webstreams-intree-'));
  const repo = join(work, 'node');
  const series = listPatches(PATCHES);
  try {
    if (!check(`a git repository of the fixture tree (Node ${tree.version}) with the series' base lib on main`, () => makeRepo(tree.dir, repo))) return;
    const base = git(repo, ['rev-parse', 'HEAD']);
    const fixture = git(repo, ['rev-parse', 'fixture']);
    const unchanged = () => git(repo, ['rev-parse', 'HEAD']) === base && git(repo, ['branch', '--list']).trim() === '* main';

    check('node-build with EXPECT_BASE=v26.12.1 refuses the fixture commit, saying which base it expected', () => {
      const r = nodeBuild(repo, ['--build', 'none', '--base-ref', 'fixture', '--expect-base', 'v26.12.1']);
      expect(r.status === 1, `exit ${r.status}, expected 1\n${r.stderr}`);
      expect(/the series expects v26\.\d+\.\d+/.test(r.stderr) && r.stderr.includes(tree.version), `message lacks the expected and found versions:\n${r.stderr}`);
      expect(unchanged(), 'the refused run changed the repository');
    });

    check("node-build rebases the series onto the fixture's own lib and stops at its first conflict with the report, changing nothing", () => {
      const r = nodeBuild(repo, ['--build', 'none', '--base-ref', 'fixture']);
      expect(r.status === 1, `exit ${r.status}, expected 1\n${r.stderr}`);
      expect(r.stderr.includes(`rebase onto the checkout at ${fixture.slice(0, 12)}:`), `no rebase report:\n${r.stderr}`);
      expect(/^ {4}(CONFLICT|FAILED)/m.test(r.stderr) && /not reached/.test(r.stderr), `the report names no conflict:\n${r.stderr}`);
      expect(unchanged(), 'the stopped run changed the repository');
    });

    const built = check(`node-build on main takes the committed series (${series.length} patches) as it is and ./configures`, () => {
      const r = nodeBuild(repo, ['--build', 'configure', `--configure-flags=${FIXTURE_CONFIGURE_FLAGS.join(' ')}`]);
      expect(r.status === 0, `exit ${r.status}\n${r.stderr.split('\n').filter((l) => !/pkg-config|PKG_CONFIG|virtual:world/.test(l)).join('\n')}\n${r.stdout}`);
      expect(r.stderr.includes("its lib is the series' base"), `the series was not taken as committed:\n${r.stderr}`);
      console.log(r.stdout.replace(/^/gm, '       '));
    });
    if (!built) return;

    const uncited: string[] = [];
    check('every prefix 1..k of the series ./configures with nothing added; the tree ends as the patched lib', () => {
      const subjects = git(repo, ['log', '--reverse', '--format=%s', `${base}..HEAD`]).split('\n');
      expect(subjects.length === series.length, `${subjects.length} commits on the branch, ${series.length} patches`);
      const head = git(repo, ['rev-parse', 'HEAD']);
      for (let k = 1; k <= series.length; k++) {
        git(repo, ['checkout', '--quiet', '--detach', `${head}~${series.length - k}`]);
        const p = series[k - 1].file;
        const missing = uncitedBenchmarks(p, repo, 'main');
        if (missing.length) uncited.push(`${p.replace(`${ROOT}/`, '')}: ${missing.join(', ')}`);
        configure(repo, FIXTURE_CONFIGURE_FLAGS, () => {});
        expect(git(repo, ['status', '--porcelain']) === '', `patch ${k}: the tree is not clean after ./configure`);
      }
      git(repo, ['checkout', '--quiet', 'webstreams-overlay']);
      const { modules } = readLibDir(libDir('patched'));
      for (const [id, text] of modules) {
        expect(readFileSync(join(repo, 'lib', `${id}.js`), 'utf8') === text, `lib/${id}.js differs from out/lib/patched`);
      }
    });

    check(`Node's ${BENCHMARK_TEST} passes on the patched tree: every benchmark/webstreams file runs its one test configuration`, () => {
      runWebstreamsBenchmarkTest(repo);
      expect(git(repo, ['status', '--porcelain']) === '', 'the tree is not clean after the benchmark test');
    });

    check("every benchmark a commit message cites is in the tree with that commit applied, or main has it; none is added that main has", () => {
      const clashes = series.flatMap((p) => addedOnPrBase(p.file, 'main').map((f) => `${p.file.replace(`${ROOT}/`, '')} adds ${f}`));
      expect(uncited.length === 0 && clashes.length === 0,
        [...uncited.map((u) => `cited but neither in the tree nor added by the series so far: ${u}`), ...clashes].join('\n'));
    });

    check("every commit, signed off as make pr signs it, passes Node's core-validate-commit", () => {
      git(repo, ['rebase', '--quiet', '--signoff', base], TEST_IDENTITY);
      const commits = git(repo, ['rev-list', '--reverse', `${base}..HEAD`]).split('\n');
      const tool = join(ROOT, 'node_modules', '.bin', 'core-validate-commit');
      const bad: string[] = [];
      for (const c of commits) {
        const r = spawnSync(tool, ['--no-validate-metadata', c], { cwd: repo, encoding: 'utf8' });
        if (r.status !== 0) bad.push(`${git(repo, ['log', '-1', '--format=%s', c])}\n${r.stdout}${r.stderr}`);
      }
      expect(bad.length === 0, bad.join('\n'));
    });
  } finally {
    rmSync(work, { recursive: true, force: true });
    const seconds = ((Date.now() - started) / 1000).toFixed(1);
    console.log(`\nIn-tree checks: ${checks.passed} passed, ${checks.failed} failed (${seconds} s)${checks.failures.length ? `: ${checks.failures.join('; ')}` : ''}`);
    reportSummary({ suite: 'node-intree', passed: checks.passed, failed: checks.failed });
    process.exitCode = checks.failed > 0 ? 1 : 0;
  }
}

try {
  main();
} catch (err) {
  console.error(`node-intree: ${(err as Error).message}`);
  reportSummary({ suite: 'node-intree', passed: checks.passed, failed: checks.failed + 1, notes: (err as Error).message });
  process.exit(1);
}
