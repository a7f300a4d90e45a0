// Intended ordering differences, declared by the layers under test in their
// PATCH.md front matter:
//
//   deviation: <scenario id> | <why the observable order changes>
//   deviation: fuzz:<feature> | <why>   (random programs using that feature)
//
// Judging rules (README "Ordering differential suite"):
// - a scenario whose logs differ passes only if one of the tested layers
//   declares it;
// - a declaration naming no known scenario (or fuzz feature) fails: it is a
//   typo or a renamed scenario;
// - a declared scenario whose logs no longer differ is reported as a
//   warning, not a failure: a later layer in the tested range may have
//   undone the earlier layer's change, and the declaration stays true for
//   that layer on its own.
import { listLayers, selectLayers, type Layer } from '../lib/layers.ts';
import { readPatchMd } from '../lib/patch-md.ts';
import type { Comparison, LogDiff } from './diff.ts';

export interface Declared {
  scenario: string;
  reason: string;
  layer: string;
}

/** Declarations of the layers LAYERS selects under `overlayRoot`, keyed by scenario id. */
export function declaredDeviations(overlayRoot: string, range: string | undefined): { layers: Layer[]; byId: Map<string, Declared[]> } {
  const layers = selectLayers(listLayers(overlayRoot), range);
  const byId = new Map<string, Declared[]>();
  for (const layer of layers) {
    for (const d of readPatchMd(layer.dir).deviations) {
      const list = byId.get(d.scenario) ?? [];
      list.push({ ...d, layer: layer.name });
      byId.set(d.scenario, list);
    }
  }
  return { layers, byId };
}

export interface Verdict {
  identical: string[];
  /** Differing and declared: allowed. */
  allowed: { diff: LogDiff; by: Declared[] }[];
  /** Differing and undeclared: failures. */
  undeclared: LogDiff[];
  /** Declared, known, but identical on both sides. */
  stale: Declared[];
  /** Declared ids that name nothing in the corpus. */
  unknown: Declared[];
}

/** Applies the rules to a corpus comparison; `fuzz:` declarations are left to the fuzzer. */
export function judgeCorpus(cmp: Comparison, byId: Map<string, Declared[]>): Verdict {
  const verdict: Verdict = { identical: cmp.same, allowed: [], undeclared: [], stale: [], unknown: [] };
  const known = new Set(cmp.ids);
  const same = new Set(cmp.same);
  for (const diff of cmp.differing) {
    const by = byId.get(diff.id);
    if (by) verdict.allowed.push({ diff, by });
    else verdict.undeclared.push(diff);
  }
  for (const [id, list] of byId) {
    if (id.startsWith('fuzz:')) continue;
    if (!known.has(id)) verdict.unknown.push(...list);
    else if (same.has(id)) verdict.stale.push(...list);
  }
  return verdict;
}

/** `fuzz:<feature>` declarations: the features whose random programs may differ. */
export function fuzzExemptions(byId: Map<string, Declared[]>, knownFeatures: readonly string[]): { exempt: Map<string, Declared[]>; unknown: Declared[] } {
  const exempt = new Map<string, Declared[]>();
  const unknown: Declared[] = [];
  for (const [id, list] of byId) {
    if (!id.startsWith('fuzz:')) continue;
    const feature = id.slice('fuzz:'.length);
    if (knownFeatures.includes(feature)) exempt.set(feature, list);
    else unknown.push(...list);
  }
  return { exempt, unknown };
}
