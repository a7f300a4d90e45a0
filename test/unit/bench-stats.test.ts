// The statistics of `make compare` against values computed independently.
// Sources of the reference values:
// - [py] test/reference/t-reference.py: the t tail integrated numerically
//   from the t density (Simpson's rule), bisection for quantiles; no code in
//   common with tools/bench/stats.ts. Run it to reproduce every [py] number.
// - [closed] closed forms: df = 1 (Cauchy) P(T > t) = 1/2 - atan(t)/pi;
//   df = 2: P(T > t) = 1/2 - t / (2 sqrt(2 + t^2)), quantile
//   t_p = (2p - 1) / sqrt(2p(1 - p)).
// - [table] printed t tables (e.g. any statistics textbook's appendix):
//   t(0.975, 10) = 2.228, t(0.995, 30) = 2.750, t(0.9995, 5) = 6.869.
// - [R] R's documented example `t.test(extra ~ group, data = sleep)`
//   (Student's sleep data): t = -1.8608, df = 17.776, p-value = 0.07939,
//   95 percent confidence interval -3.3654832 0.2054832; and with
//   paired = TRUE: t = -4.0621, df = 9, p-value = 0.002833, 95 percent
//   confidence interval -2.4598858 -0.7001142, mean difference -1.58.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  confidenceHalfWidth, geometricMean, logGamma, mean, pairedLogRatio, pairedTTest, regularizedBeta, stars,
  studentTCdf, studentTQuantile, studentTTwoSided, variance, welchTTest,
} from '../../tools/bench/stats.ts';

function close(actual: number, expected: number, relative: number, what: string): void {
  const error = Math.abs(actual - expected) / Math.max(Math.abs(expected), 1e-300);
  assert.ok(error <= relative, `${what}: got ${actual}, expected ${expected} (relative error ${error.toExponential(2)} > ${relative})`);
}

test('logGamma matches factorials and Γ(1/2) = √π', () => {
  assert.ok(Math.abs(logGamma(1)) < 1e-14 && Math.abs(logGamma(2)) < 1e-14);
  close(logGamma(11), Math.log(3628800), 1e-14, 'lnΓ(11) = ln 10!');
  close(logGamma(0.5), 0.5 * Math.log(Math.PI), 1e-14, 'lnΓ(1/2)');
  close(logGamma(171.5), 709.1431630309282, 1e-13, 'lnΓ(171.5)'); // [py] math.lgamma(171.5)
  assert.throws(() => logGamma(0), /x > 0/);
});

test('regularized incomplete beta: edges, symmetry and closed forms', () => {
  assert.equal(regularizedBeta(0, 2, 3), 0);
  assert.equal(regularizedBeta(1, 2, 3), 1);
  // I_x(1, 1) = x; I_x(a, 1) = x^a; I_x(1, b) = 1 - (1 - x)^b [closed]
  close(regularizedBeta(0.3, 1, 1), 0.3, 1e-14, 'I_0.3(1,1)');
  close(regularizedBeta(0.7, 4, 1), 0.7 ** 4, 1e-13, 'I_0.7(4,1)');
  close(regularizedBeta(0.2, 1, 3.5), 1 - 0.8 ** 3.5, 1e-13, 'I_0.2(1,3.5)');
  close(regularizedBeta(0.35, 2.5, 7) + regularizedBeta(0.65, 7, 2.5), 1, 1e-14, 'symmetry');
  assert.throws(() => regularizedBeta(1.5, 1, 1), /0 <= x <= 1/);
  assert.throws(() => regularizedBeta(0.5, 0, 1), /a, b > 0/);
});

