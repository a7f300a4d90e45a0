// Adding and removing entries of `const { … } = source;` lists the way a
// person would: one entry per line in multi-line lists (sorted position when
// the list is sorted, else at the end), a rebuilt line for one-line lists.
import type { Edit } from './edits.ts';
import { entryKey } from './module-index.ts';
import { indentAt, lineStart, nextLineStart, ts } from './ts.ts';

const MAX_LINE = 80;

export interface NewEntry {
  key: string;
  /** `a` or `a: b` (or a nested `codes: {…}` block). */
  text: string;
}

export function isSorted(keys: string[]): boolean {
  return keys.every((k, i) => i === 0 || keys[i - 1] <= k);
}

function isMultiline(sf: ts.SourceFile, pattern: ts.ObjectBindingPattern): boolean {
  return pattern.getText(sf).includes('\n');
}

function rebuild(sf: ts.SourceFile, pattern: ts.ObjectBindingPattern, entries: string[]): Edit {
  const text = sf.text;
  const start = pattern.getStart(sf);
  const lineHead = text.slice(lineStart(text, start), start);
  const lineTail = text.slice(pattern.end, nextLineStart(text, pattern.end)).replace(/\n$/, '');
  const inline = `{ ${entries.join(', ')} }`;
  if (entries.length === 0) return { start, end: pattern.end, text: '{}' };
  if ((lineHead + inline + lineTail).length <= MAX_LINE && !entries.some((e) => e.includes('\n'))) {
    return { start, end: pattern.end, text: inline };
  }
  const indent = `${indentAt(text, start)}  `;
  return { start, end: pattern.end, text: `{\n${entries.map((e) => `${indent}${e},`).join('\n')}\n${indentAt(text, start)}}` };
}

/** Edits adding `entries` to `pattern`. `sorted`: 'always' (primordials), or 'auto' (only when the list already is). */
export function addEntries(sf: ts.SourceFile, pattern: ts.ObjectBindingPattern, entries: NewEntry[], sorted: 'always' | 'auto'): Edit[] {
  if (entries.length === 0) return [];
  const text = sf.text;
  const els = [...pattern.elements];
  const keys = els.map(entryKey);
  const keepSorted = sorted === 'always' || isSorted(keys);
  const ordered = keepSorted ? [...entries].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0)) : entries;
  if (!isMultiline(sf, pattern)) {
    const all = els.map((e) => e.getText(sf));
    for (const e of ordered) {
      const at = keepSorted ? keys.findIndex((k) => k > e.key) : -1;
      if (at < 0) {
        all.push(e.text);
        keys.push(e.key);
      } else {
        all.splice(at, 0, e.text);
        keys.splice(at, 0, e.key);
      }
    }
    return [rebuild(sf, pattern, all)];
  }
  const indent = els.length ? indentAt(text, els[0].getStart(sf)) : `${indentAt(text, pattern.getStart(sf))}  `;
  const edits: Edit[] = [];
  const last = els.at(-1);
  let afterLast = last ? last.end : pattern.getStart(sf) + 1;
  if (last && text[afterLast] !== ',') edits.push({ start: afterLast, end: afterLast, text: ',' });
  if (last && text[afterLast] === ',') afterLast++;
  const tail = nextLineStart(text, afterLast);
  for (const e of ordered) {
    const body = e.text.split('\n').map((l, i) => (i === 0 ? l : `${indent}${l}`)).join('\n');
    const line = `${indent}${body},\n`;
    const before = keepSorted ? els.find((el) => entryKey(el) > e.key) : undefined;
    const at = before ? lineStart(text, before.getStart(sf)) : tail;
    edits.push({ start: at, end: at, text: line });
  }
  return edits;
}

/** Edits removing `remove` from `pattern`; empty = the pattern would be left with no entries. */
export function removeEntries(sf: ts.SourceFile, pattern: ts.ObjectBindingPattern, remove: ts.BindingElement[]): Edit[] | 'empty' {
  if (remove.length === 0) return [];
  const keep = pattern.elements.filter((el) => !remove.includes(el));
  if (keep.length === 0) return 'empty';
  const text = sf.text;
  const ownLine = (el: ts.BindingElement) => {
    const start = el.getStart(sf);
    let end = el.end;
    if (text[end] === ',') end++;
    return text.slice(lineStart(text, start), start).trim() === '' && text.slice(end, nextLineStart(text, end)).trim() === '';
  };
  if (!isMultiline(sf, pattern) || !remove.every(ownLine)) return [rebuild(sf, pattern, keep.map((e) => e.getText(sf)))];
  return remove.map((el) => {
    const start = lineStart(text, el.getStart(sf));
    return { start, end: nextLineStart(text, el.end), text: '' };
  });
}

/** A new `const { … } = source;` statement. */
export function newDestructuring(entries: NewEntry[], source: string): string {
  const inline = `const { ${entries.map((e) => e.text).join(', ')} } = ${source};`;
  if (entries.length === 1 && inline.length <= MAX_LINE && !inline.includes('\n')) return inline;
  return `const {\n${entries.map((e) => `  ${e.text.split('\n').join('\n  ')},`).join('\n')}\n} = ${source};`;
}
