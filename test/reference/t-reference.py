#!/usr/bin/env python3
"""Reference values for test/unit/bench-stats.test.ts, computed independently
of tools/bench/stats.ts: the Student t tail is integrated numerically from
the t density (composite Simpson's rule on x = tan(theta)), not through the
incomplete beta continued fraction the tool uses. Pure Python 3, no scipy.

    python3 test/reference/t-reference.py
"""
import math


def t_upper_tail(t, df, panels=20000):
    """P(T > t) for t >= 0: integral of the t density from t to infinity."""
    log_c = math.lgamma((df + 1) / 2) - math.lgamma(df / 2) - 0.5 * math.log(df * math.pi)

    def integrand(theta):
        # density(tan(theta)) * d tan(theta)/d theta, finite up to pi/2 for df >= 1
        c = math.cos(theta)
        if c <= 0:
            return 0.0 if df > 1 else math.exp(log_c) * df  # df == 1: limit is 1/pi
        x = math.tan(theta)
        return math.exp(log_c - (df + 1) / 2 * math.log1p(x * x / df)) / (c * c)

    a, b = math.atan(t), math.pi / 2
    h = (b - a) / panels
    s = integrand(a) + integrand(b)
    for i in range(1, panels):
        s += integrand(a + i * h) * (4 if i % 2 else 2)
    return s * h / 3


def two_sided_p(t, df):
    return 2 * t_upper_tail(abs(t), df)


def quantile(p, df):
    """t with P(T <= t) = p, p > 0.5, by bisection on the integrated tail."""
    tail = 1 - p
    lo, hi = 0.0, 1.0
    while t_upper_tail(hi, df) > tail:
        lo, hi = hi, hi * 2
    for _ in range(60):
        mid = (lo + hi) / 2
        if t_upper_tail(mid, df) > tail:
            lo = mid
        else:
            hi = mid
    return (lo + hi) / 2


def welch(a, b):
    ma, mb = sum(a) / len(a), sum(b) / len(b)
    va = sum((x - ma) ** 2 for x in a) / (len(a) - 1) / len(a)
    vb = sum((x - mb) ** 2 for x in b) / (len(b) - 1) / len(b)
    se = math.sqrt(va + vb)
    t = (mb - ma) / se
    df = (va + vb) ** 2 / (va ** 2 / (len(a) - 1) + vb ** 2 / (len(b) - 1))
    return ma, mb, se, t, df, two_sided_p(t, df)


if __name__ == '__main__':
    print('closed-form checks of the integrator:')
    for t in (0.5, 2.0, 10.0):
        print(f'  df=1 t={t}: integrated {t_upper_tail(t, 1):.15g}  closed 1/2-atan(t)/pi {0.5 - math.atan(t) / math.pi:.15g}')
        print(f'  df=2 t={t}: integrated {t_upper_tail(t, 2):.15g}  closed {0.5 - t / (2 * math.sqrt(2 + t * t)):.15g}')
    print('two-sided p:')
    for t, df in ((2.0, 5), (1.0, 17.776), (3.5, 8.4), (0.3, 30), (6.0, 3), (2.5, 1.5)):
        print(f'  t={t} df={df}: {two_sided_p(t, df):.12g}')
    print('quantiles:')
    for p, df in ((0.975, 10), (0.995, 30), (0.9995, 5), (0.975, 17.776), (0.975, 4.3), (0.9995, 2.5)):
        print(f'  p={p} df={df}: {quantile(p, df):.12g}')
    print('Welch, sleep data (Student 1908, R datasets::sleep):')
    g1 = [0.7, -1.6, -0.2, -1.2, -0.1, 3.4, 3.7, 0.8, 0.0, 2.0]
    g2 = [1.9, 0.8, 1.1, 0.1, -0.1, 4.4, 5.5, 1.6, 4.6, 3.4]
    ma, mb, se, t, df, p = welch(g2, g1)  # R: t.test(extra ~ group): group1 - group2
    q = quantile(0.975, df)
    print(f'  t={t:.12g} df={df:.12g} p={p:.12g} ci=({mb - ma - q * se:.12g}, {mb - ma + q * se:.12g})')
    print('Welch, benchmark-like rates:')
    old = [1010.0, 985.0, 1003.0, 991.0, 1022.0, 978.0, 1001.0, 996.0]
    new = [1051.0, 1032.0, 1068.0, 1040.0, 1029.0, 1061.0]
    ma, mb, se, t, df, p = welch(old, new)
    acc = {a: quantile(1 - a / 2, df) * se / ma * 100 for a in (0.05, 0.01, 0.001)}
    print(f'  t={t:.12g} df={df:.12g} p={p:.12g} improvement={(mb - ma) / ma * 100:.12g}% accuracy={acc}')
