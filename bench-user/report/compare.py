"""compare: make compare OLD=results/A NEW=results/B

Two make bench folders (raw.csv) or two make bench-cost folders
(cost.csv), of this format or of format 1 (before meta.json recorded a
format; read the same way, and said so).  The conditions of both
(meta.json) are compared first, and every mismatch is printed.

make bench folders: for each configuration of question (a) (ns per
successful write) and (c) (drop fraction), the old and new median, the
change with its Hodges-Lehmann estimate and exact confidence interval --
relative for ns, in points for the drop fraction, a fraction that is
often near 0, where ratios mean nothing -- and a verdict
(stats.verdict): a change is called only if the exact Mann-Whitney U
test, corrected for the many comparisons (Benjamini-Hochberg: at most
5 % of the changes called are false, on average), rejects "no change",
AND its whole confidence interval lies beyond the between-boot spread.
The runs of one boot are not independent of that boot -- a boot that is
3 % slower makes every one of its runs 3 % slower -- so the U test alone
would call every boot-to-boot difference significant.  The between-boot
spread is measured from repeated boots of identical code
(bench-user/baselines/boot-spread-<kernel>.csv, written by `report.py
spread`), on each metric's scale.  Where that spread leaves no room for
a verdict (NO_VERDICT_SPREAD), the comparison prints the figures and
says so instead.  Comparing two modes within one boot (the ratios in
report.txt) needs no such margin.

--same-boot: the two folders are the two sides of one A/B boot (make
bench-ab: two builds of relay_bench.ko, their runs interleaved), which
share the boot's offset; no between-boot margin applies, and a change is
called when the corrected U test rejects "no change" and the confidence
interval excludes 0.  The design to prefer wherever the two sides can
share a boot.

make bench-cost folders: the figures are deterministic; a difference of
cost.GATE instruction per write or more is a change.

The comparison is data (--json prints it); the text is printed from it.
"""
import csv
import json
import math
import statistics
from collections import defaultdict
from pathlib import Path

import conditions
import cost
import stats

ALPHA = 0.05
# (question, metric, unit, higher is better, scale of the change)
METRICS = [("a", "ns_per_ok", "ns per successful write", False, "relative"),
           ("c", "drop_frac", "drop fraction", False, "points")]
# A between-boot spread this large (points of a fraction, or a relative
# change) leaves no room for a change to be called: no verdict.
NO_VERDICT_SPREAD = {"relative": 10.0, "points": 0.5}


def load_meta(d):
    p = d / "meta.json"
    return json.loads(p.read_text()) if p.exists() else {}


def load_bench(d):
    """{metric: {config: [values]}} of a make bench folder."""
    g = defaultdict(lambda: defaultdict(list))
    with open(d / "raw.csv", newline="") as f:
        for r in csv.DictReader(f):
            for q, metric, *_ in METRICS:
                if r["q"] == q and r["verdict"] in ("ok", "n/a") and r[metric] not in ("", "nan"):
                    g[metric][r["config"]].append(float(r[metric]))
    return g


def spread_file(top, kernel):
    return top / "bench-user" / "baselines" / f"boot-spread-{kernel}.csv"


def load_spread(path):
    """{metric: (spread, scale, what it was measured from)} and the file.
    A row without a scale column (before there were two) is on the
    relative scale."""
    if not path.exists():
        return {}, f"no {path.name}: run several boots and `report.py spread`"
    out = {}
    with open(path, newline="") as f:
        for r in csv.DictReader(line for line in f if not line.startswith("#")):
            out[r["metric"]] = (float(r["spread"]), r.get("scale") or "relative", r.get("source", ""))
    return out, path.name


