// Files a layer ships into Node's tree (<layer>/node/…, a test the patch
// adds) that more than one series carries: a backport carries its own copy
// of the main series' test, and the v24 and fixes series share tests the
// main series does not have. A copy must stay the file it copies, so that a
// fix to one reaches the others; a copy that has to differ (a case the
// older release cannot run) is declared in its series.json:
//
//   "adapted": { "test/parallel/<file>.js": "why this copy differs" }
//
// The file each series' copy is compared with is the main series' copy,
// else the first other series' (by name) that does not declare it adapted.
// Within a series, the copy of the latest layer that ships the path counts.
import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import type { Layer } from '../lib/layers.ts';
import { ROOT } from '../lib/paths.ts';
import { layerExtraFiles } from '../overlay/source.ts';

export interface SeriesFiles {
  /** 'main' for lib-overlay/, else the series' name. */
  name: string;
  layers: Layer[];
  /** Paths (relative to node/) whose copy may differ, and why. */
  adapted: Record<string, string>;
}

interface Copy {
  series: string;
  /** The shipped file, relative to the repository, for messages. */
  file: string;
  text: string;
}

/** Every path (relative to node/) the series ships, with the latest layer's copy. */
export function shippedFiles(s: SeriesFiles): Map<string, Copy> {
  const files = new Map<string, Copy>();
  for (const layer of s.layers) {
    // The layer's own node/ files; the harness files PATCH.md `adds` are one file for every series.
    for (const f of layerExtraFiles(layer)) {
      if (relative(layer.dir, f.path).startsWith('..')) continue;
      files.set(f.treePath, { series: s.name, file: relative(ROOT, f.path), text: readFileSync(f.path, 'utf8') });
    }
  }
  return files;
}

export interface CopiesReport {
  /** Paths shipped by more than one series. */
  shared: string[];
  /** One line per copy that differs undeclared, or per declaration that no longer holds. */
  problems: string[];
}

/** Checks that every copy of a shared path is the same file, except the declared adaptations. */
export function checkCopies(all: SeriesFiles[]): CopiesReport {
  const ordered = [...all].sort((a, b) => (a.name === 'main' ? -1 : b.name === 'main' ? 1 : a.name.localeCompare(b.name)));
  const shipped = new Map(ordered.map((s) => [s.name, shippedFiles(s)]));
  const paths = new Set([...shipped.values()].flatMap((m) => [...m.keys()]));
  const shared: string[] = [];
  const problems: string[] = [];
  for (const path of [...paths].sort()) {
    const copies = ordered.flatMap((s) => {
      const copy = shipped.get(s.name)!.get(path);
      return copy ? [{ ...copy, adapted: Object.hasOwn(s.adapted, path) }] : [];
    });
    if (copies.length < 2) continue;
    shared.push(path);
    const original = copies.find((c) => c.series === 'main') ?? copies.find((c) => !c.adapted);
    for (const c of copies) {
      if (c === original) continue;
      const same = original !== undefined && c.text === original.text;
      if (!same && !c.adapted) {
        problems.push(`${c.file}: differs from ${original!.file}; make it the same file, or declare it in ${c.series}'s series.json "adapted" with why`);
      } else if (same && c.adapted) {
        problems.push(`${c.file}: declared adapted in ${c.series}'s series.json, but is the same file as ${original!.file}; drop the declaration`);
      }
    }
  }
  for (const s of ordered) {
    for (const path of Object.keys(s.adapted)) {
      if (!shared.includes(path) || !shipped.get(s.name)!.has(path)) {
        problems.push(`${s.name}'s series.json declares "adapted" ${path}, which no other series ships beside it`);
      }
    }
  }
  return { shared, problems };
}
