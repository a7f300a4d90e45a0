// Intended ordering differences, declared by the layers under test in their
// PATCH.md front matter:
//
//   deviation: <scenario id> | <kind>[, <kind>] | <why the observable order changes>
//   deviation: fuzz:<feature> | <kind>[, <kind>] | <why>   (random programs using that feature)
//
// Judging rules (README "Ordering differential suite"):
// - a scenario whose logs differ passes only if one of the tested layers
//   declares it, and only if the difference is of a declared kind
//   (tools/ordering/kinds.ts): a declaration says what may differ, and
//   everything else is still compared;
// - a declaration naming no known scenario (or fuzz feature) fails: it is a
//   typo or a renamed scenario;
// - a declared scenario whose logs no longer differ is reported as a
//   warning, not a failure: a later layer in the tested range may have
//   undone the earlier layer's change, and the declaration stays true for
//   that layer on its own.
import { listLayers, selectLayers, type Layer } from '../lib/layers.ts';
import { readPatchMd } from '../lib/patch-md.ts';
import type { Comparison, LogDiff } from './diff.ts';
import { classify, violations, widestLevel, type Level } from './kinds.ts';
import type { ProjectionDiff } from './projections.ts';

export interface Declared {
  scenario: string;
  kinds: string[];
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

/** The kinds a set of declarations allows together. */
export function allowedKinds(by: readonly Declared[]): Set<string> {
  return new Set(by.flatMap((d) => d.kinds));
}

export interface Checked {
  /** The narrowest kind the difference fits ('beyond' when it fits none). */
  found: Level | 'beyond';
  /** The widest level the declarations allow. */
  allowed: Level;
  /** What differs beyond `allowed`; empty when the difference is allowed. */
  violations: ProjectionDiff[];
}

/** Checks a difference against the declarations that cover it. */
export function checkDeclared(by: readonly Declared[], oldLines: readonly string[], newLines: readonly string[]): Checked {
  // parsePatchMd makes every declaration name a level.
  const allowed = widestLevel(allowedKinds(by))!;
  const found = classify(oldLines, newLines);
  return { found: found === 'identical' ? 'turns' : found, allowed, violations: violations(allowed, oldLines, newLines) };
}

export interface Verdict {
  identical: string[];
  /** Differing, declared, and of a declared kind: checked and allowed. */
  allowed: { diff: LogDiff; by: Declared[]; checked: Checked }[];
  /** Differing and declared, but beyond every declared kind: failures. */
  beyond: { diff: LogDiff; by: Declared[]; checked: Checked }[];
  /** Differing and undeclared: failures (`found` says what a declaration would have to allow). */
  undeclared: { diff: LogDiff; found: Level | 'beyond' }[];
  /** Declared, known, but identical on both sides. */
  stale: Declared[];
  /** Declared ids that name nothing in the corpus. */
  unknown: Declared[];
}

/** Applies the rules to a corpus comparison; `fuzz:` declarations are left to the fuzzer. */
export function judgeCorpus(cmp: Comparison, byId: Map<string, Declared[]>): Verdict {
  const verdict: Verdict = { identical: cmp.same, allowed: [], beyond: [], undeclared: [], stale: [], unknown: [] };
  const known = new Set(cmp.ids);
  const same = new Set(cmp.same);
  for (const diff of cmp.differing) {
    const by = byId.get(diff.id);
    if (!by) {
      const found = classify(diff.oldLines, diff.newLines);
      verdict.undeclared.push({ diff, found: found === 'identical' ? 'turns' : found });
      continue;
    }
    const checked = checkDeclared(by, diff.oldLines, diff.newLines);
    (checked.violations.length ? verdict.beyond : verdict.allowed).push({ diff, by, checked });
  }
  for (const [id, list] of byId) {
    if (id.startsWith('fuzz:')) continue;
    if (!known.has(id)) verdict.unknown.push(...list);
    else if (same.has(id)) verdict.stale.push(...list);
  }
  return verdict;
}

/** `fuzz:<feature>` declarations: the features whose random programs may differ, and how. */
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
