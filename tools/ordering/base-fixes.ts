// Bugs of the base that a layer fixes (a spec deviation in Node's own lib),
// each declared in the layer's base-fix.json as a textual insertion:
//
//   { "module": "internal/webstreams/readablestream",
//     "after": "<text that occurs exactly once>", "insert": "<text>",
//     "why": "<one line>" }
//
// or, for a fix in several places of the module, `"inserts": [{ "after",
// "insert" }, …]` in place of `after` and `insert`, applied in order. An
// entry of `inserts` may instead replace text: `{ "replace": "<text that
// occurs exactly once>", "with": "<text>" }`, for a fix that changes an
// expression rather than adding statements.
//
// A fix that makes Node differ from the reference implementation (where
// the reference follows the base's bug, or the fix carries one of the
// base's own differences into another outcome) names the reason in
// `"reference": "<a reason of test/ordering/reference-differences.json>"`.
// The reference suite then passes a random program whose difference is
// that fix's: `tools/reference.ts`, "as one fix does".
//
// The insertions fit the base. A layer range that starts later (LAYERS=a..b)
// has the state after layer a-1 as its old side, where earlier layers may
// have rewritten the anchors; `"alternatives": [{ "for": "<which states>",
// "inserts": […] }, …]` gives the same fix for such states. The first of
// base and alternatives whose anchors all fit is applied.
//
// The differential suites compare a series that includes such a layer with
// an old side that has the same fix inserted. The fixed bug is then no
// difference to excuse, while everything else the layers change is judged
// against the base's behaviour as before. The fix itself is proven by the
// layer's Node test and its ordering scenario, which differ between the
// old side with and without it (test/unit/ordering-base-fixes.test.ts).
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { resolveLib, type Lib } from '../lib/injected.ts';
import { BASE_FIX_FILE, listLayers, type Layer } from '../lib/layers.ts';
import { readLibDir, replaceOnce, writeDerivedLib, type Modules } from '../lib/libdir.ts';
import { LIB_OVERLAY } from '../lib/paths.ts';

export interface BaseFix {
  layer: string;
  module: string;
  /** Text that occurs exactly once in the module, and what it becomes (an insertion keeps it in front). */
  find: string;
  replace: string;
  why: string;
  /** The reason (a key of the reference differences' `reasons`) this fix may differ from the reference implementation. */
  reference?: string;
  /** 0 for the insertions into the base, i for the layer's alternative i. */
  variant: number;
}

function field(value: unknown, name: string, file: string): string {
  if (typeof value !== 'string' || value === '') throw new Error(`${file}: "${name}" must be a non-empty string`);
  return value;
}

function insertsOf(json: Record<string, unknown>, where: string): { find: string; replace: string }[] {
  if (json.inserts !== undefined && (json.after !== undefined || json.insert !== undefined))
    throw new Error(`${where}: give either "inserts" or "after" and "insert", not both`);
  const inserts: unknown = json.inserts ?? [{ after: json.after, insert: json.insert }];
  if (!Array.isArray(inserts) || inserts.length === 0) throw new Error(`${where}: "inserts" must be a non-empty array`);
  return (inserts as Record<string, unknown>[]).map((one, i) => {
    const at = json.inserts === undefined ? where : `${where} inserts[${i}]`;
    if (one?.replace !== undefined || one?.with !== undefined) {
      if (one.after !== undefined || one.insert !== undefined) throw new Error(`${at}: give either "after" and "insert" or "replace" and "with", not both`);
      const find = field(one.replace, 'replace', at);
      const replace = field(one.with, 'with', at);
      if (replace === find) throw new Error(`${at}: "with" is the text it replaces`);
      return { find, replace };
    }
    const after = field(one?.after, 'after', at);
    return { find: after, replace: after + field(one?.insert, 'insert', at) };
  });
}

