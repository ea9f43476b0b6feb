"""results/history.csv and the data of its trend plots.

history.csv has one row per figure per run of make bench or make
bench-cost:

  date,series_hash,kernel,source,config,metric,value,unit

unit says what the value counts: "instructions" (make bench-cost, under
-icount: deterministic) or "emulated ns" (make bench, TCG guest time:
noisy).  The trend plots never put two units on one axis: there is one
self-describing .dat file and one plot per unit, and their series are
the (kernel, source, config, metric) found in the history that match
TREND.
"""
import csv
import fnmatch
from pathlib import Path

import plotdata

FIELDS = ["date", "series_hash", "kernel", "source", "config", "metric", "value", "unit"]

# What the trend plots follow: (source, config pattern, metric).
TREND = [
    ("cost", "trace_*/64", "overhead"),
    ("bench", "a/percpu/nonflight/w1/64", "ns_per_ok"),
    ("bench", "a/global/nonflight/w1/64", "ns_per_ok"),
    ("bench", "a/percpu/nonflight/w4/64", "ns_per_ok"),
    ("bench", "a/global/nonflight/w4/64", "ns_per_ok"),
]


def append(results_root, rows):
    path = Path(results_root) / "history.csv"
    if path.exists():
        with open(path, newline="") as f:
            header = next(csv.reader(f), [])
        if header != FIELDS:
            raise SystemExit(f"{path}: columns {header}, expected {FIELDS}: move it aside")
    new = not path.exists()
    with open(path, "a", newline="") as f:
        w = csv.DictWriter(f, fieldnames=FIELDS)
        if new:
            w.writeheader()
        for r in rows:
            w.writerow(r)
    write_trend(results_root)


def _slug(unit):
    return unit.replace(" ", "-")


def write_trend(results_root):
    """trend-<unit>.dat, one per unit, for plots/trend.gp: "# key: value"
    lines (title, unit, series: the series' column names), a header of
    column names, one row per run."""
    root = Path(results_root)
    with open(root / "history.csv", newline="") as f:
        hist = list(csv.DictReader(f))
    for unit in sorted({r["unit"] for r in hist}):
        runs, series = {}, []
        for r in hist:
            if r["unit"] != unit:
                continue
            if not any(r["source"] == s and fnmatch.fnmatch(r["config"], c) and r["metric"] == m
                       for s, c, m in TREND):
                continue
            name = f"{r['kernel']}:{r['source']}:{r['config']}:{r['metric']}".replace(" ", "_")
            if name not in series:
                series.append(name)
            label = f"{r['date'][5:16]}_{r['kernel']}_{r['series_hash'][:7]}"
            runs.setdefault((r["date"], label), {})[name] = r["value"] or "NaN"
        plotdata.write(root / f"trend-{_slug(unit)}.dat", [
            ("title", f"relay_trace write path across runs (results/history.csv), unit: {unit}"),
            ("unit", unit), ("series", " ".join(series))],
            ["run", "label"] + series,
            [[str(i), label] + [vals.get(s, "NaN") for s in series]
             for i, ((_, label), vals) in enumerate(sorted(runs.items()))])
