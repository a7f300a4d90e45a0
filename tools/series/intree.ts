// The `intree-series-<name>` suite of `make test`: a series kept beside
// the main one, on the fixture tree (Debian's nodejs source, whose lib is
// the v24 series' base). In a throw-away git repository of that tree:
//
// - its lib/internal/webstreams is byte for byte the series' base (the
//   release binary's builtins), so the patches are made for this tree; a
//   series on another release (the fixes on the pinned base) gets that
//   base's lib/internal/webstreams committed into the tree first, as
//   `node-intree` does for the main series;
// - every prefix 1..k of the committed series applies with `git am` and
//   ./configures (Debian's flags) with the tree left clean; the last one
//   leaves exactly the series' last state in lib/;
// - every benchmark a commit's table cites is in the tree once that commit
//   is applied (Node's rule: it exists in benchmark/ or the PR adds it);
//   the tree's benchmark/ is the fixture's, v24's, also for a series on
//   another release, so for PRs against main the files of Node's own set
//   that main has and v24 lacks count as there, and no patch may add one
//   (tools/node/node-benchmarks.ts);
// - every benchmark/webstreams file, the series' own among them, runs in
//   Node's benchmark test mode (test/benchmark/test-benchmark-webstreams.js,
//   which upstream's CI runs);
// - every commit, signed off as `make pr` signs it, passes Node's
//   `core-validate-commit`;
// - for a series of independent PRs (the fixes), each patch also applies
//   by itself on the base.
//
//   node tools/series/intree.ts --series v24
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseFlags } from '../lib/args.ts';
import { resolveBase } from '../lib/base-spec.ts';
import { Checks, expect } from '../lib/checks.ts';
import { readLibDir } from '../lib/libdir.ts';
import { ROOT } from '../lib/paths.ts';
import { reportSummary } from '../lib/summary.ts';
import { configure } from '../node/build-steps.ts';
import { commitWebstreamsLib, fixtureRepo, TEST_IDENTITY } from '../node/fixture-repo.ts';
import { ensureNodeTree, FIXTURE_CONFIGURE_FLAGS } from '../node/fixture-tree.ts';
import { git, tryGit } from '../node/git.ts';
import { BENCHMARK_TEST, runWebstreamsBenchmarkTest } from '../node/benchmark-test-mode.ts';
import { addedOnPrBase, uncitedBenchmarks } from '../node/node-benchmarks.ts';
import { listPatches } from '../node/series.ts';
import { readSeries, seriesStateLib } from './config.ts';

const { values } = parseFlags({ series: { type: 'string' } }, 'node tools/series/intree.ts --series NAME');
const suite = `intree-series-${values.series ?? 'unknown'}`;
const checks = new Checks();
const check = checks.check.bind(checks);

