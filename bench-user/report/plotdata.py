"""The data of the plots (plots/*.gp), one self-describing file per plot:
NAME.dat opens with "# key: value" lines -- the title, the conditions
(two lines), the series in the order of the key, and what else the plot
prints -- then a header of column names, which the scripts read columns
by, and one row per point.  gnuplot skips the "#" lines as comments.
"""
from figures import KINDS, cost_medians, fmt, group, median, min_med_max, ratio, reference_size
from tables import bisections


def write(path, about, header, rows):
    """about: [(key, value)], a value of several lines giving as many
    lines of that key; header: the column names; rows: tuples."""
    with open(path, "w") as f:
        for k, v in about:
            for line in str(v).splitlines():
                f.write(f"# {k}: {line}\n")
        f.write(" ".join(header) + "\n")
        for r in rows:
            f.write(" ".join(str(x) if not isinstance(x, float) else fmt(x, ".6g") for x in r) + "\n")


def _name(label):
    """A series name is one word (gnuplot's `for [s in ...]`); the key
    shows "_" as a blank."""
    return label.replace(" ", "_")


def cost_and_latency(d, rows, cond):
    """cost.dat and latency.dat: question (a) against writers, at the
    reference size; cost.dat also has each kind's ratio to relay per-CPU
    (non-flight) at the same writers."""
    runs = [r for r in rows if r["q"] == "a"]
    if not runs:
        return
    size = reference_size(sorted({r["size"] for r in runs}))
    by_kind = group(runs, "mode", "flight", "writers", "size")
    medians = cost_medians(rows)
    series, cost_rows, lat_rows = [], [], []
    for mode, fl, label in KINDS:
        for w in sorted({r["writers"] for r in runs}):
            rs = by_kind.get((mode, fl, w, size))
            if not rs:
                continue
            if _name(label) not in series:
                series.append(_name(label))
            cost_rows.append((_name(label), w) + min_med_max([r["ns_per_ok"] for r in rs])
                             + (ratio(medians, (mode, fl), ("percpu", 0), w, size),))
            if mode != "none":
                lat_rows.append((_name(label), w) + tuple(median(rs, k) for k in ("p50", "p99", "p999"))
                                + (min(r["p99"] for r in rs), max(r["p99"] for r in rs)))
    write(d / "cost.dat", [
        ("title", f"(a) relay_trace write-path cost under contention, {size}-byte records, nothing reading; "
                  "median of runs, bars: min-max"),
        ("conditions", cond), ("size", size), ("series", " ".join(series)),
        ("ratio", "median / relay per-CPU (non-flight) median, same writers")],
        ["series", "writers", "min", "median", "max", "ratio_percpu"], cost_rows)
    write(d / "latency.dat", [
        ("title", f"(a) per-write latency, {size}-byte records: p50 (points) and p99 (bars: min-max of p99 over runs)"),
        ("conditions", cond), ("size", size),
        ("series", " ".join(s for s in series if not s.startswith("floor")))],
        ["series", "writers", "p50", "p99", "p999", "p99min", "p99max"], lat_rows)


def lossless_rate(d, rows, cond):
    """lossless.dat: per mode and reader, the median lossless rate of the
    bisections against writers, bars min-max; and the reader's CPU per MB."""
    runs = [r for r in rows if r["q"] == "b"]
    if not runs:
        return
    series, out = [], []
    for (mode, reader, w), bs in sorted(group(bisections(runs), "mode", "reader", "writers").items()):
        name = f"{mode}_{reader}"
        if name not in series:
            series.append(name)
        out.append((name, w) + tuple(x / 1e6 for x in min_med_max([b["lossless"] for b in bs]))
                   + (min_med_max([b["cpu_ms_per_mb"] for b in bs])[1],))
    write(d / "lossless.dat", [
        ("title", "(b) lossless rate, bisected: rate-limited writers, relaytrace reading through the mapping "
                  "(mmap) or with read(2); median of the bisections, bars: min-max"),
        ("conditions", cond), ("series", " ".join(series))],
        ["series", "writers", "min", "median", "max", "cpu_ms_per_mb"], out)


def overload(d, rows, cond):
    runs = [r for r in rows if r["q"] == "c" and not r["flight"]]
    if not runs:
        return
    series, out = [], []
    for (mode, w, size), rs in sorted(group(runs, "mode", "writers", "size").items()):
        name = f"{mode}_{size}B"
        if name not in series:
            series.append(name)
        out.append((name, w) + min_med_max([r["drop_frac"] for r in rs]))
    write(d / "overload.dat", [
        ("title", "(c) overload: fraction of writes refused with a live reader (median, bars: min-max)"),
        ("conditions", cond), ("series", " ".join(series))],
        ["series", "writers", "min", "median", "max"], out)


def write_all(d, rows, cond):
    cost_and_latency(d, rows, cond)
    lossless_rate(d, rows, cond)
    overload(d, rows, cond)
