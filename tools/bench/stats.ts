// Welch's two-sample t-test and its confidence interval, the statistics of
// Node's benchmark/compare.R (R's t.test(rate ~ binary), var.equal = FALSE).
// The Student t distribution is computed here from the regularized
// incomplete beta function, so no statistics dependency is needed.

export function mean(xs: readonly number[]): number {
  if (xs.length === 0) throw new Error('mean of no values');
  let sum = 0;
  for (const x of xs) sum += x;
  return sum / xs.length;
}

/** Sample variance (divides by n - 1). */
export function variance(xs: readonly number[]): number {
  if (xs.length < 2) throw new Error('variance needs at least two values');
  const m = mean(xs);
  let sum = 0;
  for (const x of xs) sum += (x - m) ** 2;
  return sum / (xs.length - 1);
}

// Lanczos approximation (g = 7, nine coefficients), relative error ~1e-15.
const LANCZOS = [
  0.99999999999980993, 676.5203681218851, -1259.1392167224028, 771.32342877765313,
  -176.61502916214059, 12.507343278686905, -0.13857109526572012, 9.9843695780195716e-6,
  1.5056327351493116e-7,
];

/** ln Γ(x) for x > 0. */
export function logGamma(x: number): number {
  if (!(x > 0)) throw new RangeError(`logGamma needs x > 0, got ${x}`);
  if (x < 0.5) {
    // Reflection keeps the series in its accurate range.
    return Math.log(Math.PI / Math.sin(Math.PI * x)) - logGamma(1 - x);
  }
  const z = x - 1;
  let sum = LANCZOS[0];
  for (let i = 1; i < LANCZOS.length; i++) sum += LANCZOS[i] / (z + i);
  const t = z + 7.5;
  return 0.5 * Math.log(2 * Math.PI) + (z + 0.5) * Math.log(t) - t + Math.log(sum);
}

// Continued fraction for I_x(a, b) (modified Lentz), converging fast for
// x < (a + 1) / (a + b + 2).
function betaContinuedFraction(x: number, a: number, b: number): number {
  const TINY = 1e-300;
  const EPS = 1e-16;
  let c = 1;
  let d = 1 - ((a + b) * x) / (a + 1);
  if (Math.abs(d) < TINY) d = TINY;
  d = 1 / d;
  let h = d;
  for (let m = 1; m <= 10000; m++) {
    const m2 = 2 * m;
    // Even step.
    let num = (m * (b - m) * x) / ((a + m2 - 1) * (a + m2));
    d = 1 + num * d;
    if (Math.abs(d) < TINY) d = TINY;
    c = 1 + num / c;
    if (Math.abs(c) < TINY) c = TINY;
    d = 1 / d;
    h *= d * c;
    // Odd step.
    num = (-(a + m) * (a + b + m) * x) / ((a + m2) * (a + m2 + 1));
    d = 1 + num * d;
    if (Math.abs(d) < TINY) d = TINY;
    c = 1 + num / c;
    if (Math.abs(c) < TINY) c = TINY;
    d = 1 / d;
    const delta = d * c;
    h *= delta;
    if (Math.abs(delta - 1) < EPS) return h;
  }
  throw new Error(`incomplete beta did not converge (x=${x}, a=${a}, b=${b})`);
}

/** The regularized incomplete beta function I_x(a, b). */
export function regularizedBeta(x: number, a: number, b: number): number {
  if (!(a > 0 && b > 0)) throw new RangeError(`regularizedBeta needs a, b > 0, got ${a}, ${b}`);
  if (!(x >= 0 && x <= 1)) throw new RangeError(`regularizedBeta needs 0 <= x <= 1, got ${x}`);
  if (x === 0) return 0;
  if (x === 1) return 1;
  const logFront = logGamma(a + b) - logGamma(a) - logGamma(b) + a * Math.log(x) + b * Math.log1p(-x);
  // Use the symmetry I_x(a, b) = 1 - I_{1-x}(b, a) where the fraction converges faster.
  if (x < (a + 1) / (a + b + 2)) return (Math.exp(logFront) * betaContinuedFraction(x, a, b)) / a;
  return 1 - (Math.exp(logFront) * betaContinuedFraction(1 - x, b, a)) / b;
}

/** P(|T| >= |t|) for Student's t with df degrees of freedom (df may be fractional). */
export function studentTTwoSided(t: number, df: number): number {
  if (!(df > 0)) throw new RangeError(`degrees of freedom must be > 0, got ${df}`);
  if (!Number.isFinite(t)) return Number.isNaN(t) ? NaN : 0;
  return regularizedBeta(df / (df + t * t), df / 2, 0.5);
}

/** P(T <= t). */
export function studentTCdf(t: number, df: number): number {
  const tail = studentTTwoSided(t, df) / 2;
  return t >= 0 ? 1 - tail : tail;
}

