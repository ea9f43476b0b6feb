#!/usr/bin/env python3
"""Unit tests of bench-user/report/stats.py (make compare's statistics).

Run: python3 tests/host/test_stats.py
Prints one line per failing check, then "N passed, M failed"; exits 1 on
any failure.  Reference values come from brute-force enumeration
(itertools.combinations) or are computed by hand in the comments.
"""
from __future__ import annotations

import itertools
import math
import random
import statistics
import sys
import time
import traceback
from pathlib import Path
from typing import Callable, Sequence

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench-user" / "report"))
import stats  # noqa: E402


class Checks:
    """Counts checks; prints a line for each failing one."""

    def __init__(self) -> None:
        self.passed = 0
        self.failed = 0
        self.test = ""

    def ok(self, cond: bool, what: str) -> None:
        if cond:
            self.passed += 1
        else:
            self.failed += 1
            print(f"FAIL {self.test}: {what}")

    def close(self, got: float, want: float, what: str, tol: float = 1e-12) -> None:
        self.ok(abs(got - want) <= tol, f"{what}: got {got!r}, want {want!r} (tol {tol})")


# ---------------------------------------------------------------- references


def midranks(xs: Sequence[float]) -> list[float]:
    """Mid-ranks by the definition: mean of the 1-based positions of equal values."""
    s = sorted(xs)
    return [statistics.mean(i + 1 for i, v in enumerate(s) if v == x) for x in xs]


def brute_counts(n1: int, ranks: Sequence[float]) -> dict[int, int]:
    """{2*sum: count} over all size-n1 index subsets of ranks."""
    out: dict[int, int] = {}
    for c in itertools.combinations(range(len(ranks)), n1):
        s = round(2 * sum(ranks[i] for i in c))
        out[s] = out.get(s, 0) + 1
    return out


def brute_p(a: Sequence[float], b: Sequence[float]) -> float:
    """Two-sided exact U-test p by enumerating all assignments."""
    r = midranks(list(a) + list(b))
    n1, n = len(a), len(a) + len(b)
    mean = n1 * (n + 1) / 2
    obs = abs(sum(r[:n1]) - mean)
    combos = list(itertools.combinations(range(n), n1))
    hits = sum(abs(sum(r[i] for i in c) - mean) >= obs - 1e-9 for c in combos)
    return hits / len(combos)


