"""The tables of report.txt, one function per question, printed from the
rows of figures.py.  Each returns its lines; flag(writers, readers) marks
a figure dominated by host scheduling."""
import statistics
from collections import Counter

from figures import KINDS, cost_medians, fmt, group, median, min_med_max, ratio


def cell(rows, key, spec=".1f", scale=1.0):
    """Median [min-max] of a column."""
    lo, med, hi = min_med_max([r[key] * scale for r in rows])
    return f"{fmt(med, spec)} [{fmt(lo, spec)}-{fmt(hi, spec)}]"


def checked(rows):
    return f"{sum(r['verdict'] == 'ok' for r in rows)}/{len(rows)} ok"


def question_a(rows, sizes, wlist, flag):
    runs = [r for r in rows if r["q"] == "a"]
    if not runs:
        return []
    floor = {k: median(rs, "ns_per_ok")
             for k, rs in group([r for r in runs if r["mode"] == "none"], "writers", "size").items()}
    by_kind = group(runs, "mode", "flight", "writers", "size")
    out = ["", "(a) WRITE-PATH COST UNDER CONTENTION -- nothing reads while the writers write",
           "    flight: read after the writers stop; non-flight: 32 MiB buffers, and each writer's window",
           "    ends at its first refused write (ended@drop counts the runs where one did) or at duration_ms.",
           "    ns/ok: writers' time per successful write; above floor: minus the same loop without the",
           "    write (record, payload, timestamp); M ok/s: all writers' successes per second; latency:",
           "    one write in 16 timed alone (upper bound of its histogram bucket, ns); fairness: the",
           "    smallest and largest writer's share of the successes, times the writers (1 = equal).",
           "    Median [min-max] of the runs."]
    for size in sizes:
        out += ["", f"  {size}-byte records"]
        out.append(f"  {'kind':22} {'w':>2} | {'ns/ok':>24} | {'above floor':>11} | {'M ok/s':>20} | "
                   f"{'p50':>6} {'p99':>6} {'p99.9':>7} {'max':>8} | {'fairness':>11} | ended@drop | checked")
        for mode, fl, label in KINDS:
            for w in wlist:
                rs = by_kind.get((mode, fl, w, size))
                if not rs:
                    continue
                floor_ns = floor.get((w, size))
                above = fmt(median(rs, "ns_per_ok") - floor_ns) if floor_ns is not None and mode != "none" else "-"
                lat = [median(rs, k) for k in ("p50", "p99", "p999", "max")]
                fair = f"{fmt(min(r['fair_min'] for r in rs), '.2f')}-{fmt(max(r['fair_max'] for r in rs), '.2f')}"
                ended = sum(r["ended_at_drop"] for r in rs) if not fl and mode in ("percpu", "global") else "-"
                ok = "n/a" if mode == "none" else checked(rs)
                out.append(f"  {label:22} {w:>2}{flag(w, 0)}| {cell(rs, 'ns_per_ok'):>24} | {above:>11} | "
                           f"{cell(rs, 'ok_per_s', '.3f', 1e-6):>20} | {fmt(lat[0], '.0f'):>6} {fmt(lat[1], '.0f'):>6} "
                           f"{fmt(lat[2], '.0f'):>7} {fmt(lat[3], '.0f'):>8} | {fair:>11} | {str(ended):>10} | {ok}")
    # Ratios within this boot.
    medians = cost_medians(rows)
    out += ["", "  ratios of median ns per successful write, this boot (lower = cheaper than the denominator):",
            f"  {'':34}" + "".join(f"{f'w={w}':>8}" for w in wlist)]

    def ratio_line(label, num, den, size):
        out.append(f"  {label:34}" + "".join(f"{fmt(ratio(medians, num, den, w, size), '8.2f'):>8}" for w in wlist))
    for size in sizes:
        ratio_line(f"{size}B global / per-CPU", ("global", 0), ("percpu", 0), size)
        ratio_line(f"{size}B global / per-CPU (flight)", ("global", 1), ("percpu", 1), size)
        ratio_line(f"{size}B ftrace rb / relay per-CPU flight", ("ftrace", 1), ("percpu", 1), size)
        ratio_line(f"{size}B ftrace rb / relay global flight", ("ftrace", 1), ("global", 1), size)
    return out