function main(): void {
  if (!values.series) throw new Error('--series NAME is required');
  const s = readSeries(values.series);
  const base = resolveBase(s.base);
  const patches = listPatches(s.patches);
  const tree = ensureNodeTree((m) => console.log(`  ${m}`));
  console.log(`In-tree checks of series ${s.name} (${patches.length} patches) on the Debian nodejs source tree (Node ${tree.version})`);
  const work = mkdtempSync(join(tmpdir(), 'webstreams-series-intree-'));
  const repo = join(work, 'node');
  try {
    const own = tree.version === base.nodeVersion;
    const what = own ? `the fixture tree's lib/internal/webstreams is the series' base (${base.nodeVersion}) byte for byte`
      : `the fixture tree (Node ${tree.version}) with the series' base lib/internal/webstreams (${base.nodeVersion}) committed`;
    const ready = check(what, () => {
      fixtureRepo(tree.dir, repo, s.prBase);
      if (!own) commitWebstreamsLib(repo, base.modules, base.nodeVersion);
      for (const [id, text] of base.modules) {
        expect(readFileSync(join(repo, 'lib', `${id}.js`), 'utf8') === text, `lib/${id}.js differs from ${base.origin}`);
      }
    });
    if (!ready) return;
    const start = git(repo, ['rev-parse', 'HEAD']);
    const uncited: string[] = [];

    const applied = check(`every prefix 1..k of ${s.patches.replace(`${ROOT}/`, '')} applies with git am and ./configures; the tree ends as the series' last state`, () => {
      expect(patches.length === s.layers.length, `${patches.length} patches for ${s.layers.length} layers`);
      for (const p of patches) {
        git(repo, ['am', '--quiet', '--no-gpg-sign', p.file], TEST_IDENTITY);
        const missing = uncitedBenchmarks(p.file, repo, s.prBase);
        if (missing.length) uncited.push(`${p.file.replace(`${ROOT}/`, '')}: ${missing.join(', ')}`);
        configure(repo, FIXTURE_CONFIGURE_FLAGS, () => {});
        expect(git(repo, ['status', '--porcelain']) === '', `${p.file}: the tree is not clean after ./configure`);
      }
      const { modules } = readLibDir(seriesStateLib(s, s.layers.length, base.dir));
      for (const [id, text] of modules) {
        expect(readFileSync(join(repo, 'lib', `${id}.js`), 'utf8') === text, `lib/${id}.js differs from the series' last state`);
      }
    });
    if (!applied) return;

    check(`Node's ${BENCHMARK_TEST} passes on the tree with the whole series: every benchmark/webstreams file runs its one test configuration`, () => {
      runWebstreamsBenchmarkTest(repo);
      expect(git(repo, ['status', '--porcelain']) === '', 'the tree is not clean after the benchmark test');
    });

    check('every benchmark a commit message cites is in the tree with that commit applied', () => {
      expect(uncited.length === 0, `cited but neither in the tree nor added by the series so far (name them in the layer's bench: or add them with adds:):\n${uncited.join('\n')}`);
    });

    if (s.prBase === 'main') {
      check('no patch adds a benchmark file main already has', () => {
        const clashes = patches.flatMap((p) => addedOnPrBase(p.file, s.prBase)
          .map((f) => `${p.file.replace(`${ROOT}/`, '')}: ${f} (cite it without adding it: drop it from the layer's adds:)`));
        expect(clashes.length === 0, clashes.join('\n'));
      });
    }

    check("every commit, signed off as make pr signs it, passes Node's core-validate-commit", () => {
      git(repo, ['rebase', '--quiet', '--signoff', start], TEST_IDENTITY);
      const tool = join(ROOT, 'node_modules', '.bin', 'core-validate-commit');
      const bad: string[] = [];
      for (const c of git(repo, ['rev-list', '--reverse', `${start}..HEAD`]).split('\n')) {
        const r = spawnSync(tool, ['--no-validate-metadata', c], { cwd: repo, encoding: 'utf8' });
        if (r.status !== 0) bad.push(`${git(repo, ['log', '-1', '--format=%s', c])}\n${r.stdout}${r.stderr}`);
      }
      expect(bad.length === 0, bad.join('\n'));
    });

    if (s.prIndependent) {
      // make pr opens each PR on the PR base alone (tools/node/pr-branches.ts).
      check('each patch also applies by itself with git am (independent PRs)', () => {
        const alone: string[] = [];
        for (const p of patches) {
          git(repo, ['checkout', '--quiet', '--detach', start]);
          const r = tryGit(repo, ['am', '--quiet', '--no-gpg-sign', p.file], TEST_IDENTITY);
          if (!r.ok) {
            tryGit(repo, ['am', '--abort']);
            alone.push(`${p.file.replace(`${ROOT}/`, '')}: ${(r.stderr || r.stdout).trim()}`);
          }
        }
        expect(alone.length === 0, alone.join('\n'));
      });
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

try {
  main();
} catch (err) {
  checks.failed++;
  console.error(`${suite}: ${(err as Error).message}`);
}
console.log(`\nIn-tree checks: ${checks.passed} passed, ${checks.failed} failed`);
reportSummary({ suite, passed: checks.passed, failed: checks.failed });
process.exitCode = checks.failed > 0 ? 1 : 0;