def brute_hl(a: Sequence[float], b: Sequence[float], conf: float) -> tuple[float, float, float, float]:
    """HL estimate and CI with k from an enumerated U distribution."""
    n1, n2 = len(a), len(b)
    n = n1 + n2
    u = [sum(c) - n1 * (n1 + 1) // 2 for c in itertools.combinations(range(1, n + 1), n1)]
    total = len(u)
    tail = (1 - conf) / 2
    k = max([k for k in range(1, n1 * n2 + 1)
             if sum(x <= k - 1 for x in u) / total <= tail + 1e-12], default=0)
    achieved = 1 - 2 * sum(x <= max(k, 1) - 1 for x in u) / total
    k = max(k, 1)
    d = sorted(y - x for x in a for y in b)
    return statistics.median(d), d[k - 1], d[len(d) - k], achieved


# --------------------------------------------------------------------- tests


def test_dp_matches_enumeration(t: Checks) -> None:
    rng = random.Random(1)
    for case in range(40):
        n1, n2 = rng.randint(1, 6), rng.randint(1, 6)
        ties = case % 2 == 1
        draw = (lambda: float(rng.randint(1, 4))) if ties else rng.random
        a = [draw() for _ in range(n1)]
        b = [draw() for _ in range(n2)]
        t.close(stats.mann_whitney(a, b), brute_p(a, b), f"p({a}, {b})")
        r = midranks(a + b)
        t.ok(stats.mw_null_counts(n1, n2, r) == brute_counts(n1, r),
             f"null counts {n1}+{n2} ranks {r}")
    t.ok(stats.mw_null_counts(2, 2) == {6: 1, 8: 1, 10: 2, 12: 1, 14: 1},
         "no-ties counts 2+2 (sums 3,4,5,5,6,7)")


def test_known_p(t: Checks) -> None:
    t.ok(stats.mann_whitney([1, 2, 3], [4, 5, 6]) == 0.1, "1,2,3 vs 4,5,6: p = 2/20 = 0.1 exactly")
    t.ok(stats.mann_whitney([6, 5, 4], [3, 2, 1]) == 0.1, "reversed: p = 0.1 exactly")
    t.ok(stats.mann_whitney([1, 2, 3], [1, 2, 3]) == 1.0, "identical samples: p = 1")
    t.ok(stats.mann_whitney([7, 7, 7], [7, 7]) == 1.0, "all tied: p = 1")
    # Ties: pooled 1,1,2,2,3,3 -> mid-ranks 1.5,1.5,3.5,3.5,5.5,5.5; S_a = 6.5,
    # E = 10.5, |dev| = 4.  Subsets reaching |dev| >= 4: {1.5,1.5,3.5} (2 ways)
    # and {3.5,5.5,5.5} (2 ways) -> 4/20.  Ordinal ranks would give 0.1.
    t.ok(stats.mann_whitney([1, 1, 2], [2, 3, 3]) == 0.2, "tied example: p = 4/20 = 0.2 (not 0.1)")
    p = stats.mann_whitney([1.0, 2.0], [3.0])
    t.ok(0 < p <= 1, f"p in (0, 1]: {p}")


def test_min_p(t: Checks) -> None:
    t.ok(stats.min_p(3, 3) == 0.1, "min_p(3,3) = 0.1")
    t.close(stats.min_p(4, 4), 2 / 70, "min_p(4,4)")
    t.close(stats.min_p(5, 5), 2 / 252, "min_p(5,5)")
    t.ok(stats.min_p(1, 1) == 1.0, "min_p(1,1) capped at 1")
    t.close(stats.mann_whitney([1, 2, 3, 4], [5, 6, 7, 8]), stats.min_p(4, 4),
            "separated 4+4 reaches min_p")


def test_speed(t: Checks) -> None:
    rng = random.Random(2)
    a = [rng.random() for _ in range(30)]
    b = [rng.random() + 0.3 for _ in range(30)]
    start = time.perf_counter()
    p = stats.mann_whitney(a, b)
    pt = stats.mann_whitney([round(x, 1) for x in a], [round(x, 1) for x in b])
    took = time.perf_counter() - start
    t.ok(took < 1.0, f"30+30 twice (no ties, ties) took {took:.3f} s (limit 1 s)")
    t.ok(0 < p < 1e-3 and 0 < pt < 1e-3, f"30+30 shifted by 0.3: p={p}, tied p={pt}")
    counts = stats.mw_null_counts(30, 30)
    t.ok(sum(counts.values()) == math.comb(60, 30), "30+30 counts sum to C(60,30)")
    centre = 30 * 61
    t.ok(all(counts.get(2 * centre - s) == c for s, c in counts.items()),
         "30+30 null distribution symmetric about E[2S]")


def test_hodges_lehmann(t: Checks) -> None:
    # 5+5: P(U<=2) = 4/252 <= 0.025 < P(U<=3) = 7/252, so k = 3 and the 95 % CI
    # is [d_(3), d_(23)] with coverage 1 - 8/252 (Hollander & Wolfe table).
    a, b = [1, 2, 3, 4, 5], [3, 4, 6, 7, 9]
    d = sorted(y - x for x in a for y in b)
    hl = stats.hodges_lehmann(a, b, 0.95)
    t.ok((hl.estimate, hl.lo, hl.hi) == (d[12], d[2], d[22]), f"5+5 HL/CI {hl} vs d13,d3,d23")
    t.close(hl.achieved_conf, 1 - 8 / 252, "5+5 achieved confidence")
    t.ok(hl.reached, "5+5 reaches 95 %")
    # Median of pairwise differences, not difference of medians:
    # b-a over a=[1,5,6], b=[2,3,20]: -4,-3,-3,-2,1,2,14,15,19 -> 1 (medians give -2).
    t.ok(stats.hodges_lehmann([1, 5, 6], [2, 3, 20]).estimate == 1, "HL = median of pairwise differences")
    rng = random.Random(3)
    for _ in range(15):
        n1, n2 = rng.randint(3, 6), rng.randint(3, 6)
        a = [rng.gauss(0, 1) for _ in range(n1)]
        b = [rng.gauss(1, 1) for _ in range(n2)]
        for conf in (0.8, 0.9, 0.95):
            got = stats.hodges_lehmann(a, b, conf)
            want = brute_hl(a, b, conf)
            t.ok(all(math.isclose(g, w, abs_tol=1e-12) for g, w in
                     zip((got.estimate, got.lo, got.hi, got.achieved_conf), want)),
                 f"{n1}+{n2} conf {conf}: {got} vs brute force {want}")
        shifted = stats.hodges_lehmann(a, [y + 10 for y in b])
        base = stats.hodges_lehmann(a, b)
        t.close(shifted.estimate - base.estimate, 10, "b + 10 moves the estimate by 10", 1e-9)
        t.close(shifted.lo - base.lo, 10, "b + 10 moves lo by 10", 1e-9)
        t.close(shifted.hi - base.hi, 10, "b + 10 moves hi by 10", 1e-9)
        t.ok(base.lo <= base.estimate <= base.hi, f"lo <= estimate <= hi: {base}")
    small = stats.hodges_lehmann([1, 2], [3, 5])
    t.ok((small.lo, small.hi) == (1, 4), f"2+2: full range of differences, got {small}")
    t.close(small.achieved_conf, 1 - 2 / 6, "2+2 achieved confidence 2/3")
    t.ok(not small.reached, "2+2 flags that 95 % is not reached")


def test_relative_change(t: Checks) -> None:
    a = [100.0, 102.0, 99.0, 101.0, 100.5]
    rc = stats.relative_change(a, [x * 1.3 for x in a])
    t.close(rc.estimate, 0.3, "exact 30 % scale-up: estimate 0.3", 1e-9)
    t.ok(rc.lo <= 0.3 <= rc.hi and rc.hi - rc.lo < 0.1, f"CI around +30 %: {rc}")
    b = [95.0, 97.0, 104.0, 99.5, 103.0]
    hl = stats.hodges_lehmann([math.log(x) for x in a], [math.log(x) for x in b])
    rc = stats.relative_change(a, b)
    t.ok(all(math.isclose(x, math.expm1(y)) for x, y in
             zip((rc.estimate, rc.lo, rc.hi), (hl.estimate, hl.lo, hl.hi))),
         f"relative change = expm1(HL on logs): {rc} vs {hl}")
    down = stats.relative_change(a, [x * 0.8 for x in a])
    t.close(down.estimate, -0.2, "exact 20 % drop: estimate -0.2", 1e-9)
    try:
        stats.relative_change([1.0, -1.0], [1.0, 2.0])
        t.ok(False, "negative value accepted")
    except ValueError:
        t.ok(True, "")


def test_holm(t: Checks) -> None:
    # sorted 0.005, 0.01, 0.03, 0.04 -> x4, x3, x2, x1 = 0.02, 0.03, 0.06, 0.04;
    # running max -> 0.02, 0.03, 0.06, 0.06; back in input order:
    got = stats.holm([0.01, 0.04, 0.03, 0.005])
    want = [0.03, 0.06, 0.06, 0.02]
    t.ok(all(math.isclose(g, w) for g, w in zip(got, want)) and len(got) == 4, f"holm {got} vs {want}")
    t.ok(stats.holm([0.6, 0.7]) == [1.0, 1.0], "holm caps at 1 (2*0.6 = 1.2)")
    t.ok(stats.holm([]) == [], "holm of nothing")


def test_bh(t: Checks) -> None:
    # sorted 0.005, 0.01, 0.03, 0.04 -> x4/1, x4/2, x4/3, x4/4 = 0.02, 0.02, 0.04, 0.04
    got = stats.benjamini_hochberg([0.01, 0.04, 0.03, 0.005])
    want = [0.02, 0.04, 0.04, 0.02]
    t.ok(all(math.isclose(g, w) for g, w in zip(got, want)) and len(got) == 4, f"BH {got} vs {want}")
    # step-up: 0.04*3/1 = 0.12 is lowered to 0.045*3/2 = 0.0675
    got = stats.benjamini_hochberg([0.5, 0.04, 0.045])
    want = [0.5, 0.0675, 0.0675]
    t.ok(all(math.isclose(g, w) for g, w in zip(got, want)), f"BH monotone {got} vs {want}")
    t.ok(stats.benjamini_hochberg([0.9, 0.95]) == [0.95, 0.95], "BH values")
    t.ok(max(stats.benjamini_hochberg([0.6, 0.7, 0.8])) <= 1.0, "BH capped at 1")


def test_verdict(t: Checks) -> None:
    a = [100.0, 100.2, 99.9, 100.1, 99.8]
    up = [x * 1.3 for x in (100.1, 99.9, 100.2, 99.8, 100.0)]
    p = stats.mann_whitney(a, up)
    t.ok(stats.verdict(a, up, p, 0.08)[0] == "better", "+30 %, higher is better -> better")
    t.ok(stats.verdict(a, up, p, 0.08, higher_is_better=False)[0] == "WORSE",
         "+30 %, lower is better -> WORSE")
    down = [x / 1.3 for x in a]
    t.ok(stats.verdict(a, down, stats.mann_whitney(a, down), 0.08, higher_is_better=False)[0] == "better",
         "-23 %, lower is better -> better")
    t.ok(stats.verdict(a, down, stats.mann_whitney(a, down), 0.08)[0] == "WORSE",
         "-23 %, higher is better -> WORSE")
    small = [x * 1.03 for x in a]
    p = stats.mann_whitney(a, small)
    label, reason = stats.verdict(a, small, p, 0.08)
    t.ok(p < 0.05, f"3 % shift has a tiny p ({p})")
    t.ok(label == "~ noise" and "inside the +-8% between-boot spread" in reason,
         f"3 % shift within 8 % boot spread -> noise: {label}, {reason}")
    label, reason = stats.verdict(a, a, stats.mann_whitney(a, a), 0.08)
    t.ok(label == "~ noise" and reason == "q=1", f"identical data -> noise q=1: {label}, {reason}")
    label, reason = stats.verdict(a, up, 0.2, 0.08)
    t.ok(label == "~ noise" and reason == "q=0.2", f"adjusted p 0.2 -> noise: {label}, {reason}")
    label, reason = stats.verdict([1.0, 1.01], [2.0, 2.01], 0.001, 0.08)
    t.ok(label == "~ noise" and reason == "n=2+2 cannot reach p<0.05", f"2+2 -> noise: {label}, {reason}")
    # CI straddling the spread: estimate beyond 8 % but lo inside -> noise.
    b = [104.0, 106.0, 109.0, 112.0, 115.0]
    rc = stats.relative_change(a, b)
    label, _ = stats.verdict(a, b, stats.mann_whitney(a, b), 0.08)
    t.ok(rc.lo < 0.08 < rc.estimate and label == "~ noise",
         f"CI partly inside the spread -> noise: {rc}, {label}")
    t.ok(stats.verdict(a, up, 0.01, 0.35)[0] == "~ noise", "+30 % within a 35 % boot spread -> noise")


def test_boot_spread(t: Checks) -> None:
    rng = random.Random(4)

    def runs(level: float) -> list[float]:
        return [level * (1 + rng.uniform(-0.002, 0.002)) for _ in range(5)]

    groups = {f"c{i}": [runs(100 * (i + 1)), runs(105 * (i + 1)), runs(100 * (i + 1))] for i in range(20)}
    t.close(stats.boot_spread(groups), 0.05, "3 boots, one 5 % off -> about 5 %", 0.003)
    # Half the configs without offset: a mean of |log ratio| would give 2.5 %.
    half = {f"c{i}": [runs(100), runs(105 if i % 2 else 100)] for i in range(40)}
    t.close(stats.boot_spread(half), 0.05, "half the configs 5 % off -> about 5 %", 0.003)
    # One odd config out of 100 must not dominate (the max would give 50 %).
    odd = {f"c{i}": [[100.0], [105.0]] for i in range(99)}
    odd["odd"] = [[100.0], [150.0]]
    t.close(stats.boot_spread(odd), 0.05, "one 50 % outlier among 100 configs", 1e-9)
    # Exact quantile: |log ratios| 0, 0.01, ..., 1.00 -> 95th percentile 0.95.
    exact = {f"c{i}": [[1.0], [math.exp(i / 100)]] for i in range(101)}
    t.close(stats.boot_spread(exact), math.expm1(0.95), "95th percentile of 0..1", 1e-9)
    # Per-boot median, not mean: one slow run in a boot is not a boot offset.
    t.close(stats.boot_spread({"c": [[100.0, 100.0, 100.0, 200.0, 100.0], [100.0] * 5]}), 0.0,
            "per-boot median ignores one outlier run")
    try:
        stats.boot_spread({"c": [[1.0, 2.0]]})
        t.ok(False, "one boot accepted")
    except ValueError:
        t.ok(True, "")


def test_points(t: Checks) -> None:
    """The scale of fractions: changes and spreads in points."""
    # Spread: distances of per-boot medians, 95th percentile, no exp.
    exact = {f"c{i}": [[0.5], [0.5 + i / 1000]] for i in range(101)}
    t.close(stats.boot_spread(exact, scale="points"), 0.095, "95th percentile of 0..0.1 points", 1e-9)
    # Zeros are fractions like any other in points (a ratio would fail).
    t.close(stats.boot_spread({"c": [[0.0, 0.0], [0.1, 0.1]]}, scale="points"), 0.1, "a spread from 0")
    ch = stats.change([0.5] * 8, [0.2] * 8, 0.95, "points")
    t.close(ch.estimate, -0.3, "a change of -0.3 points")
    old = [0.60, 0.62, 0.58, 0.61, 0.59, 0.63, 0.60, 0.61]
    new = [x - 0.3 for x in old]
    p = stats.mann_whitney(old, new)
    label, why = stats.verdict(old, new, p, 0.1, 0.05, False, "points")
    t.ok(label == "better" and "points" in why, f"0.3 points fewer drops, spread 0.1: better ({label}, {why})")
    label, why = stats.verdict(old, new, p, 0.4, 0.05, False, "points")
    t.ok(label == "~ noise" and "inside" in why, f"the same change inside a 0.4-point spread: noise ({label}, {why})")
    try:
        stats.change(old, new, 0.95, "log")
        t.ok(False, "an unknown scale accepted")
    except ValueError:
        t.ok(True, "")


TESTS: list[Callable[[Checks], None]] = [
    test_dp_matches_enumeration, test_known_p, test_min_p, test_speed,
    test_hodges_lehmann, test_relative_change, test_holm, test_bh,
    test_verdict, test_boot_spread, test_points,
]


def main() -> int:
    t = Checks()
    for test in TESTS:
        t.test = test.__name__
        try:
            test(t)
        except Exception:  # a crash is a failed check, the others still run
            t.ok(False, "raised\n" + traceback.format_exc().rstrip())
    print(f"{t.passed} passed, {t.failed} failed")
    return 1 if t.failed else 0


if __name__ == "__main__":
    sys.exit(main())