/** The t with P(T <= t) = p. */
export function studentTQuantile(p: number, df: number): number {
  if (!(p > 0 && p < 1)) throw new RangeError(`quantile needs 0 < p < 1, got ${p}`);
  if (!(df > 0)) throw new RangeError(`degrees of freedom must be > 0, got ${df}`);
  if (p === 0.5) return 0;
  // Solve in the upper half; the distribution is symmetric. Work with the
  // upper tail probability so p close to 1 keeps its precision.
  const upper = p > 0.5;
  const tail = upper ? 1 - p : p;
  const tailAt = (t: number) => studentTTwoSided(t, df) / 2;
  let lo = 0;
  let hi = 1;
  while (tailAt(hi) > tail) {
    lo = hi;
    hi *= 2;
    if (hi > 1e300) throw new Error(`t quantile out of range (p=${p}, df=${df})`);
  }
  // Bisection to full double precision: monotone, robust for any df.
  for (let i = 0; i < 2000 && hi - lo > 1e-15 * hi; i++) {
    const mid = (lo + hi) / 2;
    if (tailAt(mid) > tail) lo = mid;
    else hi = mid;
  }
  const t = (lo + hi) / 2;
  return upper ? t : -t;
}

export interface WelchResult {
  /** mean(b) - mean(a) */
  difference: number;
  /** Standard error of the difference. */
  standardError: number;
  t: number;
  /** Welch–Satterthwaite degrees of freedom. */
  df: number;
  /** Two-sided p-value. */
  p: number;
}

/** Welch's unequal-variances t-test of mean(b) - mean(a). */
export function welchTTest(a: readonly number[], b: readonly number[]): WelchResult {
  if (a.length < 2 || b.length < 2) throw new Error(`Welch's t-test needs two values per sample (got ${a.length} and ${b.length})`);
  const va = variance(a) / a.length;
  const vb = variance(b) / b.length;
  const difference = mean(b) - mean(a);
  const standardError = Math.sqrt(va + vb);
  if (standardError === 0) {
    // Both samples constant: R refuses ("data are essentially constant");
    // report the obvious answer instead of dividing by zero.
    return { difference, standardError, t: difference === 0 ? 0 : Math.sign(difference) * Infinity, df: a.length + b.length - 2, p: difference === 0 ? 1 : 0 };
  }
  const t = difference / standardError;
  const df = (va + vb) ** 2 / (va ** 2 / (a.length - 1) + vb ** 2 / (b.length - 1));
  return { difference, standardError, t, df, p: studentTTwoSided(t, df) };
}

/** Half-width of the (1 - alpha) confidence interval of the difference, as R's t.test reports it. */
export function confidenceHalfWidth(result: WelchResult, alpha: number): number {
  if (!(alpha > 0 && alpha < 1)) throw new RangeError(`alpha must be in (0, 1), got ${alpha}`);
  if (result.standardError === 0) return 0;
  return studentTQuantile(1 - alpha / 2, result.df) * result.standardError;
}

/** compare.R's stars: *** p < 0.001, ** p < 0.01, * p < 0.05. */
export function stars(p: number): string {
  if (Number.isNaN(p)) return 'NA';
  if (p < 0.001) return '***';
  if (p < 0.01) return '**';
  if (p < 0.05) return '*';
  return '';
}

/** exp(mean(ln x)). */
export function geometricMean(xs: readonly number[]): number {
  if (xs.length === 0) return NaN;
  let sum = 0;
  for (const x of xs) {
    if (!(x > 0)) throw new RangeError(`geometric mean needs positive values, got ${x}`);
    sum += Math.log(x);
  }
  return Math.exp(sum / xs.length);
}

export interface PairedResult {
  /** Pairs used: the shorter sample's length. */
  pairs: number;
  /** exp(mean of ln(b[i] / a[i])): how much b's rate is of a's, run by run. */
  ratio: number;
  /** The (1 - alpha) confidence interval of that ratio. */
  low: number;
  high: number;
  t: number;
  df: number;
  /** Two-sided p-value of the paired t-test on the log ratios. */
  p: number;
}

/**
 * Student's paired t-test (R's t.test(x, y, paired = TRUE)) of the
 * differences d[i] = b[i] - a[i]: their mean, its (1 - alpha) interval, p.
 */
export function pairedTTest(a: readonly number[], b: readonly number[], alpha = 0.05): { mean: number; low: number; high: number; t: number; df: number; p: number } {
  const n = Math.min(a.length, b.length);
  if (n < 2) throw new Error(`a paired t-test needs two pairs (got ${n})`);
  const d = Array.from({ length: n }, (_, i) => b[i] - a[i]);
  const m = mean(d);
  const se = Math.sqrt(variance(d) / n);
  const df = n - 1;
  if (se === 0) return { mean: m, low: m, high: m, t: m === 0 ? 0 : Math.sign(m) * Infinity, df, p: m === 0 ? 1 : 0 };
  const half = studentTQuantile(1 - alpha / 2, df) * se;
  return { mean: m, low: m - half, high: m + half, t: m / se, df, p: studentTTwoSided(m / se, df) };
}

/**
 * The ratio of b's rates to a's where a[i] and b[i] ran back to back (one
 * round of an interleaved comparison): a paired t-test on ln(b[i] / a[i]).
 * Drift of the machine between rounds, which the unpaired test counts as
 * noise, cancels in each pair.
 */
export function pairedLogRatio(a: readonly number[], b: readonly number[], alpha = 0.05): PairedResult {
  const n = Math.min(a.length, b.length);
  for (const x of [...a.slice(0, n), ...b.slice(0, n)]) {
    if (!(x > 0)) throw new RangeError(`a log ratio needs positive rates, got ${x}`);
  }
  const r = pairedTTest(a.slice(0, n).map(Math.log), b.slice(0, n).map(Math.log), alpha);
  return { pairs: n, ratio: Math.exp(r.mean), low: Math.exp(r.low), high: Math.exp(r.high), t: r.t, df: r.df, p: r.p };
}
