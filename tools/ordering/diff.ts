// Compares two sides' logs scenario by scenario and renders the first
// difference of each with a little context.

export interface LogDiff {
  id: string;
  /** Index of the first differing line (or the length of the shorter log). */
  at: number;
  oldLines: string[];
  newLines: string[];
}

export interface Comparison {
  ids: string[];
  same: string[];
  differing: LogDiff[];
}

const MISSING = ['(scenario missing on this side)'];

/** Index of the first line where `a` and `b` differ, the shorter's length if one is a prefix of the other, -1 if equal. */
export function firstDifference(a: readonly string[], b: readonly string[]): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return i;
  return a.length === b.length ? -1 : n;
}

/** Every id on either side, old side's order first. */
export function compareLogs(oldLogs: Map<string, string[]>, newLogs: Map<string, string[]>): Comparison {
  const ids = [...oldLogs.keys(), ...[...newLogs.keys()].filter((id) => !oldLogs.has(id))];
  const result: Comparison = { ids, same: [], differing: [] };
  for (const id of ids) {
    const a = oldLogs.get(id) ?? MISSING;
    const b = newLogs.get(id) ?? MISSING;
    const at = oldLogs.has(id) && newLogs.has(id) ? firstDifference(a, b) : 0;
    if (at < 0) result.same.push(id);
    else result.differing.push({ id, at, oldLines: a, newLines: b });
  }
  return result;
}

/**
 * The first differing lines with `context` equal lines before them:
 *
 *     1:3 read#1 fulfilled …      (equal)
 *   - 1:4 write#1 fulfilled …     (old side)
 *   + 1:5 write#1 fulfilled …     (new side)
 */
export function renderDiff(d: LogDiff, oldName: string, newName: string, context = 3, shown = 4): string {
  const out: string[] = [`--- ${oldName}  +++ ${newName}  (first difference at line ${d.at + 1}; ${d.oldLines.length} vs ${d.newLines.length} lines)`];
  for (let i = Math.max(0, d.at - context); i < d.at; i++) out.push(`    ${d.oldLines[i]}`);
  const tail = (lines: string[], mark: string) => {
    const part = lines.slice(d.at, d.at + shown);
    if (part.length === 0) out.push(`  ${mark} (end of log)`);
    for (const line of part) out.push(`  ${mark} ${line}`);
    if (lines.length > d.at + shown) out.push(`  ${mark} … ${lines.length - d.at - shown} more`);
  };
  tail(d.oldLines, '-');
  tail(d.newLines, '+');
  return out.join('\n');
}
