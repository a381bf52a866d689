# Reference MDEs for small limits (minimum-detectable-change.test.ts, "to significant digits"): STATS.md's
# power sum written independently with scipy's binom, the MDE by bisection (60 halvings).
#   K ~ Bin(n, psi(d)) discordant pairs, X ~ Bin(K, theta), theta = (psi + d) / (2 psi); the exact
#   two-sided McNemar test rejects when min(X, K - X) <= c_K, c_K the largest c with 2 P(Bin(K, 1/2) <= c) <= alpha.
#   psi(d) = psi^ + d (slope 1, a target whose seeds disagree both ways) or max(psi^, d) (slope 0).
#   With psi^ = 0 and slope 0 the power is P(Bin(n, d) >= k*), the one-way model.
# Run: python3 small-limits.gen.py   (scipy 1.17.1, about 30 s). Its output, pasted into the test:
#   n=20000 psi^=0.002 slope=1: MDE = 0.00114047901
#   n=40000 psi^=0.000375 slope=1: MDE = 0.000406152288
#   n=6000 psi^=0 slope=0: MDE = 0.00131734642
#   n=512 psi^=0 slope=0: MDE = 0.0153975721
#   n=12921 psi^=0.002 slope=1: MDE = 0.00149994013
import numpy as np
from scipy.stats import binom

ALPHA, POWER = 0.05, 0.8
_ck = {}


def ck(k):
    if k not in _ck:
        c = -1
        for cc in range(0, (k + 1) // 2):
            if min(1.0, 2 * binom.cdf(cc, k, 0.5)) <= ALPHA:
                c = cc
            else:
                break
        _ck[k] = c
    return _ck[k]


def power(n, d, psi):
    th = (psi + d) / (2 * psi)
    sd = np.sqrt(n * psi)
    tot = 0.0
    for k in range(max(0, int(n * psi - 12 * sd - 20)), min(n, int(n * psi + 12 * sd + 20)) + 1):
        c = ck(k)
        if c < 0:
            continue
        tot += binom.pmf(k, n, psi) * (binom.cdf(c, k, th) + binom.cdf(c, k, 1 - th))
    return tot


def mde(n, psi_hat, slope):
    psi_of = (lambda d: min(1.0, psi_hat + d)) if slope == 1 else (lambda d: max(psi_hat, d))
    lo, hi = 0.0, 0.05
    for _ in range(60):
        mid = (lo + hi) / 2
        if power(n, mid, psi_of(mid)) >= POWER:
            hi = mid
        else:
            lo = mid
    return hi


for n, psi_hat, slope in [(20000, 0.002, 1), (40000, 15 / 40000, 1), (6000, 0.0, 0), (512, 0.0, 0), (12921, 0.002, 1)]:
    print(f"n={n} psi^={psi_hat:.9g} slope={slope}: MDE = {mde(n, psi_hat, slope):.9g}")
