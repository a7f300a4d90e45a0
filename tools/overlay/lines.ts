// Removing whole lines (a declaration, a member, a directive) without
// leaving doubled blank lines behind.
import type { Edit } from './edits.ts';
import { lineStart, nextLineStart } from './ts.ts';

const isBlank = (line: string) => line.trim() === '';

/** The range of the lines covering [start, end), widened by one blank line where that keeps spacing even. */
export function lineRemoval(text: string, start: number, end: number): { start: number; end: number } {
  let s = lineStart(text, start);
  let e = nextLineStart(text, Math.max(start, end - 1));
  const prevLine = s === 0 ? undefined : text.slice(lineStart(text, s - 1), s);
  const nextLine = text.slice(e, nextLineStart(text, e));
  const prevOpen = prevLine === undefined || isBlank(prevLine) || /\{\s*$/.test(prevLine);
  if (prevOpen && e < text.length && isBlank(nextLine)) e = nextLineStart(text, e);
  else if (prevLine !== undefined && isBlank(prevLine) && (/^\s*\}/.test(nextLine) || e >= text.length)) s = lineStart(text, s - 1);
  return { start: s, end: e };
}

/** Edits removing each range's lines; overlapping ranges merge first. */
export function lineRemovalEdits(text: string, ranges: { start: number; end: number }[]): Edit[] {
  const spans = ranges
    .map((r) => ({ start: lineStart(text, r.start), end: nextLineStart(text, Math.max(r.start, r.end - 1)) }))
    .sort((a, b) => a.start - b.start);
  const merged: { start: number; end: number }[] = [];
  for (const s of spans) {
    const last = merged.at(-1);
    if (last && s.start <= last.end) last.end = Math.max(last.end, s.end);
    else merged.push({ ...s });
  }
  const widened = merged.map((m) => lineRemoval(text, m.start, m.end));
  // Widening may make neighbours touch; they never need more than one blank line between them.
  const out: Edit[] = [];
  let lastEnd = -1;
  for (const w of widened) {
    const start = Math.max(w.start, lastEnd);
    if (w.end > start) out.push({ start, end: w.end, text: '' });
    lastEnd = Math.max(lastEnd, w.end);
  }
  return out;
}