def bisections(runs):
    """Question (b): per bisection (its steps, by parent), the highest
    rate achieved with no write refused and every record verified, the
    lowest offered rate that lost writes, with its drop fraction, how the
    bisection ended (status), and the reader's CPU per MB over the whole
    bisection (one relaytrace read all of its steps, at their different
    rates; its drain line is on each step it read).

    status: "converged" (the two rates within the tolerance, b.tol),
    "writers_limit" (no offered rate lost writes: the writers could not
    go faster), "no_lossless" (the lowest rate tried lost writes), or
    "not_converged"."""
    out = []
    for (parent,), steps in sorted(group(runs, "parent").items()):
        clean = [r for r in steps if r["refused"] == 0 and r["verdict"] == "ok"]
        lossy = [r for r in steps if r["refused"] > 0]
        best = max(clean, key=lambda r: r["ok_per_s"], default=None)
        nxt = min(lossy, key=lambda r: r["offered"], default=None)
        s0 = steps[0]
        drained = next((r for r in steps if r["drain_bytes"]), None)
        lo = max(r["offered"] for r in clean) if clean else 0
        hi = nxt["offered"] if nxt else float("inf")
        tol = int(s0["bisect"].split(":")[2]) if s0["bisect"].count(":") == 2 else 0
        if not clean:
            status = "no_lossless"
        elif not nxt:
            status = "writers_limit"
        elif hi * 100 <= lo * (100 + tol) or hi - lo <= s0["writers"]:
            status = "converged"
        else:
            status = "not_converged"
        out.append({"parent": parent, "mode": s0["mode"], "writers": s0["writers"], "reader": s0["reader"],
                    "steps": len(steps), "checked": all(r["verdict"] == "ok" for r in steps),
                    "tol": tol, "status": status,
                    "zero_rate_steps": sum(r["rate"] == 0 for r in steps),
                    "lossless": best["ok_per_s"] if best else float("nan"),
                    "bracket": (lo, hi),
                    "next_drop": nxt["drop_frac"] if nxt else float("nan"),
                    "cpu_ms_per_mb": drained["drain_cpu_ms"] / (drained["drain_bytes"] / 1e6)
                    if drained else float("nan")})
    return out


def bisection_summary(runs):
    """The bisections of question (b), as data (verdict.json's
    "bisections"): how many, how each ended, the steps run at rate 0
    (unlimited: must be none), and the comparison of the two readers."""
    bs = bisections([r for r in runs if r["q"] == "b"])
    by = {s: sum(b["status"] == s for b in bs)
          for s in ("converged", "writers_limit", "no_lossless", "not_converged")}
    return {"count": len(bs), "steps": sum(b["steps"] for b in bs), "by_status": by,
            "all_verified": all(b["checked"] for b in bs),
            "zero_rate_steps": sum(b["zero_rate_steps"] for b in bs),
            "read_vs_mmap": read_vs_mmap([r for r in runs if r["q"] == "b"])}


def b_cell(bs, key, spec, scale=1.0):
    lo, med, hi = min_med_max([b[key] * scale for b in bs])
    return f"{fmt(med, spec)} [{fmt(lo, spec)}-{fmt(hi, spec)}]"


def b_medians(runs):
    """{(mode, writers, reader): (median lossless ok/s, median CPU ms/MB)}."""
    return {k: (min_med_max([b["lossless"] for b in bs])[1], min_med_max([b["cpu_ms_per_mb"] for b in bs])[1])
            for k, bs in group(bisections(runs), "mode", "writers", "reader").items()}


def read_vs_mmap(runs):
    """The comparison of the two readers, as data: per (mode, writers),
    mmap's CPU per MB over read(2)'s and its lossless rate over read(2)'s
    (medians), and the targets: at most half the CPU per MB, and a higher
    lossless rate.  A target is "met", "missed", "undecided" (the rates
    differ by less than the bisections' tolerance) or "n/a" (no figure)."""
    med = b_medians(runs)
    tols = {(b["mode"], b["writers"]): b["tol"] for b in bisections(runs)}
    out = []
    for mode, w in sorted({(m, w) for m, w, _ in med}):
        mm, rd = med.get((mode, w, "mmap")), med.get((mode, w, "read"))
        if not mm or not rd:
            continue
        cpu = mm[1] / rd[1] if rd[1] else float("nan")
        rate = mm[0] / rd[0] if rd[0] else float("nan")
        band = 1 + tols.get((mode, w), 0) / 100
        out.append({"mode": mode, "writers": w, "cpu_ratio": cpu, "rate_ratio": rate,
                    "cpu_target": "n/a" if cpu != cpu else "met" if cpu <= 0.5 else "missed",
                    "rate_target": "n/a" if rate != rate else "met" if rate > band
                    else "missed" if rate <= 1 else "undecided"})
    return out


