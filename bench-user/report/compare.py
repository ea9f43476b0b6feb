"""compare: make compare OLD=results/A NEW=results/B

Two make bench folders (raw.csv) or two make bench-cost folders
(cost.csv).  The conditions of both (meta.json) are compared first, and
every mismatch is printed.

make bench folders: for each configuration of question (a) (ns per
successful write) and (c) (drop fraction), the old and new median with
their spread, the relative change with its Hodges-Lehmann estimate and
exact confidence interval, and a verdict (stats.verdict): a change is
called only if the exact Mann-Whitney U test, corrected for the many
comparisons (Benjamini-Hochberg: at most 5 % of the changes called are
false, on average), rejects "no change", AND its whole confidence
interval lies beyond the between-boot spread.  The runs of one boot are not
independent of that boot -- a boot that is 3 % slower makes every one of
its runs 3 % slower -- so the U test alone would call every boot-to-boot
difference significant.  The between-boot spread is measured from
repeated boots of identical code (bench-user/baselines/boot-spread-
<kernel>.csv, written by `report.py spread`).  Comparing two modes
within one boot (the ratios in report.txt) needs no such margin.

--same-boot: the two folders are the two sides of one A/B boot (make
bench-ab: two builds of relay_bench.ko, their runs interleaved), which
share the boot's offset; no between-boot margin applies, and a change is
called when the corrected U test rejects "no change" and the confidence
interval excludes 0.  The design to prefer wherever the two sides can
share a boot.

make bench-cost folders: the figures are deterministic; a difference of
0.5 instruction per write or more is a change (cost.py's gate).
"""
import csv
import json
import math
import statistics
from collections import defaultdict
from pathlib import Path

import conditions
import stats

ALPHA = 0.05
GATE = 0.5
# (question, metric, unit, higher is better)
METRICS = [("a", "ns_per_ok", "ns per successful write", False),
           ("c", "drop_frac", "drop fraction", False)]


def load_meta(d):
    p = d / "meta.json"
    return json.loads(p.read_text()) if p.exists() else {}


def load_bench(d):
    """{metric: {config: [values]}} of a make bench folder."""
    g = defaultdict(lambda: defaultdict(list))
    with open(d / "raw.csv", newline="") as f:
        for r in csv.DictReader(f):
            for q, metric, _, _ in METRICS:
                if r["q"] == q and r["verdict"] in ("ok", "n/a") and r[metric] not in ("", "nan"):
                    g[metric][r["config"]].append(float(r[metric]))
    return g


def spread_file(top, kernel):
    return top / "bench-user" / "baselines" / f"boot-spread-{kernel}.csv"


def load_spread(path):
    """{metric: spread fraction} and where it came from."""
    if not path.exists():
        return {}, f"no {path.name}: run several boots and `report.py spread`"
    out, src = {}, ""
    with open(path, newline="") as f:
        for r in csv.DictReader(line for line in f if not line.startswith("#")):
            out[r["metric"]] = float(r["spread"])
            src = r.get("source", "")
    return out, src


def compare_cost(old, new):
    a, b = {}, {}
    for d, g in ((old, a), (new, b)):
        with open(d / "cost.csv", newline="") as f:
            for r in csv.DictReader(f):
                g[f"{r['kind']} {r['size']}B"] = (float(r["total"]), float(r["overhead"]))
    print(f"\ndeterministic cost (instructions per write under -icount; make bench-cost): "
          f"a change is {GATE} instruction or more")
    print(f"{'kind size':24} {'old overhead':>12} {'new overhead':>12} {'change':>8}  verdict")
    changed = 0
    for k in a:
        if k not in b:
            print(f"{k:24} {a[k][1]:>12.2f} {'-':>12}            missing in NEW")
            continue
        d = b[k][1] - a[k][1]
        verdict = "same" if abs(d) < GATE else ("dearer" if d > 0 else "cheaper")
        changed += verdict != "same"
        print(f"{k:24} {a[k][1]:>12.2f} {b[k][1]:>12.2f} {d:>+8.2f}  {verdict}")
    print(f"\n{changed} of {len(a)} figures changed")
    return 0


