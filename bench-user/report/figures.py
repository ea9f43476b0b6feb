"""The figures of one make bench run (a row of raw.csv), and the helpers
that group and reduce them; the tables (tables.py), the plot data
(plotdata.py) and the summary files (summarize.py) are computed from
these rows alone.

(a) write-path cost: ns per successful write = the writers' time / their
    successful writes; successful writes per second = all writers'
    successes / the longest writer's time.
(b) lossless rate: rate-limited writers and a live reader, bisected: the
    steps of one bisection share their parent (its line of runs.txt).
(c) overload: the drop fraction, refused / attempted writes.
"""
import statistics
from collections import defaultdict

import latency
import runfmt
import variants

# The kinds of question (a), in the order of the tables and plots:
# (variant, flight, label), from variants.py; the floor last.
KINDS = sorted([(v.name, fl, v.label + (" flight" if fl and len(v.flights) > 1 else ""))
                for fl in (0, 1) for v in variants.VARIANTS if fl in v.flights and "a" in v.questions],
               key=lambda k: (k[0] == "none", k[1]))


def run_row(run, v, host_cpus):
    """One run (runfmt.Run) and its verdict (accounting.Verdict) as a row."""
    att, ok, refused, ns = (run.per_writer(k) for k in ("attempted", "ok", "refused", "ns"))
    var = variants.of_run(run)
    if not var.result:
        # A peer's writes return nothing: what its system stored and lost.
        # Without one loss count per writer the run fails its accounting
        # (accounting.py) and its row claims nothing stored or lost.
        lost = run.per_writer("peer_lost") if "peer_lost" in run.fields else []
        if len(lost) == len(att):
            refused, ok = lost, [a - x for a, x in zip(att, lost)]
        else:
            refused, ok = [0] * len(att), [0] * len(att)
    hist = run.hist
    reader = run.reader or {}
    window = max(ns) if ns else 0
    ok_total, att_total = sum(ok), sum(att)
    shares = [o / ok_total for o in ok] if ok_total else [float("nan")]
    writers = int(run["writers"])
    readers = 1 if run.get("drain") == "live" else 0
    return {
        "idx": run.idx, "config": runfmt.config_key(run), "q": run["q"],
        "mode": var.name, "flight": int(runfmt.flight(run)),
        "writers": writers, "size": int(run["rec_size"]), "rep": int(run.get("rep", 1)),
        "buffer_per_cpu": int(run.get("subbuf_size", 0)) * int(run.get("n_subbufs", 0)),
        "rate": int(run.get("rate", 0)), "offered": int(run.get("rate", 0)) * writers,
        "drain": run.get("drain", "-"), "dcpu": run.get("dcpu", "-"),
        "reader": run.get("reader", "-"), "parent": int(run.get("parent", 0)),
        "bisect": run.get("bisect", ""),
        "step": int(run.get("step", 0)),
        "verdict": v.verdict, "records_checked": v.records,
        "attempted": att_total, "ok": ok_total, "refused": sum(refused),
        "trace_dropped": int(run.get("trace_dropped", 0)), "trace_refused": int(run.get("trace_refused", 0)),
        "window_ns": window,
        "ns_per_ok": sum(ns) / ok_total if ok_total else float("nan"),
        "ok_per_s": ok_total / window * 1e9 if window else 0.0,
        "drop_frac": sum(refused) / att_total if att_total else 0.0,
        "ended_at_drop": int(bool(sum(refused))),
        "fair_min": min(shares) * writers, "fair_max": max(shares) * writers,
        "p50": latency.percentile(hist, 0.50), "p99": latency.percentile(hist, 0.99),
        "p999": latency.percentile(hist, 0.999), "max": latency.hist_max(hist), "timed": sum(hist),
        "drain_cpu_ms": (int(run.get("peer_cpu_us") or 0) if not var.result else
                         int(reader.get("utime_us", 0)) + int(reader.get("stime_us", 0))) / 1e3,
        "drain_bytes": int(reader.get("bytes", 0)) or sum(int(st.get("bytes", 0)) for st in run.lines("stream")),
        # The reader's system calls, if it counts them (relaytrace); -1 else.
        "drain_syscalls": int(reader.get("syscalls", -1)) if var.result else -1,
        "host_bound": int(writers + readers > host_cpus),
        "live_backwards": v.figures.get("backwards", ""), "live_torn": v.figures.get("torn", ""),
        "live_records": v.figures.get("records", ""),
        "violations": "; ".join(map(str, v.violations)),
    }


def group(rows, *keys):
    out = defaultdict(list)
    for r in rows:
        out[tuple(r[k] for k in keys)].append(r)
    return out


def min_med_max(xs):
    xs = [x for x in xs if x == x]
    if not xs:
        return (float("nan"),) * 3
    return min(xs), statistics.median(xs), max(xs)


def median(rows, key):
    return statistics.median(r[key] for r in rows)


def fmt(x, spec=".1f"):
    return "n/a" if x != x else format(x, spec)


def reference_size(sizes):
    """The record size the plots and ratios use: 64 bytes, or the middle one."""
    return 64 if 64 in sizes else sizes[len(sizes) // 2]


def cost_medians(rows):
    """Question (a): {(mode, flight, writers, size): median ns per
    successful write}."""
    return {k: median(rs, "ns_per_ok")
            for k, rs in group([r for r in rows if r["q"] == "a"], "mode", "flight", "writers", "size").items()}


def ratio(medians, num, den, writers, size):
    """The ratio of two kinds' medians ((mode, flight) each), or nan."""
    n, d = medians.get(num + (writers, size)), medians.get(den + (writers, size))
    return n / d if n is not None and d else float("nan")