def question_b(rows, wlist, flag):
    runs = [r for r in rows if r["q"] == "b"]
    if not runs:
        return []
    bs = bisections(runs)
    tol = "the bisection's tolerance"
    out = ["", "(b) LOSSLESS RATE -- writers limited to an aggregate rate, relaytrace reading live",
           "    each configuration is bisected in one boot, with one trace and one relaytrace across its",
           f"    steps, until the highest lossless and the lowest lossy offered rate are within {tol}",
           "    (b.tol); repeated, median [min-max] of the bisections.  lossless: the rate achieved with",
           "    no write refused and every record verified; next: the lowest offered rate that lost writes,",
           "    and its drop fraction; reader CPU: relaytrace's user+system time per MB it recorded, over",
           "    the whole bisection.  relaytrace reads each per-CPU buffer on that buffer's CPU.",
           "",
           f"  {'mode':7} {'w':>2} {'reader':6} | {'lossless M ok/s':>22} | {'next offered M/s':>16} "
           f"{'its drops':>9} | {'reader CPU ms/MB':>22} | bisections"]
    for (mode, w, reader), g in sorted(group(bs, "mode", "writers", "reader").items()):
        nxts = [b["bracket"][1] / 1e6 for b in g]
        nxt = min_med_max(nxts)[1]
        # No step lost writes: the writers' own limit, above the highest rate run.
        nxt_s = fmt(nxt, ".3f") if nxt != float("inf") else \
            f">{fmt(max(b['bracket'][0] for b in g) / 1e6, '.3f')}"
        drop = min_med_max([b["next_drop"] * 100 for b in g])[1]
        ended = ", ".join(f"{n} {s.replace('_', ' ')}" for s, n in sorted(Counter(b["status"] for b in g).items()))
        out.append(f"  {mode:7} {w:>2} {reader:6}{flag(w, 1)}| {b_cell(g, 'lossless', '.3f', 1e-6):>22} | "
                   f"{nxt_s:>16} {fmt(drop, '.1f') + '%':>9} | {b_cell(g, 'cpu_ms_per_mb', '.2f'):>22} | "
                   f"{len(g)} ({ended}), {sum(b['steps'] for b in g)} steps, "
                   f"{'all verified' if all(b['checked'] for b in g) else 'NOT all verified'}")
    cmp = read_vs_mmap(runs)
    if cmp:
        out += ["", "  mmap against read(2), in the same boot (medians); targets: the mmap reader at most half",
                "  the CPU per MB of read(2), and a lossless rate higher by more than the bisections' tolerance",
                "  (undecided: within it):",
                f"  {'mode':7} {'w':>2} | {'CPU/MB mmap / read':>18} | {'lossless mmap / read':>20} | targets"]
        for c in cmp:
            met = [f"CPU {c['cpu_target']}" + (f" ({fmt(c['cpu_ratio'], '.2f')} > 0.50)"
                                               if c["cpu_target"] == "missed" else ""),
                   f"rate {c['rate_target']}"]
            out.append(f"  {c['mode']:7} {c['writers']:>2} | {fmt(c['cpu_ratio'], '.2f'):>18} | "
                       f"{fmt(c['rate_ratio'], '.2f'):>20} | {', '.join(met)}")
    return out


def question_c(rows, flag):
    runs = [r for r in rows if r["q"] == "c"]
    if not runs:
        return []
    nonflight = [r for r in runs if not r["flight"]]
    flight = [r for r in runs if r["flight"]]
    out = ["", "(c) OVERLOAD -- writers as fast as they can, a live reader",
           "    drops: refused writes / attempted writes (all of them counted in the trace's dropped file),",
           "    median [min-max] of the runs."]
    if nonflight:
        out += ["", f"  {'mode':7} {'w':>2} {'size':>5} | {'drop fraction':>22} | {'refused writes':>16} | {'M ok/s':>20} | checked"]
        for (mode, w, size), rs in sorted(group(nonflight, "mode", "writers", "size").items()):
            out.append(f"  {mode:7} {w:>2} {size:>5}{flag(w, 1)}| {cell(rs, 'drop_frac', '.3f'):>22} | "
                       f"{median(rs, 'refused'):>16.0f} | {cell(rs, 'ok_per_s', '.3f', 1e-6):>20} | {checked(rs)}")
    if flight:
        out += ["", "  flight traces read while the writers overwrite them: what the reader saw, as figures",
                "  (relay gives such a reader no consistency guarantee: relaytrace reads them with read(2),",
                "  and the writers may overwrite a sub-buffer while it is copied out)",
                f"  {'mode':7} {'w':>2} {'size':>5} | {'records read':>12} | {'out of order':>18} | {'torn':>18}"]
        for (mode, w, size), rs in sorted(group(flight, "mode", "writers", "size").items()):
            rec = sum(r["live_records"] or 0 for r in rs)
            back = sum(r["live_backwards"] or 0 for r in rs)
            torn = sum(r["live_torn"] or 0 for r in rs)
            out.append(f"  {mode:7} {w:>2} {size:>5}{flag(w, 1)}| {rec:>12} | {back:>8} ({back / rec * 100 if rec else 0:5.2f}%) | "
                       f"{torn:>8} ({torn / (rec + torn) * 100 if rec + torn else 0:5.2f}%)")
    return out
