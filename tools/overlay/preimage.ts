// Pre-images: what a layer replaced. For every declaration and class member
// a layer replaces or removes, its lock file keeps the exact text that was
// there beneath it (base + earlier layers), and it lists the names the
// layer adds. Building compares each entry with what is there now, so a
// change underneath (upstream, or an earlier layer's copy) can never be
// reverted silently: it is merged by `make rebase` or it stops the build.
//
// lib-overlay/<NN>-<slug>/pre-images.lock:
//
//   # comment lines
//   base: v26.12.1
//
//   @@ replace internal/webstreams/readablestream readableStreamPipeTo
//   |function readableStreamPipeTo(source, dest, …) {
//   |  …
//   |}
//   @@ add internal/webstreams/readablestream pipeWrite
//
// Targets are top-level names or `Class::member key`. Text lines start with
// `|` and run from the first comment attached to the declaration to its end.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import type { Layer } from '../lib/layers.ts';
import { ROOT } from '../lib/paths.ts';
import { OverlayError } from './errors.ts';
import type { ModuleIndex, TopDecl } from './module-index.ts';
import { attachedStart, lineStart, ts } from './ts.ts';

export const LOCK_FILE = 'pre-images.lock';

export type Action = 'replace' | 'remove' | 'add';

export interface PreImage {
  action: Action;
  /** internal/webstreams/<module> */
  module: string;
  /** A top-level name, or `Class::key` for a class member. */
  target: string;
  /** The replaced or removed text (whole lines, attached comments included); '' for add. */
  text: string;
}

export interface Lock {
  /** Node version of the base the entries were recorded on. */
  base: string;
  entries: PreImage[];
}

export const entryKey = (e: Pick<PreImage, 'module' | 'target'>) => `${e.module} ${e.target}`;
export const memberTarget = (cls: string, key: string) => `${cls}::${key}`;

/** The text a pre-image records for a node: whole lines from its first attached comment to its end. */
export function declText(sf: ts.SourceFile, node: ts.Node): string {
  return sf.text.slice(lineStart(sf.text, attachedStart(sf, node)), node.end);
}

/** A top-level declaration the module has under `name` that a layer declaration of that name replaces. */
export function replaceableTarget(idx: ModuleIndex, name: string): TopDecl | undefined {
  const target = idx.decls.get(name);
  if (!target) return undefined;
  return target.kind !== 'variable' || idx.bound.get(name) === 'a top-level variable' ? target : undefined;
}

export function formatLock(layer: Layer, lock: Lock): string {
  const out = [
    `# Pre-images of ${layer.name}: the exact text of every declaration this`,
    '# layer replaces or removes, as it was beneath the layer, and the names',
    '# it adds. Written by `make build` and `make rebase`; do not edit.',
    `base: ${lock.base}`,
  ];
  for (const e of lock.entries) {
    out.push('', `@@ ${e.action} ${e.module} ${e.target}`);
    if (e.action !== 'add') for (const line of e.text.split('\n')) out.push(`|${line}`);
  }
  return `${out.join('\n')}\n`;
}

export function parseLock(text: string, where: string): Lock {
  const lines = text.split('\n');
  if (lines.at(-1) === '') lines.pop();
  let base: string | undefined;
  const entries: PreImage[] = [];
  let current: { entry: PreImage; lines: string[] } | undefined;
  const flush = () => {
    if (!current) return;
    current.entry.text = current.lines.join('\n');
    if (current.entry.action !== 'add' && current.lines.length === 0) {
      throw new OverlayError(`${where}: '${current.entry.action} ${current.entry.target}' has no text`);
    }
    entries.push(current.entry);
    current = undefined;
  };
  lines.forEach((line, i) => {
    const at = `${where}:${i + 1}`;
    if (line.startsWith('|')) {
      if (!current || current.entry.action === 'add') throw new OverlayError(`${at}: a text line outside a replace/remove entry`);
      current.lines.push(line.slice(1));
      return;
    }
    flush();
    if (line === '' || line.startsWith('#')) return;
    const baseMatch = /^base: (\S+)$/.exec(line);
    if (baseMatch && base === undefined && entries.length === 0) {
      base = baseMatch[1];
      return;
    }
    const m = /^@@ (replace|remove|add) (\S+) (.+)$/.exec(line);
    if (!m) throw new OverlayError(`${at}: expected '@@ <replace|remove|add> <module> <target>' or a '|' text line`);
    current = { entry: { action: m[1] as Action, module: m[2], target: m[3], text: '' }, lines: [] };
  });
  flush();
  if (base === undefined) throw new OverlayError(`${where}: no 'base:' line`);
  const seen = new Set<string>();
  for (const e of entries) {
    if (seen.has(entryKey(e))) throw new OverlayError(`${where}: ${entryKey(e)} appears twice`);
    seen.add(entryKey(e));
  }
  return { base, entries };
}

export function lockPath(layer: Layer): string {
  return join(layer.dir, LOCK_FILE);
}

export function readLock(layer: Layer): Lock | undefined {
  const file = lockPath(layer);
  if (!existsSync(file)) return undefined;
  return parseLock(readFileSync(file, 'utf8'), relative(ROOT, file) || file);
}

/** Writes the lock if its text changed; true when it did. */
export function writeLock(layer: Layer, lock: Lock): boolean {
  const file = lockPath(layer);
  const text = formatLock(layer, lock);
  if (existsSync(file) && readFileSync(file, 'utf8') === text) return false;
  writeFileSync(file, text);
  return true;
}

export interface Staleness {
  entry: PreImage;
  /** What is there now: the same target with another action or text, or nothing. */
  now: PreImage | undefined;
}

/**
 * Entries of `lock` that no longer describe what the layer finds beneath it
 * (`touched`: what it replaced, removed and added this time). Entries the
 * lock lacks are new (recorded, not stale); entries the layer no longer
 * touches are dropped when the lock is rewritten.
 */
export function staleEntries(lock: Lock | undefined, touched: PreImage[]): Staleness[] {
  if (!lock) return [];
  const now = new Map(touched.map((t) => [entryKey(t), t]));
  const out: Staleness[] = [];
  for (const entry of lock.entries) {
    const t = now.get(entryKey(entry));
    if (!t) continue;
    // Only the ground counts: a layer that now replaces what it removed (or back) found the same text.
    const existed = entry.action !== 'add';
    const exists = t.action !== 'add';
    if (existed !== exists || t.text !== entry.text) out.push({ entry, now: t });
  }
  return out;
}

export function describeStale(layer: Layer, s: Staleness): string {
  const { entry, now } = s;
  const what = `${entry.module} ${entry.target}`;
  if (entry.action === 'add') return `layer ${layer.name}: adds ${what}, which the code beneath it now has too`;
  if (now?.action === 'add') return `layer ${layer.name}: ${entry.action}s ${what}, which the code beneath it no longer has`;
  return `layer ${layer.name}: ${entry.action}s ${what}, which changed beneath it`;
}
