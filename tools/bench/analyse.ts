// Samples -> one compared row per benchmark configuration, the way
// benchmark/compare.R computes it: improvement of the means, Welch's t-test,
// and the accuracy (half-width of the confidence interval of the
// difference, as a percentage of the old mean) at 95 %, 99 % and 99.9 %.
import type { Sample } from './csv.ts';
import { confidenceHalfWidth, geometricMean, mean, pairedLogRatio, stars, welchTTest, type PairedResult } from './stats.ts';

export const ALPHAS = [0.05, 0.01, 0.001] as const;

export interface Row {
  filename: string;
  configuration: string;
  /** `filename configuration`, the row's label in the table. */
  name: string;
  old: number[];
  new: number[];
  oldMean: number;
  newMean: number;
  /** mean(new) / mean(old) */
  ratio: number;
  /** (mean(new) - mean(old)) / mean(old) * 100 */
  improvement: number;
  /** Two-sided p-value; NaN with fewer than two samples a side. */
  p: number;
  confidence: string;
  /** Accuracy in % of the old mean, for each of ALPHAS; NaN when not computable. */
  accuracy: number[];
  /**
   * The old and new samples paired in run order (analyse() only: the k-th
   * of each side ran in the same round of an interleaved comparison); unset
   * with fewer than two pairs.
   */
  paired?: PairedResult;
}

export interface Analysis {
  rows: Row[];
  /** Geometric mean of new/old over all rows. */
  geomean: number;
  /** Geometric mean of the rows' paired ratios (NaN when a row has none). */
  pairedGeomean: number;
  /** Rows whose slowdown is significant (p < 0.05). */
  slower: Row[];
  faster: Row[];
}

export function compareRow(filename: string, configuration: string, oldRates: number[], newRates: number[]): Row {
  const oldMean = mean(oldRates);
  const newMean = mean(newRates);
  let p = NaN;
  let accuracy = ALPHAS.map(() => NaN);
  if (oldRates.length > 1 && newRates.length > 1) {
    const w = welchTTest(oldRates, newRates);
    p = w.p;
    accuracy = ALPHAS.map((alpha) => (confidenceHalfWidth(w, alpha) / oldMean) * 100);
  }
  return {
    filename,
    configuration,
    name: configuration ? `${filename} ${configuration}` : filename,
    old: oldRates,
    new: newRates,
    oldMean,
    newMean,
    ratio: newMean / oldMean,
    improvement: ((newMean - oldMean) / oldMean) * 100,
    p,
    confidence: stars(p),
    accuracy,
  };
}

/** Rows in the order their benchmark configuration first appears. */
export function analyse(samples: readonly Sample[]): Analysis {
  const groups = new Map<string, { filename: string; configuration: string; old: number[]; new: number[] }>();
  for (const s of samples) {
    const key = `${s.filename}\0${s.configuration}`;
    let g = groups.get(key);
    if (!g) groups.set(key, (g = { filename: s.filename, configuration: s.configuration, old: [], new: [] }));
    g[s.binary].push(s.rate);
  }
  const rows: Row[] = [];
  for (const g of groups.values()) {
    if (g.old.length === 0 || g.new.length === 0) continue; // an interrupted run's last configuration
    const row = compareRow(g.filename, g.configuration, g.old, g.new);
    if (g.old.length > 1 && g.new.length > 1) row.paired = pairedLogRatio(g.old, g.new);
    rows.push(row);
  }
  const significant = rows.filter((r) => r.p < 0.05);
  return {
    rows,
    geomean: geometricMean(rows.map((r) => r.ratio)),
    pairedGeomean: rows.every((r) => r.paired) ? geometricMean(rows.map((r) => r.paired!.ratio)) : NaN,
    slower: significant.filter((r) => r.improvement < 0),
    faster: significant.filter((r) => r.improvement > 0),
  };
}