test('Student t tails match closed forms for df 1 and 2 [closed]', () => {
  // The closed forms rearranged to avoid cancellation for large t:
  // 1/2 - atan(t)/pi = atan(1/t)/pi; 1/2 - t/(2 s) = 1/(s (s + t)) with s = sqrt(2 + t^2).
  const tail2 = (t: number) => {
    const s = Math.sqrt(2 + t * t);
    return 1 / (s * (s + t));
  };
  for (const t of [0.1, 0.5, 2, 10, 250]) {
    close(studentTTwoSided(t, 1), 2 * Math.atan(1 / t) / Math.PI, 1e-12, `df=1 t=${t}`);
    close(studentTTwoSided(t, 2), 2 * tail2(t), 1e-12, `df=2 t=${t}`);
    close(studentTCdf(-t, 2), tail2(t), 1e-12, `cdf df=2 t=-${t}`);
    close(studentTCdf(t, 2), 1 - tail2(t), 1e-12, `cdf df=2 t=${t}`);
  }
  for (const p of [0.6, 0.975, 0.995, 0.9995]) {
    close(studentTQuantile(p, 2), (2 * p - 1) / Math.sqrt(2 * p * (1 - p)), 1e-12, `quantile df=2 p=${p}`);
  }
  assert.equal(studentTTwoSided(0, 7), 1);
  assert.equal(studentTTwoSided(Infinity, 7), 0);
});

test('two-sided p-values, also for fractional df [py]', () => {
  const cases: Array<[t: number, df: number, p: number, tolerance: number]> = [
    [2.0, 5, 0.10193947883, 1e-9],
    [1.0, 17.776, 0.330729528726, 1e-9],
    [3.5, 8.4, 0.007483516273, 1e-9],
    [0.3, 30, 0.766246105284, 1e-9],
    [6.0, 3, 0.00927271489228, 1e-9],
    // df < 2: the integrand has a weak endpoint singularity, the reference is good to ~1e-7.
    [2.5, 1.5, 0.169806494993, 1e-6],
  ];
  for (const [t, df, p, tolerance] of cases) {
    close(studentTTwoSided(t, df), p, tolerance, `p(t=${t}, df=${df})`);
    close(studentTTwoSided(-t, df), p, tolerance, `p(t=-${t}, df=${df})`);
  }
});

test('t quantiles [py] agree with printed tables [table]', () => {
  const cases: Array<[p: number, df: number, t: number, printed?: number]> = [
    [0.975, 10, 2.22813885199, 2.228],
    [0.995, 30, 2.74999565357, 2.750],
    [0.9995, 5, 6.86882662588, 6.869],
    [0.975, 17.776, 2.10282131038],
    [0.975, 4.3, 2.70169489828],
    [0.9995, 2.5, 18.2778935281],
  ];
  for (const [p, df, t, printed] of cases) {
    close(studentTQuantile(p, df), t, 1e-9, `t(${p}, ${df})`);
    close(studentTQuantile(1 - p, df), -t, 1e-9, `t(${1 - p}, ${df})`);
    if (printed !== undefined) assert.equal(studentTQuantile(p, df).toFixed(3), printed.toFixed(3));
  }
  assert.throws(() => studentTQuantile(1, 3), /0 < p < 1/);
});

test("Welch's test on Student's sleep data reproduces R's t.test [R] [py]", () => {
  const group1 = [0.7, -1.6, -0.2, -1.2, -0.1, 3.4, 3.7, 0.8, 0.0, 2.0];
  const group2 = [1.9, 0.8, 1.1, 0.1, -0.1, 4.4, 5.5, 1.6, 4.6, 3.4];
  // R reports mean(group1) - mean(group2); welchTTest(a, b) is mean(b) - mean(a).
  const r = welchTTest(group2, group1);
  assert.equal(r.t.toFixed(4), '-1.8608');
  assert.equal(r.df.toFixed(3), '17.776');
  assert.equal(r.p.toFixed(5), '0.07939');
  close(r.t, -1.86081346749, 1e-10, 't');
  close(r.df, 17.7764735162, 1e-10, 'df');
  close(r.p, 0.0793941401874, 1e-9, 'p');
  const half = confidenceHalfWidth(r, 0.05);
  close(r.difference - half, -3.3654832, 1e-7, 'lower 95% bound');
  close(r.difference + half, 0.2054832, 1e-6, 'upper 95% bound');
});