def compare_cost(old, new):
    old_figs, new_figs = cost.load(old), cost.load(new)
    rows = []
    for k, (_, overhead) in old_figs.items():
        if k not in new_figs:
            rows.append({"kind": k[0], "size": k[1], "old": overhead, "new": None, "change": None,
                         "verdict": "missing in NEW"})
            continue
        diff = new_figs[k][1] - overhead
        rows.append({"kind": k[0], "size": k[1], "old": overhead, "new": new_figs[k][1], "change": round(diff, 2),
                     "verdict": "same" if abs(diff) < cost.GATE else ("dearer" if diff > 0 else "cheaper")})
    return {"kind": "cost", "gate_instructions": cost.GATE, "figures": rows,
            "called": sum(r["verdict"] in ("dearer", "cheaper") for r in rows), "total": len(rows)}


def print_cost(v):
    print(f"\ndeterministic cost (instructions per write under -icount; make bench-cost): "
          f"a change is {v['gate_instructions']} instruction or more")
    print(f"{'kind size':24} {'old overhead':>12} {'new overhead':>12} {'change':>8}  verdict")
    for r in v["figures"]:
        k = f"{r['kind']} {r['size']}B"
        if r["new"] is None:
            print(f"{k:24} {r['old']:>12.2f} {'-':>12}            missing in NEW")
        else:
            print(f"{k:24} {r['old']:>12.2f} {r['new']:>12.2f} {r['change']:>+8.2f}  {r['verdict']}")
    print(f"\n{v['called']} of {v['total']} figures changed")


def compare_bench(old, new, spread, spread_src, same_boot=False):
    """The comparison of two make bench folders, as data."""
    old_runs, new_runs = load_bench(old), load_bench(new)
    rows = []
    for _, metric, *_ in METRICS:
        for cfg in sorted(old_runs[metric]):
            if cfg in new_runs[metric]:
                x, y = old_runs[metric][cfg], new_runs[metric][cfg]
                rows.append({"metric": metric, "config": cfg, "old": x, "new": y, "p": stats.mann_whitney(x, y)})
    if not rows:
        return None
    for r, q in zip(rows, stats.benjamini_hochberg([r["p"] for r in rows])):
        r["q"] = q
    metrics = []
    for _, metric, unit, higher, scale in METRICS:
        mine = [r for r in rows if r["metric"] == metric]
        if not mine:
            continue
        sp, sp_scale, sp_src = (0.0, scale, "") if same_boot else spread.get(metric, (None, scale, ""))
        if sp is not None and sp_scale != scale:
            sp = None        # a spread on another scale says nothing here
        no_verdict = sp is not None and sp >= NO_VERDICT_SPREAD[scale]
        # Benjamini-Hochberg over all the comparisons: with few runs a
        # side, a change must show in several configurations at once.
        mp = max(stats.min_p(len(r["old"]), len(r["new"])) for r in mine)
        need = math.ceil(mp * len(rows) / ALPHA - 1e-9)
        metrics.append({"metric": metric, "unit": unit, "higher_is_better": higher, "scale": scale,
                        "spread": sp, "spread_source": sp_src, "no_verdict": no_verdict,
                        "configs_needed": need if 1 < need <= len(rows) else 1, "smallest_p": mp})
        for r in mine:
            r["old_median"], r["new_median"] = statistics.median(r["old"]), statistics.median(r["new"])
            if scale == "points" or min(r["old"] + r["new"]) > 0:
                ch = stats.change(r["old"], r["new"], 1 - ALPHA, scale)
                r["change"], r["lo"], r["hi"] = ch.estimate, ch.lo, ch.hi
            else:
                r["change"] = r["lo"] = r["hi"] = None
            if no_verdict:
                r["verdict"], r["why"] = "no verdict", "the between-boot spread leaves no room for one"
            elif sp is None:
                r["verdict"], r["why"] = "~ noise", "no between-boot spread"
            elif r["change"] is None:
                r["verdict"], r["why"] = "~ noise", "zeros"
            else:
                r["verdict"], r["why"] = stats.verdict(r["old"], r["new"], r["q"], sp, ALPHA, higher, scale)
    called = sum(r["verdict"] in ("better", "WORSE") for r in rows)
    return {"kind": "bench", "same_boot": same_boot, "spread_source": spread_src, "metrics": metrics,
            "comparisons": rows, "called": called, "total": len(rows),
            "without_verdict": sum(r["verdict"] == "no verdict" for r in rows)}


