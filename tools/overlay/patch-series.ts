// The upstream patch series: patch k = diff(base + layers 1..k-1, base +
// layers 1..k) plus the files layer k adds under node/, in `git
// format-patch` form. git does the diffing in a scratch repository with
// every input pinned (author, dates, config), so regenerating is
// byte-identical.
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { Layer } from '../lib/layers.ts';
import type { Modules } from '../lib/libdir.ts';
import { commitMessage } from '../lib/patch-md.ts';
import { applyLayers, type ApplyOptions, type LayerResult } from './apply.ts';
import { layerExtraFiles } from './source.ts';

/** Fixed identity and date of every generated commit (document changes in the README). */
export const PATCH_AUTHOR = { name: 'webstreams-overlay', email: 'webstreams-overlay@users.noreply.github.com' };
export const PATCH_DATE = '2026-01-01T00:00:00Z';

export interface PatchFile {
  layer: Layer;
  /** NNNN-<slug>.patch */
  name: string;
  text: string;
}

/** Node tree path of a lib module: lib/internal/webstreams/<module>.js */
export const treePathOf = (id: string) => `lib/${id}.js`;

export function git(cwd: string, args: string[], input?: string): string {
  return execFileSync('git', args, {
    cwd,
    input,
    encoding: 'utf8',
    maxBuffer: 256 * 1024 * 1024,
    env: {
      // Nothing from the user's or the system's git config may shape the output.
      PATH: process.env.PATH,
      HOME: cwd,
      GIT_CONFIG_NOSYSTEM: '1',
      GIT_CONFIG_GLOBAL: '/dev/null',
      GIT_AUTHOR_NAME: PATCH_AUTHOR.name,
      GIT_AUTHOR_EMAIL: PATCH_AUTHOR.email,
      GIT_AUTHOR_DATE: PATCH_DATE,
      GIT_COMMITTER_NAME: PATCH_AUTHOR.name,
      GIT_COMMITTER_EMAIL: PATCH_AUTHOR.email,
      GIT_COMMITTER_DATE: PATCH_DATE,
      TZ: 'UTC',
      LC_ALL: 'C',
    },
  });
}

export function writeTree(root: string, modules: Modules): void {
  for (const [id, text] of modules) {
    const file = join(root, treePathOf(id));
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, text);
  }
}

/** A scratch git repository holding the base lib at lib/internal/webstreams/, committed. */
export function baseRepo(base: Modules): string {
  const dir = mkdtempSync(join(tmpdir(), 'webstreams-patches-'));
  git(dir, ['init', '-q', '-b', 'base']);
  writeTree(dir, base);
  git(dir, ['add', '-A']);
  git(dir, ['commit', '-q', '-m', 'base']);
  return dir;
}

/** Patches for layers[from-1 .. to-1] (1-based), computed on top of all earlier layers. */
export function patchSeries(base: Modules, layers: Layer[], from = 1, to = layers.length, opts: ApplyOptions = {}): PatchFile[] {
  return seriesPatches(base, layers, applyLayers(base, layers.slice(0, to), opts).layers, from, to);
}

/** The same from states already applied (`states[k]`: after layers[k]). */
export function seriesPatches(base: Modules, layers: Layer[], states: LayerResult[], from = 1, to = layers.length): PatchFile[] {
  const repo = baseRepo(base);
  try {
    const out: PatchFile[] = [];
    for (let k = 0; k < to; k++) {
      const layer = layers[k];
      if (states[k].changed.length === 0)
        throw new Error(`${layer.name} changes no module of the lib: its base already has its change (make rebase says EMPTY); drop the layer`);
      writeTree(repo, states[k].modules);
      for (const extra of layerExtraFiles(layer)) {
        const dest = join(repo, extra.treePath);
        mkdirSync(dirname(dest), { recursive: true });
        copyFileSync(extra.path, dest);
      }
      git(repo, ['add', '-A']);
      git(repo, ['commit', '-q', '--allow-empty', '--cleanup=verbatim', '-F', '-'], commitMessage(layer.dir));
      if (k + 1 < from) continue;
      const text = git(repo, ['-c', 'core.abbrev=12', 'format-patch', '--stdout', '--no-signature', '--zero-commit',
        '--no-numbered', '--full-index', '--diff-algorithm=myers', '--no-renames', '-1', 'HEAD']);
      out.push({ layer, name: `${String(layer.index).padStart(4, '0')}-${layer.name.replace(/^\d+-/, '')}.patch`, text });
    }
    return out;
  } finally {
    rmSync(repo, { recursive: true, force: true });
  }
}
