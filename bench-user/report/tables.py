"""The tables of report.txt, one function per question, printed from the
rows of figures.py.  Each returns its lines; flag(writers, readers) marks
a figure dominated by host scheduling."""
import statistics

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


def lossless(runs):
    """Question (b), per (mode, writers): the best lossless run, the next
    offered rate's run that lost, and the reader's CPU per MB."""
    out = []
    for (mode, w), rs in sorted(group(runs, "mode", "writers").items()):
        rs.sort(key=lambda r: r["offered"])
        clean = [r for r in rs if r["refused"] == 0 and r["verdict"] == "ok"]
        best = max(clean, key=lambda r: r["ok_per_s"], default=None)
        nxt = next((r for r in rs if r["refused"] > 0), None)
        cpu = [r["drain_cpu_ms"] / (r["drain_bytes"] / 1e6) for r in clean if r["drain_bytes"]]
        out.append((mode, w, rs, best, nxt, cpu))
    return out


def question_b(rows, wlist, flag):
    runs = [r for r in rows if r["q"] == "b"]
    if not runs:
        return []
    dcpu = runs[0]["dcpu"]
    out = ["", "(b) LOSSLESS RATE -- writers limited to an aggregate rate, a live reader",
           f"    reader: relay-drain, every thread on vCPU {dcpu}, which writer {dcpu} also uses "
           f"when there are more than {dcpu} writers; one run per offered rate.",
           "    lossless: the highest rate achieved with no write refused (the true limit lies below the next",
           "    offered rate); reader CPU: relay-drain's user+system time per MB it drained, in those runs.",
           "",
           f"  {'mode':7} {'w':>2} | {'lossless M ok/s':>15} | {'next offered':>12} {'its drops':>9} | {'reader CPU ms/MB':>16} | checked"]
    nan = float("nan")
    for mode, w, rs, best, nxt, cpu in lossless(runs):
        bound = " (the writers' own limit: they could not offer more)" if best and nxt is None and \
            best["ok_per_s"] < 0.9 * best["offered"] else ""
        out.append(f"  {mode:7} {w:>2}{flag(w, 1)}| {fmt(best['ok_per_s'] / 1e6 if best else nan, '.3f'):>15} | "
                   f"{fmt(nxt['offered'] / 1e6 if nxt else nan, '.3f'):>12} "
                   f"{fmt(nxt['drop_frac'] * 100 if nxt else nan, '.1f') + '%':>9} | "
                   f"{fmt(statistics.median(cpu) if cpu else nan, '.2f'):>16} | {checked(rs)}{bound}")
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
                "  (relay gives such a reader no consistency guarantee; the drainer reads whole sub-buffers",
                "  that poll() reports complete, which the writers may overwrite while they are copied out)",
                f"  {'mode':7} {'w':>2} {'size':>5} | {'records read':>12} | {'out of order':>18} | {'torn':>18}"]
        for (mode, w, size), rs in sorted(group(flight, "mode", "writers", "size").items()):
            rec = sum(r["live_records"] or 0 for r in rs)
            back = sum(r["live_backwards"] or 0 for r in rs)
            torn = sum(r["live_torn"] or 0 for r in rs)
            out.append(f"  {mode:7} {w:>2} {size:>5}{flag(w, 1)}| {rec:>12} | {back:>8} ({back / rec * 100 if rec else 0:5.2f}%) | "
                       f"{torn:>8} ({torn / (rec + torn) * 100 if rec + torn else 0:5.2f}%)")
    return out
