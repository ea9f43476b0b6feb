"""Statistics for `make compare OLD=results/A NEW=results/B`.

Standard library only.  Every configuration is measured a handful of times
(typically 3 to 10 runs) on each side, so everything here is exact and
distribution-free rather than asymptotic:

* ``mann_whitney``: exact two-sided Mann-Whitney U (Wilcoxon rank-sum) test.
  The null distribution is the permutation distribution of the rank sum of
  sample ``a`` given the pooled (mid-)ranks, computed by dynamic programming.
* ``hodges_lehmann`` / ``relative_change``: the Hodges-Lehmann shift
  estimate with its exact distribution-free confidence interval, on raw or
  on log values (the latter reported as a relative change).
* ``holm`` / ``benjamini_hochberg``: corrections for testing many
  configurations at once.
* ``boot_spread``: the spread between boots of identical code.
* ``verdict``: combines the above into "better", "WORSE" or "~ noise".

Assumptions, and why ``verdict`` has two conditions.  The U test assumes the
runs of each side are independent draws (exchangeable under the null).  Runs
taken within one boot are not independent of that boot: the boot fixes
physical page placement, cache colouring, IRQ and CPU frequency behaviour,
and so on, and every run of that boot shares it.  Old and new are
usually measured in different boots, so the U test's p-value only speaks
to the within-boot (run-to-run) noise; a boot-to-boot offset alone can make
a tiny p-value.  That is why a change is only reported as significant if,
in addition, its confidence interval lies entirely outside the
between-boot spread measured from repeated boots of identical code
(``boot_spread``).
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from itertools import accumulate
from operator import add
from typing import Mapping, Sequence

# --------------------------------------------------------------------------
# Ranks and the exact null distribution of the rank sum
# --------------------------------------------------------------------------


def doubled_midranks(values: Sequence[float]) -> list[int]:
    """Twice the mid-ranks of ``values`` (1-based), in input order.

    Tied values share the mean of the ranks they occupy; a mid-rank is a
    multiple of 0.5, so twice it is an integer: a tie group occupying the
    sorted positions i+1 .. j gets the doubled rank (i+1) + j.
    """
    order = sorted(range(len(values)), key=lambda i: values[i])
    out = [0] * len(values)
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and values[order[j + 1]] == values[order[i]]:
            j += 1
        for t in range(i, j + 1):
            out[order[t]] = (i + 1) + (j + 1)
        i = j + 1
    return out


def _as_doubled(ranks: Sequence[float]) -> list[int]:
    """Doubles ranks that are multiples of 0.5, checking they are."""
    out = []
    for r in ranks:
        d = round(2 * r)
        if abs(2 * r - d) > 1e-9:
            raise ValueError(f"rank {r} is not a multiple of 0.5")
        out.append(d)
    return out


def mw_null_counts(n1: int, n2: int,
                   ranks: Sequence[float] | None = None) -> dict[int, int]:
    """Exact permutation distribution of the rank sum of a sample of size n1.

    ``ranks`` are the n1+n2 pooled (mid-)ranks, multiples of 0.5; ``None``
    means 1..n1+n2 (no ties).  Returns ``{2*S: count}``: for every possible
    doubled rank sum 2*S, the number of size-n1 subsets of the pooled ranks
    (as a multiset: tied ranks are distinct elements) with that sum.  The
    counts add up to C(n1+n2, n1); dividing by that gives the null
    distribution conditional on the observed tie pattern.

    Method: dynamic programming over the pooled ranks, the coefficients of
    prod_i (1 + x^{r_i} y), with ``dp[k][s]`` = number of subsets of the
    ranks seen so far with k elements and doubled sum s.  Ranks are doubled
    (so mid-ranks are integers) and divided by their common gcd (2 without
    ties) to keep the tables small.  Ranks are processed in ascending order
    so the reachable sums for k elements after i ranks are known in advance
    (between the sum of the k smallest and of the k largest seen), and each
    step adds one shifted slice of ``dp[k-1]`` onto ``dp[k]``.  Cost is
    about n * n1 * (width of the reachable window); n1 = n2 = 30 takes a few
    milliseconds.
    """
    n = n1 + n2
    if n1 < 0 or n2 < 0:
        raise ValueError("sample sizes must be >= 0")
    doubled = sorted(_as_doubled(ranks) if ranks is not None
                     else [2 * r for r in range(1, n + 1)])
    if len(doubled) != n:
        raise ValueError(f"need {n} ranks, got {len(doubled)}")
    g = math.gcd(*doubled) or 1
    r = [d // g for d in doubled]
    prefix = [0, *accumulate(r)]          # prefix[i] = sum of i smallest
    dp: list[list[int]] = [[1]] + [[0] * (prefix[n] + 1) for _ in range(n1)]
    for i, ri in enumerate(r, start=1):   # i ranks seen, ri the newest
        for k in range(min(i, n1), max(1, n1 - (n - i)) - 1, -1):
            lo = prefix[k - 1]                        # k-1 smallest of i-1
            hi = prefix[i - 1] - prefix[i - k]        # k-1 largest of i-1
            if lo > hi:
                continue
            src, dst = dp[k - 1], dp[k]
            dst[lo + ri:hi + ri + 1] = map(add, dst[lo + ri:hi + ri + 1],
                                           src[lo:hi + 1])
    return {s * g: c for s, c in enumerate(dp[n1]) if c}


def mann_whitney(a: Sequence[float], b: Sequence[float]) -> float:
    """Exact two-sided p-value of the Mann-Whitney U test of a against b.

    Ties get mid-ranks, and the null distribution is the exact conditional
    permutation distribution given those tied ranks (``mw_null_counts``).
    Two-sided p = P(|S - E[S]| >= |s_obs - E[S]|), S the rank sum of ``a``,
    E[S] = n1 (n1+n2+1) / 2.  Everything is compared in doubled integer
    ranks, so the comparison is exact.  Returns p in (0, 1].

    Assumes the values on each side are independent and identically
    distributed (exchangeable under the null).  Runs from one boot are not
    independent of that boot, so with old and new from different boots the
    p-value speaks only to within-boot noise; see ``verdict``.
    """
    n1, n2 = len(a), len(b)
    if n1 == 0 or n2 == 0:
        raise ValueError("both samples must be non-empty")
    ranks = doubled_midranks(list(a) + list(b))
    counts = mw_null_counts(n1, n2, [d / 2 for d in ranks])
    centre = n1 * (n1 + n2 + 1)                 # 2 * E[S]
    dev = abs(sum(ranks[:n1]) - centre)
    hits = sum(c for s, c in counts.items() if abs(s - centre) >= dev)
    return hits / math.comb(n1 + n2, n1)


def min_p(n1: int, n2: int) -> float:
    """Smallest two-sided p the exact U test can give without ties.

    Only the two extreme arrangements reach it: 2 / C(n1+n2, n1), capped
    at 1 (e.g. 0.1 for 3+3, 0.029 for 4+4, 0.0079 for 5+5).
    """
    return min(1.0, 2 / math.comb(n1 + n2, n1))


# --------------------------------------------------------------------------
# Hodges-Lehmann shift and its confidence interval
# --------------------------------------------------------------------------


@dataclass(frozen=True)
class ShiftEstimate:
    """A shift estimate with a confidence interval.

    ``achieved_conf`` is the exact coverage of [lo, hi] under the
    shift model; it is >= ``conf`` unless the samples are too small, in
    which case [lo, hi] is the full range and ``achieved_conf < conf``.
    """

    estimate: float
    lo: float
    hi: float
    achieved_conf: float
    conf: float

    @property
    def reached(self) -> bool:
        """True if the requested confidence level was reached."""
        return self.achieved_conf >= self.conf - 1e-12


def _u_cdf_counts(n1: int, n2: int) -> list[int]:
    """Cumulative counts of U = S - n1(n1+1)/2 without ties, U = 0..n1*n2."""
    counts = mw_null_counts(n1, n2)
    base = n1 * (n1 + 1)                          # 2 * min rank sum
    pmf = [0] * (n1 * n2 + 1)
    for s2, c in counts.items():
        pmf[(s2 - base) // 2] += c
    return list(accumulate(pmf))


def _median_sorted(xs: Sequence[float]) -> float:
    m = len(xs)
    return xs[m // 2] if m % 2 else (xs[m // 2 - 1] + xs[m // 2]) / 2


def hodges_lehmann(a: Sequence[float], b: Sequence[float],
                   conf: float = 0.95) -> ShiftEstimate:
    """Hodges-Lehmann estimate of the shift b - a with an exact CI.

    The estimate is the median of the n1*n2 pairwise differences
    b_j - a_i.  The CI is the standard distribution-free one obtained by
    inverting the Mann-Whitney test: with d_(1) <= ... <= d_(N) the sorted
    differences (N = n1*n2) and k the largest integer with
    P(U <= k-1) <= (1-conf)/2 under the exact null without ties, the CI is
    [d_(k), d_(N-k+1)], with coverage 1 - 2 P(U <= k-1).  If even k = 1
    does not satisfy the condition (too few runs), the full range
    [d_(1), d_(N)] is returned and ``achieved_conf`` (= 1 - 2/C(n1+n2, n1))
    is below ``conf``.

    Assumes a pure shift model: b is distributed as a + delta, runs
    independent.  Ties make the stated coverage approximate (conservative
    in practice).
    """
    n1, n2 = len(a), len(b)
    if n1 == 0 or n2 == 0:
        raise ValueError("both samples must be non-empty")
    if not 0 < conf < 1:
        raise ValueError("conf must be in (0, 1)")
    diffs = sorted(y - x for x in a for y in b)
    n_pairs = len(diffs)
    cum = _u_cdf_counts(n1, n2)
    total = cum[-1]
    tail = (1 - conf) / 2
    k = 0
    while k < len(cum) and cum[k] / total <= tail + 1e-12:
        k += 1                    # now cum[k-1] <= tail: k is admissible
    k = min(k, (n_pairs + 1) // 2)
    if k == 0:
        k = 1                     # cannot reach conf: full range
    achieved = 1 - 2 * cum[k - 1] / total
    return ShiftEstimate(_median_sorted(diffs), diffs[k - 1],
                         diffs[n_pairs - k], max(0.0, achieved), conf)


def relative_change(a: Sequence[float], b: Sequence[float],
                    conf: float = 0.95) -> ShiftEstimate:
    """Relative change from a to b: Hodges-Lehmann on log values.

    All values must be > 0.  The shift of log(b) against log(a) and its
    CI are mapped back with exp(x) - 1, so estimate, lo and hi are
    fractions (0.05 = +5 %).  Assumes a multiplicative shift model
    (b distributed as a * (1 + delta)), which suits throughputs and times.
    """
    if any(v <= 0 for v in (*a, *b)):
        raise ValueError("relative_change needs values > 0")
    hl = hodges_lehmann([math.log(v) for v in a], [math.log(v) for v in b],
                        conf)
    return ShiftEstimate(math.expm1(hl.estimate), math.expm1(hl.lo),
                         math.expm1(hl.hi), hl.achieved_conf, conf)


# --------------------------------------------------------------------------
# Multiple comparisons
# --------------------------------------------------------------------------


def holm(pvals: Sequence[float]) -> list[float]:
    """Holm-Bonferroni step-down adjusted p-values, in input order.

    With p_(1) <= ... <= p_(m): adj_(i) = max_{j<=i} min(1, (m-j+1) p_(j)).
    Controls the family-wise error rate under any dependence.
    """
    m = len(pvals)
    order = sorted(range(m), key=lambda i: pvals[i])
    out = [0.0] * m
    running = 0.0
    for j, i in enumerate(order):
        running = max(running, min(1.0, (m - j) * pvals[i]))
        out[i] = running
    return out


def benjamini_hochberg(pvals: Sequence[float]) -> list[float]:
    """Benjamini-Hochberg step-up adjusted q-values, in input order.

    With p_(1) <= ... <= p_(m): q_(i) = min_{j>=i} min(1, m p_(j) / j).
    Controls the false discovery rate for independent or positively
    dependent tests.
    """
    m = len(pvals)
    order = sorted(range(m), key=lambda i: pvals[i])
    out = [0.0] * m
    running = 1.0
    for j in range(m - 1, -1, -1):
        i = order[j]
        running = min(running, m * pvals[i] / (j + 1))
        out[i] = running
    return out


# --------------------------------------------------------------------------
# Verdict and between-boot spread
# --------------------------------------------------------------------------


def _pct(x: float) -> str:
    return f"{x * 100:.3g}%"


def change(a: Sequence[float], b: Sequence[float], conf: float = 0.95,
           scale: str = "relative") -> ShiftEstimate:
    """The change from a to b on a scale: "relative" (``relative_change``:
    fractions, for times and rates, values > 0) or "points"
    (``hodges_lehmann`` on the values themselves: for fractions, such as
    a drop fraction, whose change is read in points and may start at 0)."""
    if scale == "relative":
        return relative_change(a, b, conf)
    if scale == "points":
        return hodges_lehmann(a, b, conf)
    raise ValueError(f"scale {scale!r}: relative or points")


def fmt_change(x: float, scale: str = "relative") -> str:
    """A change or a spread on its scale: +12.3% or +0.045 (points)."""
    return f"{x:+.1%}" if scale == "relative" else f"{x:+.3f}"


def verdict(a: Sequence[float], b: Sequence[float], adj_p: float,
            boot_spread: float, alpha: float = 0.05,
            higher_is_better: bool = True, scale: str = "relative") -> tuple[str, str]:
    """Classifies the change from old runs ``a`` to new runs ``b``.

    Returns (label, reason), label one of "better", "WORSE", "~ noise".
    A change is significant only if both hold:

    1. ``adj_p < alpha``: the (multiple-comparison adjusted) U-test
       p-value rejects "no change".  This only rules out within-boot
       run-to-run noise, because runs of one boot are not independent of
       that boot.
    2. The whole (1 - alpha) confidence interval of the change on its
       scale (``change``: relative, or in points) lies outside
       [-boot_spread, +boot_spread], the spread between boots of identical
       code (``boot_spread``, on the same scale): the change must exceed
       what a reboot alone can produce.

    Otherwise the reason names the failed condition: too few runs to ever
    reach p < alpha, the adjusted p-value (q), or the CI inside the between-boot spread.
    """
    n1, n2 = len(a), len(b)
    if min_p(n1, n2) >= alpha:
        return "~ noise", f"n={n1}+{n2} cannot reach p<{alpha:g}"
    if not adj_p < alpha:
        return "~ noise", f"q={adj_p:.2g}"
    rc = change(a, b, 1 - alpha, scale)
    ci = f"CI {fmt_change(rc.lo, scale)}..{fmt_change(rc.hi, scale)}"
    spread = _pct(boot_spread) if scale == "relative" else f"{boot_spread:.3g} points"
    if -boot_spread <= rc.hi and rc.lo <= boot_spread:
        return "~ noise", (f"inside the +-{spread} between-boot "
                           f"spread ({ci})")
    up = rc.estimate > 0          # the whole CI is on this side
    label = "better" if up == higher_is_better else "WORSE"
    if boot_spread == 0:          # one boot (make bench-ab): no margin
        return label, f"q={adj_p:.2g}, {fmt_change(rc.estimate, scale)} ({ci})"
    return label, (f"q={adj_p:.2g}, {fmt_change(rc.estimate, scale)} ({ci}) beyond the "
                   f"+-{spread} between-boot spread")


def _quantile(xs: Sequence[float], q: float) -> float:
    """Linearly interpolated quantile (type 7, numpy's default)."""
    s = sorted(xs)
    if not s:
        raise ValueError("quantile of no values")
    pos = q * (len(s) - 1)
    i = math.floor(pos)
    if i + 1 >= len(s):
        return s[-1]
    return s[i] + (pos - i) * (s[i + 1] - s[i])


def boot_spread(groups_by_boot: Mapping[str, Sequence[Sequence[float]]],
                quantile: float = 0.95, scale: str = "relative") -> float:
    """Between-boot spread, on a scale, from repeated boots of one code.

    Input: config -> list of per-boot lists of run values, at least two
    boots for some config.  Estimator: for each config take the median of
    each boot's runs; for every pair of boots (i < j) of that config take
    the distance of the two medians -- |log(median_i / median_j)| on the
    relative scale (values > 0), |median_i - median_j| in points; pool
    these over all configs and pairs and return Q, their 95th percentile
    (linear interpolation) -- exp(Q) - 1, a fraction, on the relative
    scale.

    The per-boot median removes most run-to-run noise, so what remains is
    mostly the boot-to-boot offset; the log ratio makes it symmetric and
    scale-free, where the offset is multiplicative (times); points suit
    fractions near 0, whose ratios are meaningless; a high quantile rather
    than the maximum keeps one odd boot or config from dominating while
    still covering nearly all observed offsets.  Assumes the offset is of
    similar size across configs; with few boots the estimate is itself
    noisy (with B boots a config gives B(B-1)/2 dependent pairs).
    """
    dists: list[float] = []
    for boots in groups_by_boot.values():
        meds = [_median_sorted(sorted(v)) for v in boots if len(v) > 0]
        if scale == "relative":
            if any(m <= 0 for m in meds):
                raise ValueError("boot_spread needs values > 0")
            dists += [abs(math.log(meds[i] / meds[j]))
                      for i in range(len(meds)) for j in range(i + 1, len(meds))]
        else:
            dists += [abs(meds[i] - meds[j])
                      for i in range(len(meds)) for j in range(i + 1, len(meds))]
    if not dists:
        raise ValueError("boot_spread needs at least 2 boots of a config")
    q = _quantile(dists, quantile)
    return math.expm1(q) if scale == "relative" else q