def compare_bench(old, new, spread, spread_src, same_boot=False):
    a, b = load_bench(old), load_bench(new)
    rows = []
    for q, metric, unit, higher in METRICS:
        for cfg in sorted(a[metric]):
            if cfg in b[metric]:
                x, y = a[metric][cfg], b[metric][cfg]
                rows.append((metric, unit, higher, cfg, x, y, stats.mann_whitney(x, y)))
    if not rows:
        print("compare: no configuration in common")
        return 2
    adj = stats.benjamini_hochberg([r[6] for r in rows])
    print("\nruns within one boot are not independent of that boot: a change is called only if the")
    print(f"exact U test, Benjamini-Hochberg-corrected, gives q < {ALPHA} and its {int((1 - ALPHA) * 100)}% confidence interval lies beyond")
    print(f"the between-boot spread ({spread_src})")
    flagged = 0
    last = None
    for (metric, unit, higher, cfg, x, y, p), ap in zip(rows, adj):
        if metric != last:
            sp = spread.get(metric)
            if same_boot:
                where = "one boot, runs interleaved: no between-boot spread to exceed"
            elif sp is None:
                where = "between-boot spread unknown: nothing is called"
            else:
                where = f"between-boot spread +-{sp * 100:.1f}%"
            print(f"\n{unit} ({'higher' if higher else 'lower'} is better); {where}")
            # Benjamini-Hochberg over all the comparisons: with few runs a
            # side, a change must show in several configurations at once.
            mp = max(stats.min_p(len(r[4]), len(r[5])) for r in rows if r[0] == metric)
            k = math.ceil(mp * len(rows) / ALPHA - 1e-9)
            if 1 < k <= len(rows):
                print(f"  with these runs a side (smallest p {mp:.2g}) and {len(rows)} comparisons, "
                      f"a change is called only if at least {k} configurations show it")
            print(f"{'config':30} {'old median':>12} {'new median':>12} {'change [95% CI]':>26}  verdict")
            last = metric
        mx, my = statistics.median(x), statistics.median(y)
        if min(x + y) > 0:
            ch = stats.relative_change(x, y, 1 - ALPHA)
            ci = f"{ch.estimate * 100:+6.1f}% [{ch.lo * 100:+.1f},{ch.hi * 100:+.1f}]"
        else:
            ci = "n/a (zeros)"
        if sp is None or min(x + y) <= 0:
            verdict, why = "~ noise", "no between-boot spread" if sp is None else "zeros"
        else:
            verdict, why = stats.verdict(x, y, ap, sp, ALPHA, higher)
        flagged += verdict != "~ noise"
        print(f"{cfg:30} {mx:>12.4g} {my:>12.4g} {ci:>26}  {verdict} ({why})")
    print(f"\n{flagged} of {len(rows)} comparisons called a change "
          f"({flagged / len(rows) * 100:.1f}%); the rest are within the noise")
    return 0


def main(old, new, same_boot=False):
    for d in (old, new):
        if not (d / "raw.csv").exists() and not (d / "cost.csv").exists():
            print(f"compare: {d} holds neither raw.csv (make bench) nor cost.csv (make bench-cost)")
            return 2
    kind_old = "cost" if (old / "cost.csv").exists() else "bench"
    kind_new = "cost" if (new / "cost.csv").exists() else "bench"
    if kind_old != kind_new:
        print(f"compare: {old} is a {kind_old} result and {new} a {kind_new} result")
        return 2
    ma, mb = load_meta(old), load_meta(new)
    print(f"old: {old}  (series {ma.get('series_hash', '?')}, {ma.get('date', '?')})")
    print(f"new: {new}  (series {mb.get('series_hash', '?')}, {mb.get('date', '?')})")
    mism = conditions.mismatches(ma, mb)
    if mism:
        print("conditions that differ (the figures may differ for these reasons alone):")
        for name, x, y in mism:
            print(f"  {name}: old '{x}', new '{y}'")
    else:
        print("conditions: the same (" + ", ".join(n for _, n in conditions.COMPARED) + ")")
    if kind_old == "cost":
        return compare_cost(old, new)
    if same_boot:
        # No margin is fair only if both sides are runs of one boot.
        differ = [k for k in ("date", "seed", "matrix") if ma.get(k) != mb.get(k)]
        if differ:
            print(f"compare --same-boot: {old} and {new} are not the two sides of one boot "
                  f"(make bench-ab): their {', '.join(differ)} differ")
            return 2
        spread = {m[1]: 0.0 for m in METRICS}
        src = "none: one boot, the two sides' runs interleaved (make bench-ab)"
    else:
        top = Path(__file__).resolve().parents[2]
        spread, src = load_spread(spread_file(top, ma.get("kernel", "6.1")))
    return compare_bench(old, new, spread, src, same_boot)


def spread_main(dirs, out):
    """report.py spread DIR...: the between-boot spread of identical code."""
    metas = [load_meta(Path(d)) for d in dirs]
    series = {m.get("series_hash") for m in metas}
    if len(series) != 1:
        print(f"spread: the folders hold different series {sorted(series)}: boots of identical code are needed")
        return 2
    data = [load_bench(Path(d)) for d in dirs]
    with open(out, "w", newline="") as f:
        f.write(f"# between-boot spread of make bench, identical code, {len(dirs)} boots: "
                f"{', '.join(Path(d).name for d in dirs)}\n")
        f.write("# the 95th percentile over configurations of |log ratio| of per-boot medians (stats.boot_spread)\n")
        w = csv.writer(f)
        w.writerow(["metric", "spread", "source"])
        for _, metric, _, _ in METRICS:
            groups = {}
            for cfg in data[0][metric]:
                boots = [dd[metric][cfg] for dd in data if cfg in dd[metric]]
                if len(boots) == len(data) and all(v > 0 for bb in boots for v in bb):
                    groups[cfg] = boots
            if groups:
                sp = stats.boot_spread(groups)
                w.writerow([metric, f"{sp:.4f}", f"{len(dirs)} boots, {len(groups)} configurations, "
                            f"{metas[0].get('kernel', '?')} {metas[0].get('date', '?')[:10]}"])
                print(f"{metric}: between-boot spread {sp * 100:.1f}% over {len(groups)} configurations")
    return 0
