// An SVG of the improvement per benchmark row with its 95 % confidence
// interval (improvement ± accuracy), for PR bodies and the README. Green:
// significantly faster, red: significantly slower, grey: within noise.
import type { Row } from './analyse.ts';

const COLORS = { faster: '#1a7f37', slower: '#cf222e', noise: '#6e7781' };

function escapeXml(text: string): string {
  return text.replace(/[<>&"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** Tick positions every 1, 2 or 5 × 10^k covering [lo, hi]. */
export function ticks(lo: number, hi: number, target = 6): number[] {
  const span = hi - lo || 1;
  const raw = span / target;
  const magnitude = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((m) => m * magnitude).find((s) => s >= raw) ?? 10 * magnitude;
  const out: number[] = [];
  for (let v = Math.ceil(lo / step) * step; v <= hi + step * 1e-9; v += step) out.push(Math.abs(v) < step * 1e-9 ? 0 : v);
  return out;
}

export function renderChart(rows: readonly Row[], title: string, subtitle: string): string {
  const rowHeight = 18;
  const font = 11;
  const labelWidth = Math.max(200, Math.min(640, Math.max(0, ...rows.map((r) => r.name.length)) * font * 0.62 + 16));
  const plotWidth = 420;
  const valueWidth = 130;
  const top = 58;
  const width = Math.ceil(labelWidth + plotWidth + valueWidth);
  const height = top + rows.length * rowHeight + 40;

  const ci = (r: Row) => (Number.isNaN(r.accuracy[0]) ? 0 : r.accuracy[0]);
  let lo = Math.min(0, ...rows.map((r) => r.improvement - ci(r)));
  let hi = Math.max(0, ...rows.map((r) => r.improvement + ci(r)));
  const pad = (hi - lo) * 0.05 || 1;
  lo -= pad;
  hi += pad;
  const x = (v: number) => labelWidth + ((v - lo) / (hi - lo)) * plotWidth;

  const parts: string[] = [];
  parts.push(`<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="ui-monospace, Menlo, Consolas, monospace" font-size="${font}">`);
  parts.push(`<rect width="100%" height="100%" fill="#ffffff"/>`);
  parts.push(`<text x="8" y="18" font-size="14" font-weight="bold">${escapeXml(title)}</text>`);
  parts.push(`<text x="8" y="35" fill="#57606a">${escapeXml(subtitle)}</text>`);
  const axisBottom = top + rows.length * rowHeight;
  // Row stripes first, then the grid, then the data on top.
  rows.forEach((_, i) => {
    if (i % 2 === 1) parts.push(`<rect x="0" y="${top + i * rowHeight}" width="${width}" height="${rowHeight}" fill="#f6f8fa"/>`);
  });
  for (const t of ticks(lo, hi)) {
    parts.push(`<line x1="${x(t).toFixed(1)}" y1="${top - 4}" x2="${x(t).toFixed(1)}" y2="${axisBottom}" stroke="${t === 0 ? '#24292f' : '#d0d7de'}" stroke-width="${t === 0 ? 1.2 : 0.6}"/>`);
    parts.push(`<text x="${x(t).toFixed(1)}" y="${axisBottom + 14}" text-anchor="middle" fill="#57606a">${t > 0 ? '+' : ''}${Number(t.toPrecision(6))}%</text>`);
  }
  parts.push(`<text x="${(labelWidth + plotWidth / 2).toFixed(1)}" y="${axisBottom + 30}" text-anchor="middle" fill="#57606a">improvement of new over old (%), bar = 95% confidence interval</text>`);
  rows.forEach((r, i) => {
    const y = top + i * rowHeight + rowHeight / 2;
    const kind = r.p < 0.05 ? (r.improvement > 0 ? 'faster' : 'slower') : 'noise';
    const color = COLORS[kind];
    parts.push(`<text x="${labelWidth - 8}" y="${y + 4}" text-anchor="end">${escapeXml(r.name)}</text>`);
    const half = ci(r);
    parts.push(`<line x1="${x(r.improvement - half).toFixed(1)}" y1="${y}" x2="${x(r.improvement + half).toFixed(1)}" y2="${y}" stroke="${color}" stroke-width="2"/>`);
    parts.push(`<circle cx="${x(r.improvement).toFixed(1)}" cy="${y}" r="3.5" fill="${color}"><title>${escapeXml(`${r.name}: ${r.improvement.toFixed(2)} % ±${half.toFixed(2)}% (p=${r.p.toPrecision(3)})`)}</title></circle>`);
    const value = `${r.improvement >= 0 ? '+' : ''}${r.improvement.toFixed(2)}% ${r.confidence === 'NA' ? '' : r.confidence}`;
    parts.push(`<text x="${labelWidth + plotWidth + 8}" y="${y + 4}" fill="${color}">${escapeXml(value)}</text>`);
  });
  parts.push('</svg>');
  return `${parts.join('\n')}\n`;
}