def print_bench(v):
    print("\nruns within one boot are not independent of that boot: a change is called only if the")
    print(f"exact U test, Benjamini-Hochberg-corrected, gives q < {ALPHA} and its {int((1 - ALPHA) * 100)}% confidence interval lies beyond")
    print(f"the between-boot spread ({v['spread_source']})")
    for m in v["metrics"]:
        scale = m["scale"]
        if v["same_boot"]:
            where = "one boot, runs interleaved: no between-boot spread to exceed"
        elif m["spread"] is None:
            where = "between-boot spread unknown: nothing is called"
        elif scale == "relative":
            where = f"between-boot spread +-{m['spread'] * 100:.1f}% ({m['spread_source']})"
        else:
            where = f"change in points; between-boot spread +-{m['spread']:.3f} points ({m['spread_source']})"
        print(f"\n{m['unit']} ({'higher' if m['higher_is_better'] else 'lower'} is better); {where}")
        if m["no_verdict"]:
            print(f"  NO VERDICT: between boots of identical code this figure moves by up to {m['spread']:.3g}"
                  f"{' points' if scale == 'points' else ''}: no change can be told from a reboot here; "
                  "the figures only")
        if m["configs_needed"] > 1:
            print(f"  with these runs a side (smallest p {m['smallest_p']:.2g}) and {v['total']} comparisons, "
                  f"a change is called only if at least {m['configs_needed']} configurations show it")
        print(f"{'config':30} {'old median':>12} {'new median':>12} {'change [95% CI]':>26}  verdict")
        for r in v["comparisons"]:
            if r["metric"] != m["metric"]:
                continue
            if r["change"] is None:
                ci = "n/a (zeros)"
            elif scale == "relative":
                ci = f"{r['change'] * 100:+6.1f}% [{r['lo'] * 100:+.1f},{r['hi'] * 100:+.1f}]"
            else:
                ci = f"{r['change']:+.3f} [{r['lo']:+.3f},{r['hi']:+.3f}]"
            print(f"{r['config']:30} {r['old_median']:>12.4g} {r['new_median']:>12.4g} {ci:>26}  "
                  f"{r['verdict']} ({r['why']})")
    print(f"\n{v['called']} of {v['total']} comparisons called a change "
          f"({v['called'] / v['total'] * 100:.1f}%); "
          + (f"{v['without_verdict']} without a verdict (the between-boot spread); " if v["without_verdict"] else "")
          + "the rest are within the noise")


def compare(old, new, same_boot=False):
    """(status, data) of make compare."""
    for d in (old, new):
        if not (d / "raw.csv").exists() and not (d / "cost.csv").exists():
            return 2, {"error": f"{d} holds neither raw.csv (make bench) nor cost.csv (make bench-cost)"}
    kind_old = "cost" if (old / "cost.csv").exists() else "bench"
    kind_new = "cost" if (new / "cost.csv").exists() else "bench"
    if kind_old != kind_new:
        return 2, {"error": f"{old} is a {kind_old} result and {new} a {kind_new} result"}
    ma, mb = load_meta(old), load_meta(new)
    head = {"old": {"dir": str(old), "series": ma.get("series_hash", "?"), "date": ma.get("date", "?"),
                    "format": conditions.folder_format(old)},
            "new": {"dir": str(new), "series": mb.get("series_hash", "?"), "date": mb.get("date", "?"),
                    "format": conditions.folder_format(new)},
            "mismatches": [{"condition": n, "old": x, "new": y} for n, x, y in conditions.mismatches(ma, mb)]}
    if kind_old == "cost":
        return 0, {**head, **compare_cost(old, new)}
    if same_boot:
        # No margin is fair only if both sides are runs of one boot.
        differ = [k for k in ("date", "seed", "matrix") if ma.get(k) != mb.get(k)]
        if differ:
            return 2, {**head, "error": f"{old} and {new} are not the two sides of one boot "
                                        f"(make bench-ab): their {', '.join(differ)} differ"}
        spread, src = {}, "none: one boot, the two sides' runs interleaved (make bench-ab)"
    else:
        top = Path(__file__).resolve().parents[2]
        spread, src = load_spread(spread_file(top, ma.get("kernel", "6.1")))
    v = compare_bench(old, new, spread, src, same_boot)
    if v is None:
        return 2, {**head, "error": "no configuration in common"}
    return 0, {**head, **v}


