// Text edits against one original text, applied in one pass. Stages
// (primordials rewrite, type stripping, splicing) each produce edits;
// keeping the untouched text byte-identical is then automatic.
export interface Edit {
  start: number;
  end: number;
  text: string;
  /**
   * Order among insertions at the same position: lower first. The
   * primordials rewrite uses the nesting depth so an outer call's
   * `Name(` opens before an inner one's.
   */
  order?: number;
  /** May be dropped when a larger edit already covers its range (type syntax inside rewritten seams). */
  droppable?: boolean;
}

export function applyEdits(text: string, edits: Edit[], from = 0, to = text.length): string {
  const sorted = edits
    .map((e, i) => ({ e, i }))
    .filter(({ e }) => e.start >= from && e.end <= to)
    .sort((a, b) => a.e.start - b.e.start ||
      // Insertions before replacements at the same start.
      (a.e.end - a.e.start) - (b.e.end - b.e.start) ||
      (a.e.order ?? 0) - (b.e.order ?? 0) || a.i - b.i)
    .map(({ e }) => e);
  let out = '';
  let at = from;
  for (const e of sorted) {
    if (e.start < at) {
      if (e.droppable && e.end <= at) continue;
      throw new Error(`internal: overlapping edits at ${e.start} (${JSON.stringify(text.slice(e.start, e.end))})`);
    }
    out += text.slice(at, e.start) + e.text;
    at = e.end;
  }
  return out + text.slice(at, to);
}
