"""The data of the plots (plots/*.gp), one self-describing file per plot:
NAME.dat opens with "# key: value" lines -- the title (one or more
lines), the conditions (three lines), the series in the order of the key
with their colours and dash types, and what else the plot prints -- then
a header of column names, which the scripts read columns by, and one row
per point, series by series; a blank line between two rows that must
not be joined by a line (another series, or a writer count that was not
measured in between: gnuplot breaks a line at a blank line).  gnuplot
skips the "#" lines as comments.

A series is named by its variant's label (variants.py), and coloured by
the variant's place in variants.VARIANTS: a system has one colour in
every plot; its flight mode, its other reader or its other record size
is the same colour, dashed.
"""
import tables
import variants
from figures import KINDS, cost_medians, fmt, group, median, min_med_max, ratio, reference_size
from tables import bisections


def write(path, about, header, rows):
    """about: [(key, value)], a value of several lines giving as many
    lines of that key; header: the column names, "series writers" first;
    rows: tuples, each series' rows together, by writers."""
    with open(path, "w") as f:
        for k, v in about:
            for line in str(v).splitlines():
                f.write(f"# {k}: {line}\n")
        f.write(" ".join(header) + "\n")
        prev = None
        for r in rows:
            if prev and (r[0] != prev[0] or r[1] != prev[1] + 1):
                f.write("\n")
            # A figure not measured is "nan": gnuplot's missing value (plots/common.gp).
            f.write(" ".join(str(x) if not isinstance(x, float) else "nan" if x != x else fmt(x, ".6g")
                             for x in r) + "\n")
            prev = r


def _name(label):
    """A series name is one word (gnuplot's `for [s in ...]`); the key
    shows "_" as a blank."""
    return label.replace(" ", "_")


def colour(name):
    """The colour of variant NAME: its place in variants.VARIANTS, from 1
    (plots/common.gp's line types)."""
    return [v.name for v in variants.VARIANTS].index(name) + 1


def _series(styled):
    """The "# series/colours/dashes" lines of [(label, variant, dash)], in
    the order of the key."""
    return [("series", " ".join(_name(l) for l, _, _ in styled)),
            ("colours", " ".join(str(colour(v)) for _, v, _ in styled)),
            ("dashes", " ".join(str(dt) for _, _, dt in styled))]


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
    styled, cost_rows, lat_rows = [], [], []
    for mode, fl, label in KINDS:
        for w in sorted({r["writers"] for r in runs}):
            rs = by_kind.get((mode, fl, w, size))
            if not rs:
                continue
            # A flight mode of a variant that has both is dashed.
            dash = 2 if fl and len(variants.get(mode).flights) > 1 else 1
            if (label, mode, dash) not in styled:
                styled.append((label, mode, dash))
            cost_rows.append((_name(label), w) + min_med_max([r["ns_per_ok"] for r in rs])
                             + (ratio(medians, (mode, fl), ("percpu", 0), w, size),))
            if mode != "none":
                lat_rows.append((_name(label), w) + tuple(median(rs, k) for k in ("p50", "p99", "p999"))
                                + (min(r["p99"] for r in rs), max(r["p99"] for r in rs)))
    write(d / "cost.dat", [
        ("title", f"(a) write-path cost under contention, {size}-byte records, nothing reading\n"
                  "median of the runs, bars: min-max; flight modes dashed"),
        ("conditions", cond), ("size", size)] + _series(styled) + [
        ("ratio", "median / relay per-CPU (non-flight) median, same writers")],
        ["series", "writers", "min", "median", "max", "ratio_percpu"], cost_rows)
    write(d / "latency.dat", [
        ("title", f"(a) per-write latency, {size}-byte records, nothing reading\n"
                  "p99 (median of the runs, bars: min-max) and p50 (crosses); flight modes dashed"),
        ("conditions", cond), ("size", size)] + _series([s for s in styled if s[1] != "none"]),
        ["series", "writers", "p50", "p99", "p999", "p99min", "p99max"], lat_rows)


def lossless_rate(d, rows, cond):
    """lossless.dat: per variant and reader, the median lossless rate of
    the bisections against writers, bars min-max; and the reader's CPU
    per MB."""
    runs = [r for r in rows if r["q"] == "b"]
    if not runs:
        return
    order = [v.name for v in variants.VARIANTS]
    by = group(bisections(runs), "mode", "reader", "writers")
    readers = {m: sorted({rd for (mm, rd, _) in by if mm == m}) for (m, _, _) in by}
    styled, out = [], []
    for (mode, reader, w), bs in sorted(by.items(), key=lambda kv: (order.index(kv[0][0]),) + kv[0][1:]):
        # A peer's reader is its own consumer ("-"): the system's name says it.
        label = variants.get(mode).label + ("" if reader == "-" else f", {reader}")
        if (label, mode, readers[mode].index(reader) + 1) not in styled:
            styled.append((label, mode, readers[mode].index(reader) + 1))
        out.append((_name(label), w) + tuple(x / 1e6 for x in min_med_max([b["lossless"] for b in bs]))
                   + (min_med_max([b["cpu_ms_per_mb"] for b in bs])[1],))
    write(d / "lossless.dat", [
        ("title", "(b) lossless rate, bisected: rate-limited writers, each system's own consumer reading live\n"
                  "(relay: relaytrace through the mapping, mmap, or with read(2), dashed); "
                  "median of the bisections, bars: min-max"),
        ("conditions", cond)] + _series(styled),
        ["series", "writers", "min", "median", "max", "cpu_ms_per_mb"], out)


