// Wires the native binding into a Node tree by anchored insertion: each
// site is a list that opens on a stable anchor line (a #define or a gyp
// key); the new entry goes where it breaks the list's alphabetical order
// least (these lists are mostly, not strictly, sorted), in the list's own
// formatting. Never by line number, idempotent, and a missing anchor is an
// error that names it.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export class WiringError extends Error {}

export interface Site {
  /** Path in the Node tree. */
  file: string;
  /** The line that opens the list (matched at the start of a trimmed line, exactly once). */
  anchor: string;
  kind: 'macro-list' | 'gyp-list';
  /** The list entry's value, e.g. `webstreams` for V(webstreams), `src/node_webstreams.cc` for node.gyp. */
  value: string;
}

export const BINDING_NAME = 'webstreams';
export const BINDING_SOURCE = `src/node_${BINDING_NAME}.cc`;

/** Where internalBinding('webstreams') is registered in a Node tree. */
export function bindingSites(name = BINDING_NAME): Site[] {
  return [
    { file: 'node.gyp', anchor: "'node_sources': [", kind: 'gyp-list', value: `src/node_${name}.cc` },
    { file: 'src/node_binding.cc', anchor: '#define NODE_BUILTIN_STANDARD_BINDINGS(V)', kind: 'macro-list', value: name },
    { file: 'src/node_external_reference.h', anchor: '#define EXTERNAL_REFERENCE_BINDING_LIST_BASE(V)', kind: 'macro-list', value: name },
  ];
}

export interface Edit {
  file: string;
  status: 'inserted' | 'present';
  /** 1-based line of the entry in the result. */
  line: number;
  /** The entry before the new one (undefined when it went first). */
  after?: string;
  text: string;
}

interface Entry {
  index: number;
  value: string;
}

function findAnchor(lines: string[], site: Site): number {
  const hits = lines.flatMap((l, i) => (l.trimStart().startsWith(site.anchor) ? [i] : []));
  if (hits.length === 0) {
    throw new WiringError(`${site.file}: anchor \`${site.anchor}\` not found; the list it opens has moved or been renamed in this Node version, ` +
      `so add the entry for '${site.value}' by hand (and update tools/node/wiring.ts)`);
  }
  if (hits.length > 1) {
    throw new WiringError(`${site.file}: anchor \`${site.anchor}\` appears ${hits.length} times (lines ${hits.map((i) => i + 1).join(', ')}); expected exactly one`);
  }
  return hits[0];
}

/** The lines of a `#define X(V) \` continuation block and its V(name) entries. */
function macroBlock(lines: string[], anchor: number): { end: number; entries: Entry[] } {
  const entries: Entry[] = [];
  let i = anchor;
  while (lines[i].trimEnd().endsWith('\\') && i + 1 < lines.length) {
    i++;
    const m = /^\s*V\((\w+)\)\s*\\?\s*$/.exec(lines[i]);
    if (m) entries.push({ index: i, value: m[1] });
  }
  return { end: i, entries };
}

/** The quoted `src/<file>.cc` entries (same folder as `value`) of a gyp list `'key': [`. */
function gypBlock(lines: string[], anchor: number, site: Site): { entries: Entry[] } {
  const folder = site.value.slice(0, site.value.lastIndexOf('/') + 1);
  const entries: Entry[] = [];
  for (let i = anchor + 1; i < lines.length; i++) {
    if (/^\s*\],?\s*(#.*)?$/.test(lines[i])) return { entries };
    const m = /^\s*'([^']+\.cc)',\s*(#.*)?$/.exec(lines[i]);
    if (m && m[1].startsWith(folder) && !m[1].slice(folder.length).includes('/')) entries.push({ index: i, value: m[1] });
  }
  throw new WiringError(`${site.file}: the list opened at line ${anchor + 1} is never closed`);
}

/**
 * Where `value` breaks the order least: the slot (before entries[i], or after
 * the last for i = n) with the fewest entries on the wrong side of it; on a
 * tie the later slot, next to the list's newer, appended entries.
 */
export function bestSlot(values: string[], value: string): number {
  let best = 0;
  let bestCost = Infinity;
  for (let i = 0; i <= values.length; i++) {
    const cost = values.slice(0, i).filter((v) => v > value).length + values.slice(i).filter((v) => v < value).length;
    if (cost <= bestCost) {
      best = i;
      bestCost = cost;
    }
  }
  return best;
}

