#!/usr/bin/env python3
"""make compare OLD=results/A NEW=results/B

Compares two `make bench` folders (raw.csv: repeated runs) or two
`make bench-cost` folders (cost.csv: deterministic figures), in the spirit
of benchstat: old median +- spread, new median +- spread, change, and
whether the change is significant.  Repeated runs are tested with an exact
two-sided Mann-Whitney U (permutation) test at alpha = 0.05; changes that
are not significant are shown as noise (~).  Deterministic figures are
compared for exact equality.
"""
import csv
import itertools
import statistics
import sys
from collections import defaultdict
from pathlib import Path

ALPHA = 0.05


def mann_whitney_p(a, b):
    """Exact two-sided p-value of the Mann-Whitney U test (ties by mid-ranks)."""
    pooled = sorted(a + b)
    ranks = {}
    for v in set(pooled):
        idx = [i + 1 for i, x in enumerate(pooled) if x == v]
        ranks[v] = sum(idx) / len(idx)
    allr = [ranks[v] for v in a + b]
    n1, n = len(a), len(a) + len(b)
    mean = n1 * (n + 1) / 2
    obs = abs(sum(ranks[v] for v in a) - mean)
    combos = list(itertools.combinations(range(n), n1))
    hits = sum(1 for c in combos if abs(sum(allr[i] for i in c) - mean) >= obs - 1e-9)
    return hits / len(combos)


def min_p(n1, n2):
    return 2 / len(list(itertools.combinations(range(n1 + n2), n1)))


def spread(xs):
    m = statistics.median(xs)
    return (max(xs) - min(xs)) / 2 / m * 100 if m else 0.0


def load_bench(d):
    g = defaultdict(lambda: defaultdict(list))
    with open(d / "raw.csv", newline="") as f:
        for r in csv.DictReader(f):
            key = f"{r['mode']} {'flight' if r['flight'] == '1' else 'nonflight'} w={r['writers']} {r['size']}B"
            g["Mrec/s"][key].append(float(r["mrec_s"]))
            g["ns/write"][key].append(float(r["ns_per_write"]))
    return g


def load_cost(d):
    g = {}
    with open(d / "cost.csv", newline="") as f:
        for r in csv.DictReader(f):
            g[f"{r['kind']} {r['size']}B"] = float(r["net_ns_per_write"])
    return g


def main():
    if len(sys.argv) != 3:
        print("usage: make compare OLD=results/A NEW=results/B", file=sys.stderr)
        return 2
    old, new = Path(sys.argv[1]), Path(sys.argv[2])
    for d in (old, new):
        if not (d / "raw.csv").exists() and not (d / "cost.csv").exists():
            print(f"compare: {d} holds neither raw.csv (make bench) nor cost.csv (make bench-cost)",
                  file=sys.stderr)
            return 2
    kind_old = "cost" if (old / "cost.csv").exists() else "bench"
    kind_new = "cost" if (new / "cost.csv").exists() else "bench"
    if kind_old != kind_new:
        print(f"compare: {old} is a {kind_old} result and {new} a {kind_new} result", file=sys.stderr)
        return 2
    print(f"old: {old}\nnew: {new}")
    if kind_old == "cost":
        a, b = load_cost(old), load_cost(new)
        print("\ndeterministic cost (net ns = instructions per write, make bench-cost): exact comparison")
        print(f"{'config':22} {'old':>10} {'new':>10} {'change':>9}  verdict")
        for k in a:
            if k not in b:
                continue
            ch = (b[k] - a[k]) / a[k] * 100 if a[k] else 0.0
            verdict = "same" if a[k] == b[k] else ("slower" if b[k] > a[k] else "faster")
            print(f"{k:22} {a[k]:>10.2f} {b[k]:>10.2f} {ch:>+8.2f}%  {verdict}")
        return 0
    a, b = load_bench(old), load_bench(new)
    for metric in ("Mrec/s", "ns/write"):
        better = "higher" if metric == "Mrec/s" else "lower"
        print(f"\n{metric} ({better} is better); median +- half the min-max range; "
              f"Mann-Whitney U, alpha={ALPHA}")
        print(f"{'config':28} {'old':>18} {'new':>18} {'change':>9}  p / verdict")
        for k in a[metric]:
            if k not in b[metric]:
                continue
            x, y = a[metric][k], b[metric][k]
            mx, my = statistics.median(x), statistics.median(y)
            ch = (my - mx) / mx * 100 if mx else 0.0
            p = mann_whitney_p(x, y)
            if p < ALPHA:
                good = (my > mx) == (metric == "Mrec/s")
                verdict = f"p={p:.3f} {'better' if good else 'WORSE'}"
            elif min_p(len(x), len(y)) >= ALPHA:
                verdict = f"~ noise (n={len(x)}+{len(y)} too few to reach p<{ALPHA})"
            else:
                verdict = f"~ noise (p={p:.3f})"
            print(f"{k:28} {mx:>10.3f} +-{spread(x):>4.0f}% {my:>10.3f} +-{spread(y):>4.0f}% "
                  f"{ch:>+8.1f}%  {verdict}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