def overload(d, rows, cond):
    """overload.dat: per variant (and record size, if several), the drop
    fraction under overload against writers, median and min-max of the
    runs (not flight)."""
    runs = [r for r in rows if r["q"] == "c" and not r["flight"]]
    if not runs:
        return
    order = [v.name for v in variants.VARIANTS]
    sizes = sorted({r["size"] for r in runs})
    styled, out = [], []
    for (mode, size, w), rs in sorted(group(runs, "mode", "size", "writers").items(),
                                      key=lambda kv: (order.index(kv[0][0]),) + kv[0][1:]):
        label = variants.get(mode).label + (f" {size}B" if len(sizes) > 1 else "")
        if (label, mode, sizes.index(size) + 1) not in styled:
            styled.append((label, mode, sizes.index(size) + 1))
        out.append((_name(label), w) + min_med_max([r["drop_frac"] for r in rs]))
    write(d / "overload.dat", [
        ("title", "(c) overload: writers as fast as they can, each system's own consumer reading live\n"
                  "fraction of the writes refused or lost, "
                  + (f"{sizes[0]}-byte records" if len(sizes) == 1
                     else "records of " + ", ".join(map(str, sizes)) + " bytes (dashed: the larger)")
                  + "; median of the runs, bars: min-max"),
        ("conditions", cond)] + _series(styled),
        ["series", "writers", "min", "median", "max"], out)


def which(d, rows, cond):
    """which.dat: "Which should I use?" (tables.which_data) drawn.  Per
    system of the table, in its order: the median ns per event of
    question (a) at every writer count measured (the medians the table
    takes its two columns from, at the table's record size), the
    table's lossless rate at 1 and at the most writers (M records/s),
    and, on the system's row of the most writers, the table's consumer
    CPU per MB and drop fraction.  A figure the table has not is nan;
    "# without COLUMN:" names the systems that have none in that column.
    No which.dat if no system has a figure."""
    t = tables.which_data(rows)
    (d / "which.dat").unlink(missing_ok=True)
    size, wmax = t["size"], t["writers_max"]
    meds = cost_medians(rows)
    out = []
    for r in t["rows"]:
        ws = sorted({w for (m, fl, w, sz) in meds if m == r["variant"] and not fl and sz == size} | {1, wmax})
        for w in ws:
            lossless = r["lossless_w1"] if w == 1 else r["lossless_wmax"] if w == wmax else float("nan")
            last = w == wmax
            out.append((_name(r["label"]), w, meds.get((r["variant"], 0, w, size), float("nan")), lossless / 1e6,
                        r["cpu_ms_per_mb"] if last else float("nan"), r["drop_wmax"] if last else float("nan")))
    # A system with no figure at all is left out; with none left, there is
    # no plot (gnuplot has nothing to draw).
    drawn = {x[0] for x in out if any(v == v for v in x[2:])}
    out = [x for x in out if x[0] in drawn]
    t["rows"] = [r for r in t["rows"] if _name(r["label"]) in drawn]
    if not out:
        return
    header = ["series", "writers", "ns_per_event", "lossless_M", "cpu_ms_per_mb", "drop_frac"]
    buffers = ", ".join(f"({q}) " + "/".join(f"{b // 1024} KiB" for b in bs)
                        for q, bs in t["buffer_per_cpu"].items() if bs)
    write(d / "which.dat", [
        ("title", f"Which should I use? -- the report's table drawn: {size}-byte records, medians of this boot\n"
                  f"buffer memory per CPU, the same for every system: {buffers}\n"
                  "(a BPF ringbuf shared by all CPUs gets it times the CPUs)"),
        ("conditions", cond), ("size", size), ("writers_max", wmax)]
        + _series([(r["label"], r["variant"], 1) for r in t["rows"]])
        # Per figure, the systems that have none: absent from its panel.
        + [(f"without {h}", " ".join(_name(r["label"]) for r in t["rows"]
                                     if all(x[i] != x[i] for x in out if x[0] == _name(r["label"]))))
           for i, h in enumerate(header[2:], 2)],
        header, out)


def write_all(d, rows, cond):
    cost_and_latency(d, rows, cond)
    lossless_rate(d, rows, cond)
    overload(d, rows, cond)
    which(d, rows, cond)