test('benchmark-like rates: p, improvement and accuracy as compare.R reports them [py]', () => {
  const old = [1010, 985, 1003, 991, 1022, 978, 1001, 996];
  const fresh = [1051, 1032, 1068, 1040, 1029, 1061];
  const r = welchTTest(old, fresh);
  close(r.t, 5.96858807435, 1e-10, 't');
  close(r.df, 10.1181190458, 1e-10, 'df');
  close(r.p, 0.000131359261531, 1e-8, 'p');
  assert.equal(stars(r.p), '***');
  close((mean(fresh) - mean(old)) / mean(old) * 100, 4.8668503214, 1e-10, 'improvement %');
  // accuracy = half-width of the (1 - alpha) interval as % of the old mean
  const accuracy = (alpha: number) => confidenceHalfWidth(r, alpha) / mean(old) * 100;
  close(accuracy(0.05), 1.8139772931933744, 1e-9, 'accuracy (*)');
  close(accuracy(0.01), 2.5775142440415224, 1e-9, 'accuracy (**)');
  close(accuracy(0.001), 3.724150861215028, 1e-9, 'accuracy (***)');
});

test('stars, degenerate samples and bad input', () => {
  assert.deepEqual([0.0009, 0.001, 0.0099, 0.01, 0.049, 0.05, 0.5].map(stars), ['***', '**', '**', '*', '*', '', '']);
  assert.equal(stars(NaN), 'NA');
  const same = welchTTest([5, 5, 5], [5, 5]);
  assert.equal(same.p, 1);
  assert.equal(confidenceHalfWidth(same, 0.05), 0);
  assert.equal(welchTTest([5, 5], [6, 6]).p, 0);
  assert.throws(() => welchTTest([1], [1, 2]), /two values per sample/);
  assert.throws(() => variance([1]), /at least two/);
  close(variance([2, 4, 4, 4, 5, 5, 7, 9]), 32 / 7, 1e-15, 'sample variance');
  close(geometricMean([1, 4, 16]), 4, 1e-15, 'geometric mean');
  assert.throws(() => geometricMean([1, 0]), /positive/);
});

test("the paired t-test on Student's sleep data reproduces R's t.test(paired = TRUE) [R]", () => {
  const group1 = [0.7, -1.6, -0.2, -1.2, -0.1, 3.4, 3.7, 0.8, 0.0, 2.0];
  const group2 = [1.9, 0.8, 1.1, 0.1, -0.1, 4.4, 5.5, 1.6, 4.6, 3.4];
  // R reports group1 - group2; pairedTTest(a, b) is b - a.
  const r = pairedTTest(group2, group1);
  close(r.mean, -1.58, 1e-12, 'mean difference');
  assert.equal(r.t.toFixed(4), '-4.0621');
  assert.equal(r.df, 9);
  assert.equal(r.p.toFixed(6), '0.002833');
  close(r.low, -2.4598858, 1e-7, 'lower 95% bound');
  close(r.high, -0.7001142, 1e-6, 'upper 95% bound');
});

test('paired log ratios: drift between rounds cancels, pairs are taken in order, bad input is refused', () => {
  // Each round runs 5% faster on the new side, while the machine's speed
  // drifts by 2x from round to round: the unpaired test sees only noise.
  const speed = [1, 0.5, 1.8, 0.7, 1.2, 0.55, 2, 0.9];
  const jitter = [1.01, 0.99, 1.0, 1.02, 0.98, 1.0, 1.01, 0.99];
  const old = speed.map((s) => 1000 * s);
  const fresh = speed.map((s, i) => 1050 * s * jitter[i]);
  assert.ok(welchTTest(old, fresh).p > 0.5);
  const r = pairedLogRatio(old, fresh);
  assert.equal(r.pairs, 8);
  close(r.ratio, 1.05 * Math.exp(jitter.map(Math.log).reduce((x, y) => x + y) / 8), 1e-12, 'ratio');
  assert.ok(r.low > 1.03 && r.high < 1.07 && r.p < 0.001, JSON.stringify(r));
  // The same rates with the pairs broken (new reversed) are noise again.
  assert.ok(pairedLogRatio(old, [...fresh].reverse()).p > 0.05);
  // An unfinished last round: the extra sample has no partner and is left out.
  assert.equal(pairedLogRatio([...old, 5], fresh).pairs, 8);
  assert.throws(() => pairedLogRatio([1], [2]), /two pairs/);
  assert.throws(() => pairedLogRatio([1, 0], [2, 3]), /positive rates/);
  const same = pairedLogRatio([2, 4, 8], [2, 4, 8]);
  assert.deepEqual([same.ratio, same.p], [1, 1]);
});