def main(old, new, same_boot=False, as_json=False):
    status, v = compare(old, new, same_boot)
    if as_json:
        print(json.dumps(v, indent=1))
        return status
    for side in ("old", "new"):
        if side in v:
            s = v[side]
            print(f"{side}: {s['dir']}  (series {s['series']}, {s['date']})"
                  + (f"; a folder of format {s['format']} (before result folders recorded their format; "
                     "read as such, its conditions lack the kernel's .config)" if s["format"] == 1 else ""))
    if v.get("mismatches"):
        print("conditions that differ (the figures may differ for these reasons alone):")
        for m in v["mismatches"]:
            print(f"  {m['condition']}: old '{m['old']}', new '{m['new']}'")
    elif "mismatches" in v:
        print("conditions: the same (" + ", ".join(n for _, n in conditions.COMPARED) + ")")
    if "error" in v:
        print(f"compare{' --same-boot' if same_boot else ''}: {v['error']}")
        return status
    if v["kind"] == "cost":
        print_cost(v)
    else:
        print_bench(v)
    return status


def spread_main(dirs, out):
    """report.py spread DIR...: the between-boot spread of identical code,
    each metric on its scale."""
    metas = [load_meta(Path(d)) for d in dirs]
    series = {m.get("series_hash") for m in metas}
    if len(series) != 1:
        print(f"spread: the folders hold different series {sorted(series)}: boots of identical code are needed")
        return 2
    data = [load_bench(Path(d)) for d in dirs]
    # The metrics these folders do not measure keep their rows.
    kept = []
    if Path(out).exists():
        with open(out, newline="") as f:
            kept = list(csv.DictReader(line for line in f if not line.startswith("#")))
    measured = {m for _, m, *_ in METRICS if any(dd[m] for dd in data)}
    with open(out, "w", newline="") as f:
        f.write(f"# between-boot spread of make bench, identical code, {len(dirs)} boots: "
                f"{', '.join(Path(d).name for d in dirs)}\n")
        f.write("# the 95th percentile over configurations of the distance of per-boot medians: |log ratio|\n"
                "# as a relative change, or the difference in points (stats.boot_spread)\n")
        w = csv.writer(f)
        w.writerow(["metric", "spread", "scale", "source"])
        for r in kept:
            if r["metric"] not in measured:
                w.writerow([r["metric"], r["spread"], r.get("scale") or "relative", r.get("source", "")])
        for _, metric, _, _, scale in METRICS:
            groups = {}
            for cfg in data[0][metric]:
                boots = [dd[metric][cfg] for dd in data if cfg in dd[metric]]
                if len(boots) == len(data) and (scale == "points" or all(v > 0 for bb in boots for v in bb)):
                    groups[cfg] = boots
            if groups:
                sp = stats.boot_spread(groups, scale=scale)
                w.writerow([metric, f"{sp:.4f}", scale, f"{len(dirs)} boots, {len(groups)} configurations, "
                            f"{metas[0].get('kernel', '?')} {metas[0].get('date', '?')[:10]}"])
                print(f"{metric}: between-boot spread {stats.fmt_change(sp, scale)}"
                      f"{' points' if scale == 'points' else ''} over {len(groups)} configurations")
    return 0