function padToColumn(text: string, column: number): string {
  return `${text}${' '.repeat(Math.max(1, column - text.length))}\\`;
}

function present(site: Site, lines: string[], entries: Entry[]): Edit | undefined {
  const hit = entries.find((e) => e.value === site.value);
  return hit && { file: site.file, status: 'present', line: hit.index + 1, text: lines[hit.index].replace(/\\\s*$/, '').trim() };
}

/** Inserts the site's entry into `text`; returns the new text and what happened. */
export function wireText(text: string, site: Site): { text: string; edit: Edit } {
  const lines = text.split('\n');
  const anchor = findAnchor(lines, site);
  if (site.kind === 'macro-list') {
    const { end, entries } = macroBlock(lines, anchor);
    if (entries.length === 0) throw new WiringError(`${site.file}: no V(...) entries follow the anchor \`${site.anchor}\` (line ${anchor + 1})`);
    const found = present(site, lines, entries);
    if (found) return { text, edit: found };
    // The column of the continuation backslashes (Node aligns them at 80).
    const column = Math.max(...lines.slice(anchor, end).filter((l) => l.trimEnd().endsWith('\\')).map((l) => l.trimEnd().length - 1));
    const indent = /^\s*/.exec(lines[entries[0].index])![0];
    const entryText = `${indent}V(${site.value})`;
    const slot = bestSlot(entries.map((e) => e.value), site.value);
    const last = entries[entries.length - 1];
    let at: number;
    if (slot < entries.length) {
      at = entries[slot].index;
      lines.splice(at, 0, padToColumn(entryText, column));
    } else if (last.index === end && !lines[end].trimEnd().endsWith('\\')) {
      // After the block's last line: it gains a backslash, the new entry closes the block.
      lines[end] = padToColumn(lines[end].trimEnd(), column);
      at = end + 1;
      lines.splice(at, 0, entryText);
    } else {
      at = last.index + 1;
      lines.splice(at, 0, padToColumn(entryText, column));
    }
    return { text: lines.join('\n'), edit: { file: site.file, status: 'inserted', line: at + 1, after: entries[slot - 1]?.value, text: entryText.trim() } };
  }
  const { entries } = gypBlock(lines, anchor, site);
  if (entries.length === 0) throw new WiringError(`${site.file}: no '${site.value.slice(0, site.value.lastIndexOf('/') + 1)}*.cc' entries follow the anchor \`${site.anchor}\` (line ${anchor + 1})`);
  const found = present(site, lines, entries);
  if (found) return { text, edit: found };
  const slot = bestSlot(entries.map((e) => e.value), site.value);
  const neighbour = entries[Math.min(slot, entries.length - 1)];
  const indent = /^\s*/.exec(lines[neighbour.index])![0];
  const entryText = `${indent}'${site.value}',`;
  const at = slot < entries.length ? entries[slot].index : entries[entries.length - 1].index + 1;
  lines.splice(at, 0, entryText);
  return { text: lines.join('\n'), edit: { file: site.file, status: 'inserted', line: at + 1, after: entries[slot - 1]?.value, text: entryText.trim() } };
}

/**
 * Wires every site in the tree at `root`. All sites are checked before any
 * file is written, so a missing anchor leaves the tree untouched.
 */
export function wireTree(root: string, sites: Site[] = bindingSites(), write = true): Edit[] {
  const results = sites.map((site) => {
    let text: string;
    try {
      text = readFileSync(join(root, site.file), 'utf8');
    } catch {
      throw new WiringError(`${site.file} is missing in ${root}; is it a Node source tree?`);
    }
    return { site, ...wireText(text, site) };
  });
  if (write) {
    for (const r of results) if (r.edit.status === 'inserted') writeFileSync(join(root, r.site.file), r.text);
  }
  return results.map((r) => r.edit);
}

export function describeEdit(e: Edit): string {
  if (e.status === 'present') return `${e.file}:${e.line}: ${e.text} already there`;
  return `${e.file}:${e.line}: inserted ${e.text} ${e.after ? `after ${e.after}` : 'first'}`;
}
