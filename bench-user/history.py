"""Shared by summarize.py and cost.py: results/history.csv and its trend.

history.csv has one row per configuration per run of `make bench` or
`make bench-cost`, keyed by the patch series' hash:
  date,series_hash,source,config,mrec_s,ns_per_write,dropped
For bench-cost rows ns_per_write is the net deterministic cost and the
other two are empty.
"""
import csv
from collections import OrderedDict
from pathlib import Path

FIELDS = ["date", "series_hash", "source", "config", "mrec_s", "ns_per_write", "dropped"]

# What the trend plot follows (ns per write), as (source, config, label).
TREND = [
    ("cost", "trace_percpu/64", "trace_percpu 64B (bench-cost, deterministic)"),
    ("cost", "trace_global/64", "trace_global 64B (bench-cost, deterministic)"),
    ("cost", "trace_write/64", "trace_write 64B (bench-cost, deterministic)"),
    ("bench", "percpu/nonflight/w1/64", "per-CPU w=1 64B (make bench, TCG)"),
    ("bench", "global/nonflight/w1/64", "global w=1 64B (make bench, TCG)"),
]


def append(results_root, rows):
    path = Path(results_root) / "history.csv"
    new = not path.exists()
    with open(path, "a", newline="") as f:
        w = csv.DictWriter(f, fieldnames=FIELDS)
        if new:
            w.writeheader()
        w.writerows(rows)
    write_trend(results_root)


def write_trend(results_root):
    """trend.dat: one line per history entry (date, series), one column per TREND item."""
    path = Path(results_root) / "history.csv"
    entries = OrderedDict()
    with open(path, newline="") as f:
        for r in csv.DictReader(f):
            key = (r["date"], r["series_hash"])
            entries.setdefault(key, {})[(r["source"], r["config"])] = r.get("ns_per_write") or "NaN"
    with open(Path(results_root) / "trend.dat", "w") as f:
        f.write("# index date series " + " | ".join(t[2] for t in TREND) + "\n")
        for i, ((date, series), vals) in enumerate(sorted(entries.items())):
            cols = [vals.get(t[:2], "NaN") for t in TREND]
            f.write(f'{i} "{date[5:16]} {series[:7]}" ' + " ".join(cols) + "\n")
    with open(Path(results_root) / "trend-labels.txt", "w") as f:
        f.write("\n".join(t[2] for t in TREND) + "\n")
