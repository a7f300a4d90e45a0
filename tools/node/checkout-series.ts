// The series as it stands on a Node checkout: the checkout's webstreams lib
// (at a commit) becomes a base, the overlay is rebased onto it in a copy,
// and the patches are generated from that copy. Where the checkout's lib is
// the series' own base, the committed patches/ are the answer as they are.
// A conflict stops here, with the rebase report, before anything is built.
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { writeSeriesBase } from '../lib/base-spec.ts';
import { parseNodeVersionHeader } from './base-check.ts';
import { listLayers } from '../lib/layers.ts';
import { MODULE_PREFIX, readLibDir, writeLibDir, type Modules } from '../lib/libdir.ts';
import { LIB_OVERLAY, OUT, PATCHES, libDir } from '../lib/paths.ts';
import { applyLayers } from '../overlay/apply.ts';
import { seriesPatches } from '../overlay/patch-series.ts';
import { formatReport, rebaseLayers } from '../overlay/rebase.ts';
import { git, GitError } from './git.ts';

export interface CheckoutSeries {
  patchesDir: string;
  /** How the series was made to fit, for the report. */
  how: string;
}

/** The checkout's lib/internal/webstreams and typings/ at `commit`, as a lib directory under out/bases/. */
export function checkoutBase(dir: string, commit: string): { dir: string; version: string; modules: Modules } {
  const header = parseNodeVersionHeader(git(dir, ['show', `${commit}:src/node_version.h`]));
  const version = header?.version ?? 'unknown';
  const modules: Modules = new Map();
  const names = git(dir, ['ls-tree', '--name-only', commit, `lib/${MODULE_PREFIX}`]).split('\n').filter((n) => n.endsWith('.js'));
  if (names.length === 0) throw new GitError(`${dir} has no lib/${MODULE_PREFIX}*.js at ${commit.slice(0, 12)}; is it a Node checkout?`);
  for (const path of names) modules.set(path.slice('lib/'.length, -'.js'.length), execFileSync('git', ['show', `${commit}:${path}`], { cwd: dir, encoding: 'utf8', maxBuffer: 64 << 20 }));
  const out = join(OUT, 'bases', `checkout-${commit.slice(0, 12)}`);
  writeLibDir(out, { nodeVersion: version, origin: `checkout ${dir} at ${commit.slice(0, 12)}`, layers: [] }, modules);
  if (git(dir, ['ls-tree', '--name-only', commit, 'typings']) === 'typings') {
    const tar = execFileSync('git', ['archive', '--format=tar', commit, 'typings'], { cwd: dir, maxBuffer: 64 << 20 });
    execFileSync('tar', ['-x', '-C', out], { input: tar });
  }
  return { dir: out, version, modules };
}

const sameModules = (a: Modules, b: Modules) => a.size === b.size && [...a].every(([id, text]) => b.get(id) === text);

/** The series to apply to `dir` at `commit`; throws the rebase report when it does not rebase cleanly. */
export function seriesForCheckout(dir: string, commit: string, log: (m: string) => void): CheckoutSeries {
  const base = checkoutBase(dir, commit);
  const own = readLibDir(libDir('base'));
  if (sameModules(base.modules, own.modules)) {
    return { patchesDir: PATCHES, how: `its lib is the series' base (${own.manifest.nodeVersion}): patches/ as committed` };
  }
  const name = `checkout-${commit.slice(0, 12)}`;
  const into = join(OUT, 'rebase', name);
  log(`its lib differs from the series' base (${own.manifest.nodeVersion}): rebasing a copy of lib-overlay/ onto it (${into})`);
  rmSync(into, { recursive: true, force: true });
  cpSync(LIB_OVERLAY, into, { recursive: true });
  writeSeriesBase(into, base.dir);
  const typings = existsSync(join(base.dir, 'typings', 'primordials.d.ts')) ? join(base.dir, 'typings') : undefined;
  const layers = listLayers(into);
  const report = rebaseLayers(base.modules, layers, {
    root: into, typings, baseVersion: base.version, groundLabel: `${base.version} (${commit.slice(0, 12)})`,
    baseLabel: `the checkout (${base.version}, ${commit.slice(0, 12)})`,
  });
  const text = formatReport(report, `the checkout at ${commit.slice(0, 12)}`);
  writeFileSync(join(OUT, 'rebase', `${name}.txt`), `${text}\n`);
  if (!report.ok) {
    throw new GitError(`the series does not rebase cleanly onto ${dir} at ${commit.slice(0, 12)}; nothing was changed there\n${text}\n` +
      `resolve the conflicts in ${into} (then \`make rebase OVERLAY_DIR=${into}\`), or build on the series' base`);
  }
  const applied = applyLayers(base.modules, layers, { root: into, typings, baseLabel: `the checkout (${base.version})` });
  const patchesDir = join(OUT, 'rebase', `${name}-patches`);
  rmSync(patchesDir, { recursive: true, force: true });
  mkdirSync(patchesDir, { recursive: true });
  for (const p of seriesPatches(base.modules, layers, applied.layers)) writeFileSync(join(patchesDir, p.name), p.text);
  const merged = report.layers.filter((l) => l.status === 'merged').map((l) => l.layer.name);
  return { patchesDir, how: `rebased onto it (${merged.length ? `merged: ${merged.join(', ')}` : 'every layer clean'}; report: out/rebase/${name}.txt)` };
}
