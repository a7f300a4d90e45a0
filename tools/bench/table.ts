// The table Node core reviewers know from compare.R / node-benchmark-compare,
// then the geometric mean and every significantly slower row.
import { ALPHAS, type Analysis, type Row } from './analyse.ts';
import { stars } from './stats.ts';

function percent(value: number): string {
  return Number.isNaN(value) ? 'NA' : `±${value.toFixed(2)}%`;
}

export function renderTable(rows: readonly Row[]): string {
  const header = ['', 'confidence', 'improvement', 'accuracy (*)', '(**)', '(***)'];
  const lines = rows.map((r) => [r.name, r.confidence, `${r.improvement.toFixed(2)} %`, ...r.accuracy.map(percent)]);
  const all = [header, ...lines];
  const widths = header.map((_, i) => Math.max(...all.map((l) => l[i].length)));
  return all.map((l) => l.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]) : cell.padStart(widths[i]))).join(' ')).join('\n');
}

function rowLine(r: Row): string {
  return `  ${r.name}  ${r.confidence.padEnd(3)} ${r.improvement.toFixed(2)} % ${percent(r.accuracy[0])}`;
}

export function renderSummary(analysis: Analysis): string {
  const { rows, geomean, slower, faster } = analysis;
  const n = rows.length;
  const out: string[] = [];
  out.push('Be aware that when doing many comparisons the risk of a false-positive result increases.');
  out.push(`In this case, there are ${n} comparisons, you can thus expect the following amount of false-positive results:`);
  const labels = ['  5% risk acceptance (*, **, ***)', '  1% risk acceptance (**, ***)', '0.1% risk acceptance (***)'];
  ALPHAS.forEach((alpha, i) => out.push(`  ${(n * alpha).toFixed(2)} false positives, when considering a ${labels[i]}`));
  out.push('');
  if (n > 0) {
    out.push(`geometric mean of new/old over ${n} rows: ${geomean.toFixed(4)} (${((geomean - 1) * 100).toFixed(2)} %)`);
  }
  out.push(`significantly faster (p < 0.05): ${faster.length} rows; significantly slower: ${slower.length} rows`);
  if (slower.length > 0) {
    out.push('SLOWER:');
    for (const r of slower) out.push(rowLine(r));
  }
  return out.join('\n');
}

export function renderReport(analysis: Analysis): string {
  return `${renderTable(analysis.rows)}\n\n${renderSummary(analysis)}\n`;
}

/**
 * The same rows paired by round (old and new of one round ran back to back):
 * the ratio of the rates run by run, its 95% interval and the paired test's
 * stars. Drift of the machine between rounds cancels in each pair. Not
 * compare.R's output: PR bodies carry the table above, this is for deciding
 * whether a change is worth it.
 */
export function renderPaired(analysis: Analysis): string {
  const rows = analysis.rows.filter((r) => r.paired);
  if (rows.length === 0) return 'paired by round: no row has two rounds\n';
  const header = ['paired by round', 'pairs', 'new/old', '95% interval', 'confidence'];
  const lines = rows.map((r) => {
    const p = r.paired!;
    return [r.name, String(p.pairs), `${p.ratio.toFixed(3)}x`, `${p.low.toFixed(3)}-${p.high.toFixed(3)}`, stars(p.p)];
  });
  const all = [header, ...lines];
  const widths = header.map((_, i) => Math.max(...all.map((l) => l[i].length)));
  const table = all.map((l) => l.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]) : cell.padStart(widths[i]))).join(' ')).join('\n');
  const geomean = Number.isNaN(analysis.pairedGeomean) ? '' :
    `\ngeometric mean of the paired ratios over ${rows.length} rows: ${analysis.pairedGeomean.toFixed(4)}`;
  return `${table}${geomean}\n`;
}
