// Three-way merge of one declaration, as `git rebase` would do it: the
// layer's copy, the pre-image it was written against, and what is there
// now. `git merge-file` does the merging, so its rules (and its conflict
// markers, diff3 style) are git's own.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import type { Layer } from '../lib/layers.ts';
import { ROOT } from '../lib/paths.ts';
import { layerModuleFiles } from './source.ts';

export interface MergeResult {
  text: string;
  /** Conflicting hunks (0: a clean merge). */
  conflicts: number;
}

/** Lines that `git merge-file` writes around a conflict, or that `make rebase` adds as a comment. */
export const CONFLICT_MARKER = /^\s*(?:(?:<{7}|>{7}|\|{7})(?:\s|$)|={7}$|\/\/ <{7} )/;

/**
 * Merges the change base → theirs into ours. Texts are whole lines (no
 * trailing newline); labels name the three sides in conflict markers.
 */
export function mergeThreeWay(ours: string, base: string, theirs: string, labels: [string, string, string]): MergeResult {
  const dir = mkdtempSync(join(tmpdir(), 'overlay-merge-'));
  try {
    const files = ['ours', 'base', 'theirs'].map((n) => join(dir, n));
    [ours, base, theirs].forEach((t, i) => writeFileSync(files[i], `${t}\n`));
    const args = ['merge-file', '-p', '--diff3', ...labels.flatMap((l) => ['-L', l]), ...files];
    let out: string;
    let conflicts = 0;
    try {
      out = execFileSync('git', args, { encoding: 'utf8', env: { ...process.env, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null' } });
    } catch (err) {
      const e = err as { status?: number; stdout?: string; message: string };
      // The exit status is the number of conflicts; a negative one (255) is an error.
      if (typeof e.status !== 'number' || e.status <= 0 || e.status >= 128 || typeof e.stdout !== 'string') {
        throw new Error(`git merge-file failed: ${e.message}`);
      }
      out = e.stdout;
      conflicts = e.status;
    }
    return { text: out.endsWith('\n') ? out.slice(0, -1) : out, conflicts };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Ordered line matching (longest common subsequence): for each line of `b`,
 * the index of the line of `a` it is matched with, or -1.
 */
export function matchLines(a: string[], b: string[]): number[] {
  const n = a.length;
  const m = b.length;
  const len: Uint32Array[] = Array.from({ length: n + 1 }, () => new Uint32Array(m + 1));
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) len[i][j] = a[i] === b[j] ? len[i + 1][j + 1] + 1 : Math.max(len[i + 1][j], len[i][j + 1]);
  }
  const out = new Array<number>(m).fill(-1);
  for (let i = 0, j = 0; i < n && j < m;) {
    if (a[i] === b[j]) out[j++] = i++;
    else if (len[i + 1][j] >= len[i][j + 1]) i++;
    else j++;
  }
  return out;
}

/**
 * TypeScript forms of JS lines, by the trimmed JS line: what the layers
 * wrote as `x!.y`, `a as T` or `list.push(v)` and compiled to the line the
 * ground now holds. `null`: the JS line has two different forms.
 */
export type TypedLines = Map<string, string | null>;

/** Records the pairs of a TypeScript text and its JS compiled line for line. */
export function addTypedLines(into: TypedLines, tsText: string, jsText: string): void {
  const ts = tsText.split('\n');
  const js = jsText.split('\n');
  if (ts.length !== js.length) return;
  js.forEach((line, i) => {
    const j = line.trim();
    const t = ts[i].trim();
    if (j === '' || j === t) return;
    const had = into.get(j);
    if (had === undefined) into.set(j, t);
    else if (had !== t) into.set(j, null);
  });
}

/**
 * Merges in the lib's terms and maps back to the layer's: `oursJs` is the
 * layer's copy compiled line for line (`oursTs` itself, as TypeScript), so
 * types and idiomatic built-in calls do not count as changes of the layer.
 * Every line of the result that comes from the layer's copy is its
 * TypeScript line; a line from the new ground takes the form a layer wrote
 * it in (`typed`, with the copy's own lines), so that a `!` or a cast
 * written beneath is not lost to strict type checking; other lines stay
 * JS, which is TypeScript too.
 */
export function mergeLayerCopy(oursTs: string, oursJs: string, base: string, theirs: string, labels: [string, string, string],
  typed: TypedLines = new Map()): MergeResult {
  const ts = oursTs.split('\n');
  const js = oursJs.split('\n');
  if (ts.length !== js.length) return mergeThreeWay(oursTs, base, theirs, labels);
  const forms: TypedLines = new Map(typed);
  addTypedLines(forms, oursTs, oursJs);
  const merged = mergeThreeWay(oursJs, base, theirs, labels);
  const lines = merged.text.split('\n');
  const match = matchLines(js, lines);
  const typedForm = (line: string) => {
    const form = forms.get(line.trim());
    return form ? /^\s*/.exec(line)![0] + form : line;
  };
  return { text: lines.map((line, i) => (match[i] < 0 ? typedForm(line) : ts[match[i]])).join('\n'), conflicts: merged.conflicts };
}

/** 1-based lines of `text` that hold conflict markers. */
export function markerLines(text: string): number[] {
  const out: number[] = [];
  text.split('\n').forEach((line, i) => {
    if (CONFLICT_MARKER.test(line)) out.push(i + 1);
  });
  return out;
}

/** Unresolved conflict markers in a layer's files, as `file:line`. */
export function unresolvedMarkers(layer: Layer): string[] {
  return layerModuleFiles(layer).flatMap((f) => markerLines(readFileSync(f.path, 'utf8')).map((l) => `${relative(ROOT, f.path)}:${l}`));
}
