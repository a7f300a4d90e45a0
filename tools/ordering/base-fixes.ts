// Bugs of the base that a layer fixes (a spec deviation in Node's own lib),
// each declared in the layer's base-fix.json as a textual insertion:
//
//   { "module": "internal/webstreams/readablestream",
//     "after": "<text that occurs exactly once>", "insert": "<text>",
//     "why": "<one line>" }
//
// or, for a fix in several places of the module, `"inserts": [{ "after",
// "insert" }, …]` in place of `after` and `insert`, applied in order.
//
// The differential suites compare a series that includes such a layer with
// an old side that has the same fix inserted. The fixed bug is then no
// difference to excuse, while everything else the layers change is judged
// against the base's behaviour as before. The fix itself is proven by the
// layer's Node test and its ordering scenario, which differ between the
// old side with and without it (test/unit/ordering-base-fixes.test.ts).
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { basename, join } from 'node:path';
import type { Lib } from '../lib/injected.ts';
import { BASE_FIX_FILE, type Layer } from '../lib/layers.ts';
import { readLibDir, replaceOnce, writeLibDir, type Modules } from '../lib/libdir.ts';
import { libDir } from '../lib/paths.ts';

export interface BaseFix {
  layer: string;
  module: string;
  after: string;
  insert: string;
  why: string;
}

function field(value: unknown, name: string, file: string): string {
  if (typeof value !== 'string' || value === '') throw new Error(`${file}: "${name}" must be a non-empty string`);
  return value;
}

/** The base fixes the layers declare, in layer order. */
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
    if (json.inserts !== undefined && (json.after !== undefined || json.insert !== undefined))
      throw new Error(`${file}: give either "inserts" or "after" and "insert", not both`);
    const inserts: unknown = json.inserts ?? [{ after: json.after, insert: json.insert }];
    if (!Array.isArray(inserts) || inserts.length === 0) throw new Error(`${file}: "inserts" must be a non-empty array`);
    for (const [i, one] of (inserts as Record<string, unknown>[]).entries()) {
      const where = json.inserts === undefined ? file : `${file} inserts[${i}]`;
      fixes.push({ layer: layer.name, module, after: field(one?.after, 'after', where), insert: field(one?.insert, 'insert', where), why });
    }
  }
  return fixes;
}

/** The modules of `lib` with each fix inserted; refuses an anchor that is missing or not unique. */
export function applyBaseFixes(modules: Modules, fixes: readonly BaseFix[], libName: string): Modules {
  const out = new Map(modules);
  for (const fix of fixes) {
    try {
      replaceOnce(out, fix.module, fix.after, fix.after + fix.insert);
    } catch (err) {
      throw new Error(`base fix of ${fix.layer} does not apply to ${libName}: ${(err as Error).message}; update ${BASE_FIX_FILE} for this base`);
    }
  }
  return out;
}

/** One line per fix, for the reports: which layer, and what it fixes. */
export function describeBaseFixes(fixes: readonly BaseFix[]): string {
  return [...new Set(fixes.map((f) => `old side with the base fix of ${f.layer}: ${f.why}`))].join('\n');
}

/**
 * `lib` with the fixes applied (the lib itself when there are none), named
 * `<lib>+fixes`. Its directory, out/lib/<lib's folder>+fixes-<hash of its content>,
 * is written once and renamed into place, so runs in parallel share it.
 */
export function withBaseFixes(lib: Lib, fixes: readonly BaseFix[]): Lib {
  if (fixes.length === 0) return lib;
  const { manifest, modules } = readLibDir(lib.dir);
  const fixed = applyBaseFixes(modules, fixes, lib.name);
  const hash = createHash('sha256');
  for (const [id, text] of [...fixed].sort(([a], [b]) => a.localeCompare(b))) hash.update(`${id}\0${text}\0`);
  const name = `${lib.name}+fixes`;
  const dir = libDir(`${basename(lib.dir)}+fixes-${hash.digest('hex').slice(0, 12)}`);
  if (!existsSync(dir)) {
    const tmp = `${dir}.tmp-${process.pid}`;
    writeLibDir(tmp, {
      nodeVersion: manifest.nodeVersion,
      origin: `${manifest.origin}, with the base fixes of ${fixes.map((f) => f.layer).join(', ')}`,
      layers: manifest.layers,
    }, fixed);
    try {
      renameSync(tmp, dir);
    } catch (err) {
      // Another run put the same content there first.
      rmSync(tmp, { recursive: true, force: true });
      if (!existsSync(dir)) throw err;
    }
  }
  return { name, dir };
}