/** The base fixes the layers declare, in layer order, each with its alternatives after it. */
export function baseFixes(layers: readonly Layer[]): BaseFix[] {
  const fixes: BaseFix[] = [];
  for (const layer of layers) {
    const file = join(layer.dir, BASE_FIX_FILE);
    if (!existsSync(file)) continue;
    let json: Record<string, unknown>;
    try {
      json = JSON.parse(readFileSync(file, 'utf8'));
    } catch (err) {
      throw new Error(`${file}: ${(err as Error).message}`);
    }
    const module = field(json.module, 'module', file);
    const why = field(json.why, 'why', file);
    const reference = json.reference === undefined ? undefined : field(json.reference, 'reference', file);
    const alternatives: unknown = json.alternatives ?? [];
    if (!Array.isArray(alternatives)) throw new Error(`${file}: "alternatives" must be an array`);
    const variants = [insertsOf(json, file)];
    for (const [i, alt] of (alternatives as Record<string, unknown>[]).entries()) {
      const where = `${file} alternatives[${i}]`;
      field(alt?.for, 'for', where);
      variants.push(insertsOf(alt, where));
    }
    for (const [variant, inserts] of variants.entries())
      for (const one of inserts) fixes.push({ layer: layer.name, module, ...one, why, ...(reference === undefined ? {} : { reference }), variant });
  }
  return fixes;
}

/**
 * The modules of `lib` with each layer's fix inserted: the first of its
 * variants whose anchors all occur exactly once. Refuses a fix none fits.
 */
export function applyBaseFixes(modules: Modules, fixes: readonly BaseFix[], libName: string): Modules {
  const out = new Map(modules);
  for (const layer of new Set(fixes.map((f) => f.layer))) {
    const ofLayer = fixes.filter((f) => f.layer === layer);
    const variants = [...new Set(ofLayer.map((f) => f.variant))].map((v) => ofLayer.filter((f) => f.variant === v));
    // Inserting a fix the lib already has would run its steps twice.
    if (variants.some((inserts) => inserts.every((f) => out.get(f.module)?.includes(f.replace))))
      throw new Error(`${libName} already has the base fix of ${layer} (its base took the fix upstream): remove the layer's ${BASE_FIX_FILE}`);
    let firstError: Error | undefined;
    for (const inserts of variants) {
      const attempt = new Map(out);
      try {
        for (const fix of inserts) replaceOnce(attempt, fix.module, fix.find, fix.replace);
      } catch (err) {
        firstError ??= err as Error;
        continue;
      }
      for (const [id, text] of attempt) out.set(id, text);
      firstError = undefined;
      break;
    }
    if (firstError !== undefined) {
      const others = variants.length > 1 ? ` (nor does any of its ${variants.length - 1} alternatives)` : '';
      throw new Error(`base fix of ${layer} does not apply to ${libName}: ${firstError.message}${others}; update ${BASE_FIX_FILE} for this base`);
    }
  }
  return out;
}

/** One line per fix, for the reports: which side, which layer, and what it fixes. */
export function describeBaseFixes(fixes: readonly BaseFix[], sides = 'old side'): string {
  return [...new Set(fixes.map((f) => `${sides} with the base fix of ${f.layer}: ${f.why}`))].join('\n');
}

/**
 * `lib` with the fixes applied (the lib itself when there are none), named
 * `<lib>+fixes` unless `name` says otherwise, in out/lib/<lib's
 * folder>+fixes-<hash of its content> (writeDerivedLib).
 */
export function withBaseFixes(lib: Lib, fixes: readonly BaseFix[], name = `${lib.name}+fixes`): Lib {
  if (fixes.length === 0) return lib;
  const { manifest, modules } = readLibDir(lib.dir);
  const fixed = applyBaseFixes(modules, fixes, lib.name);
  return { name, dir: writeDerivedLib(lib.dir, manifest, fixed, 'fixes', `the base fixes of ${fixes.map((f) => f.layer).join(', ')}`) };
}

/** The stock base with every fix the main series' layers carry: `base+fixes`, the old side its ordering suite judges it against. */
export function fixedBase(): Lib {
  return withBaseFixes(resolveLib('base'), baseFixes(listLayers(LIB_OVERLAY)));
}

export interface ReferenceFix {
  layer: string;
  /** The reason it names (BaseFix.reference). */
  reason: string;
  /** Its insertions into the base the layer was written for (variant 0). */
  fixes: BaseFix[];
}

/** The fixes that declare a difference from the reference implementation, in layer order. */
export function referenceFixes(fixes: readonly BaseFix[]): ReferenceFix[] {
  const out: ReferenceFix[] = [];
  for (const layer of new Set(fixes.map((f) => f.layer))) {
    const own = fixes.filter((f) => f.layer === layer && f.variant === 0);
    const reason = own[0]?.reference;
    if (reason !== undefined) out.push({ layer, reason, fixes: own });
  }
  return out;
}
