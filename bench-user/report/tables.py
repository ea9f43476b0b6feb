"""The tables of report.txt, one function per question, printed from the
rows of figures.py.  Each returns its lines; flag(writers, readers) marks
a figure dominated by host scheduling."""
import csv
import statistics
from collections import Counter
from pathlib import Path

import variants
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
           "    Peers (the module's tracepoint, recorded by an ftrace instance or a BPF program) have the",
           "    same buffer memory per CPU and nothing consuming; a tracepoint returns nothing, so their",
           "    successes are the attempts minus what the system counted lost.  Median [min-max] of the runs."]
    for size in sizes:
        out += ["", f"  {size}-byte records"]
        out.append(f"  {'kind':26} {'w':>2} | {'ns/ok':>24} | {'above floor':>11} | {'M ok/s':>20} | "
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
                # relay: runs whose window ended at a refused write; a peer
                # (which cannot stop there): runs in which its system lost any.
                ended = sum(r["ended_at_drop"] for r in rs) \
                    if not fl and (mode in ("percpu", "global") or not variants.get(mode).result) else "-"
                ok = "n/a" if mode == "none" else checked(rs)
                out.append(f"  {label:26} {w:>2}{flag(w, 0)}| {cell(rs, 'ns_per_ok'):>24} | {above:>11} | "
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


def within(lo, hi, tol):
    """Whether the rate hi is at most tol percent (b.tol) above the rate
    lo: a bisection stops once its lossless and its lossy rate are so
    close, so that two lossless rates so close are not told apart.  The
    one resolution of question (b): bisections() and at_least() use it."""
    return hi * 100 <= lo * (100 + tol)


def at_least(rate, other, tol):
    """A target "RATE at least OTHER", two lossless rates each found by
    bisections of tolerance tol percent: "met" if RATE is above OTHER by
    more than the tolerance, "missed" if below it by more, "undecided"
    within it."""
    if within(rate, other, tol) and within(other, rate, tol):
        return "undecided"
    return "met" if rate > other else "missed"


def cheaper(cost, other):
    """A target "COST below OTHER", each the (min, max) of its runs' cost
    per event: "met" if the whole of COST's range is below OTHER's,
    "missed" if above it, "undecided" if the two ranges overlap."""
    return "met" if cost[1] < other[0] else "missed" if cost[0] > other[1] else "undecided"


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
        if drained and not variants.get(s0["mode"]).result:
            # A peer's consumer runs once per step: its CPU and bytes, all
            # steps together.
            drained = {"drain_cpu_ms": sum(r["drain_cpu_ms"] for r in steps),
                       "drain_bytes": sum(r["drain_bytes"] for r in steps)}
        lo = max(r["offered"] for r in clean) if clean else 0
        hi = nxt["offered"] if nxt else float("inf")
        tol = int(s0["bisect"].split(":")[2]) if s0["bisect"].count(":") == 2 else 0
        if not clean:
            status = "no_lossless"
        elif not nxt:
            status = "writers_limit"
        elif within(lo, hi, tol) or hi - lo <= s0["writers"]:
            status = "converged"
        else:
            status = "not_converged"
        calls = drained.get("drain_syscalls", -1) if drained else -1
        out.append({"parent": parent, "mode": s0["mode"], "writers": s0["writers"], "reader": s0["reader"],
                    "steps": len(steps), "checked": all(r["verdict"] == "ok" for r in steps),
                    "tol": tol, "status": status,
                    "zero_rate_steps": sum(r["rate"] == 0 for r in steps),
                    "lossless": best["ok_per_s"] if best else float("nan"),
                    "bracket": (lo, hi),
                    "next_drop": nxt["drop_frac"] if nxt else float("nan"),
                    "cpu_ms_per_mb": drained["drain_cpu_ms"] / (drained["drain_bytes"] / 1e6)
                    if drained else float("nan"),
                    "syscalls_per_mb": calls / (drained["drain_bytes"] / 1e6)
                    if drained and calls >= 0 and drained["drain_bytes"] else float("nan")})
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
    """{(mode, writers, reader): (median lossless ok/s, median CPU ms/MB,
    median system calls per MB)}."""
    return {k: tuple(min_med_max([b[key] for b in bs])[1]
                     for key in ("lossless", "cpu_ms_per_mb", "syscalls_per_mb"))
            for k, bs in group(bisections(runs), "mode", "writers", "reader").items()}


# The targets of relaytrace's readers (issue: "a consumer that reads a
# megabyte for a few system calls"): the mmap reader at most this times
# the CPU per MB of read(2) (one copy against two: 0.5 is the bound), the
# system calls per MB at most this fraction of those before the read side
# was rebuilt (bench-user/baselines/syscalls-<kernel>.csv), and the CPU per
# MB at most this fraction of the best peer consumer's.
MMAP_CPU_TARGET = 0.7
SYSCALLS_TARGET = 0.1
PEER_CPU_TARGET = 0.25


def read_vs_mmap(runs):
    """The comparison of the two readers, as data: per (mode, writers),
    mmap's CPU per MB over read(2)'s and its lossless rate over read(2)'s
    (medians), and the targets: at most MMAP_CPU_TARGET times the CPU per
    MB, and a higher lossless rate.  A target is "met", "missed",
    "undecided" (the rates differ by less than the bisections' tolerance:
    at_least()) or "n/a" (no figure)."""
    med = b_medians(runs)
    tols = {(b["mode"], b["writers"]): b["tol"] for b in bisections(runs)}
    out = []
    for mode, w in sorted({(m, w) for m, w, _ in med}):
        mm, rd = med.get((mode, w, "mmap")), med.get((mode, w, "read"))
        if not mm or not rd:
            continue
        cpu = mm[1] / rd[1] if rd[1] else float("nan")
        rate = mm[0] / rd[0] if rd[0] else float("nan")
        out.append({"mode": mode, "writers": w, "cpu_ratio": cpu, "rate_ratio": rate,
                    "cpu_target": "n/a" if cpu != cpu else "met" if cpu <= MMAP_CPU_TARGET else "missed",
                    "rate_target": "n/a" if rate != rate else at_least(mm[0], rd[0], tols.get((mode, w), 0))})
    return out


def syscall_baseline(kernel):
    """The system calls per MB of relaytrace's readers before the read
    side was rebuilt, counted with the same counter (the file's comments
    say how): {(mode, writers, reader): syscalls per MB}, and the file."""
    path = Path(__file__).resolve().parent.parent / "baselines" / f"syscalls-{kernel}.csv"
    if not path.exists():
        return {}, None
    lines = [line for line in path.read_text().splitlines() if line and not line.startswith("#")]
    return {(r["mode"], int(r["writers"]), r["reader"]): float(r["syscalls_per_mb"])
            for r in csv.DictReader(lines)}, path


def reader_goals(rows, kernel):
    """relaytrace's goals in (b), as data: per (mode, writers, reader),
    its system calls per MB against the baseline's (at most
    SYSCALLS_TARGET of it), and at each writer count its CPU per MB
    against the best peer consumer's (at most PEER_CPU_TARGET of it).
    Each "met", "missed" (with the factor) or "n/a" (a figure is missing)."""
    med = b_medians([r for r in rows if r["q"] == "b"])
    base, _ = syscall_baseline(kernel)
    out = []
    for (mode, w, reader), m in sorted(med.items()):
        if not variants.get(mode).result or reader not in ("mmap", "read"):
            continue
        before = base.get((mode, w, reader))
        factor = m[2] / before if before and m[2] == m[2] else float("nan")
        out.append({"goal": "syscalls", "mode": mode, "writers": w, "reader": reader, "now": m[2],
                    "before": before if before else float("nan"), "factor": factor,
                    "status": "n/a" if factor != factor else "met" if factor <= SYSCALLS_TARGET else "missed"})
    for w in sorted({ww for (_, ww, _) in med}):
        rel = [(m[1], f"{mode} {rd}") for (mode, ww, rd), m in med.items()
               if ww == w and variants.get(mode).result and rd in ("mmap", "read") and m[1] == m[1]]
        peers = [(m[1], mode) for (mode, ww, _), m in med.items()
                 if ww == w and not variants.get(mode).result and m[1] == m[1]]
        if not rel or not peers:
            continue
        (r_cpu, r_what), (p_cpu, p_what) = min(rel), min(peers)
        factor = r_cpu / p_cpu if p_cpu else float("nan")
        out.append({"goal": "consumer_cpu", "writers": w, "relay": r_cpu, "relay_reader": r_what,
                    "peer": p_cpu, "peer_mode": p_what, "factor": factor,
                    "status": "n/a" if factor != factor else "met" if factor <= PEER_CPU_TARGET else "missed"})
    return out


def reader_goal_lines(goals, kernel):
    _, path = syscall_baseline(kernel)
    out = ["", f"  relaytrace's goals: system calls per MB at most {SYSCALLS_TARGET} of those counted before the "
           "read side", "  was rebuilt (" + (f"bench-user/baselines/{path.name}" if path else "no baseline for "
                                            f"{kernel}") + f"), and CPU per MB at most {PEER_CPU_TARGET} of the best "
           "peer consumer's:"]
    for g in goals:
        st = g["status"].upper() if g["status"] == "missed" else g["status"]
        if g["goal"] == "syscalls":
            out.append(f"  syscalls/MB {g['mode']:7} w={g['writers']} {g['reader']:4}: {fmt(g['now'], '.0f')} now, "
                       f"{fmt(g['before'], '.0f')} before (x{fmt(g['factor'], '.3f')}): {st}")
        else:
            out.append(f"  CPU ms/MB w={g['writers']}: relaytrace ({g['relay_reader']}) {fmt(g['relay'], '.2f')}, "
                       f"best peer ({g['peer_mode']}) {fmt(g['peer'], '.2f')} (x{fmt(g['factor'], '.3f')}): {st}")
    return out


def question_b(rows, wlist, flag, kernel=None):
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
           "    A peer (variants.py) is read by its own consumer (reader -), which each step starts",
           "    and stops; its CPU per MB is over all the steps, what it spent recording.",
           "",
           f"  {'mode':18} {'w':>2} {'reader':6} | {'lossless M ok/s':>22} | {'next offered M/s':>16} "
           f"{'its drops':>9} | {'reader CPU ms/MB':>22} | {'syscalls/MB':>19} | bisections"]
    for (mode, w, reader), g in sorted(group(bs, "mode", "writers", "reader").items()):
        nxts = [b["bracket"][1] / 1e6 for b in g]
        nxt = min_med_max(nxts)[1]
        # No step lost writes: the writers' own limit, above the highest rate run.
        nxt_s = fmt(nxt, ".3f") if nxt != float("inf") else \
            f">{fmt(max(b['bracket'][0] for b in g) / 1e6, '.3f')}"
        drop = min_med_max([b["next_drop"] * 100 for b in g])[1]
        ended = ", ".join(f"{n} {s.replace('_', ' ')}" for s, n in sorted(Counter(b["status"] for b in g).items()))
        out.append(f"  {mode:18} {w:>2} {reader:6}{flag(w, 1)}| {b_cell(g, 'lossless', '.3f', 1e-6):>22} | "
                   f"{nxt_s:>16} {fmt(drop, '.1f') + '%':>9} | {b_cell(g, 'cpu_ms_per_mb', '.2f'):>22} | "
                   f"{b_cell(g, 'syscalls_per_mb', '.0f'):>19} | "
                   f"{len(g)} ({ended}), {sum(b['steps'] for b in g)} steps, "
                   f"{'all verified' if all(b['checked'] for b in g) else 'NOT all verified'}")
    cmp = read_vs_mmap(runs)
    if cmp:
        out += ["", f"  mmap against read(2), in the same boot (medians); targets: the mmap reader at most "
                f"{MMAP_CPU_TARGET}", "  times the CPU per MB of read(2), and a lossless rate higher by more "
                "than the bisections'", "  tolerance (undecided: within it):",
                f"  {'mode':7} {'w':>2} | {'CPU/MB mmap / read':>18} | {'lossless mmap / read':>20} | targets"]
        for c in cmp:
            met = [f"CPU {c['cpu_target']}" + (f" ({fmt(c['cpu_ratio'], '.2f')} > {MMAP_CPU_TARGET})"
                                               if c["cpu_target"] == "missed" else ""),
                   f"rate {c['rate_target']}"]
            out.append(f"  {c['mode']:7} {c['writers']:>2} | {fmt(c['cpu_ratio'], '.2f'):>18} | "
                       f"{fmt(c['rate_ratio'], '.2f'):>20} | {', '.join(met)}")
    goals = reader_goals(rows, kernel)
    if goals:
        out += reader_goal_lines(goals, kernel)
    return out


def question_c(rows, flag):
    runs = [r for r in rows if r["q"] == "c"]
    if not runs:
        return []
    nonflight = [r for r in runs if not r["flight"]]
    flight = [r for r in runs if r["flight"]]
    out = ["", "(c) OVERLOAD -- writers as fast as they can, a live reader",
           "    drops: refused writes / attempted writes (all of them counted in the trace's dropped file;",
           "    a peer's: what its system counted lost / attempts, checked against the records read),",
           "    median [min-max] of the runs."]
    if nonflight:
        out += ["", f"  {'mode':18} {'w':>2} {'size':>5} | {'drop fraction':>22} | {'refused writes':>16} | {'M ok/s':>20} | checked"]
        for (mode, w, size), rs in sorted(group(nonflight, "mode", "writers", "size").items()):
            out.append(f"  {mode:18} {w:>2} {size:>5}{flag(w, 1)}| {cell(rs, 'drop_frac', '.3f'):>22} | "
                       f"{median(rs, 'refused'):>16.0f} | {cell(rs, 'ok_per_s', '.3f', 1e-6):>20} | {checked(rs)}")
    if flight:
        out += ["", "  flight traces read while the writers overwrite them: what the reader saw",
                "  (a copy the writers overwrote while it was made is dropped, not returned: out of order",
                "  and torn count what got through anyway, and fail the run)",
                f"  {'mode':18} {'w':>2} {'size':>5} | {'records read':>12} | {'out of order':>18} | {'torn':>18}"]
        for (mode, w, size), rs in sorted(group(flight, "mode", "writers", "size").items()):
            rec = sum(r["live_records"] or 0 for r in rs)
            back = sum(r["live_backwards"] or 0 for r in rs)
            torn = sum(r["live_torn"] or 0 for r in rs)
            out.append(f"  {mode:18} {w:>2} {size:>5}{flag(w, 1)}| {rec:>12} | {back:>8} ({back / rec * 100 if rec else 0:5.2f}%) | "
                       f"{torn:>8} ({torn / (rec + torn) * 100 if rec + torn else 0:5.2f}%)")
    return out


def which_data(rows, size=64):
    """"Which should I use?" as data: per variant that records (relay and
    the peers), all of SIZE-byte records (the title's; a question without
    runs of that size has no figure there), the median cost per event at
    1 and at the most writers (a), the median lossless rate at 1 and at
    the most writers and its consumer's CPU per MB (b), the median drop
    fraction at the most writers (c), how it reports loss, whether it is
    NMI-safe and works under lockdown, and whether its records were
    verified by content (every size's runs); then the goals (goals()): relay per-CPU cheaper per event
    than every peer at every writer count, and relaytrace's lossless rate
    at least every peer consumer's, each met, missed or undecided, and
    by how much."""
    sized = [r for r in rows if r["size"] == size]
    meds = cost_medians(sized)
    bmed = b_medians([r for r in sized if r["q"] == "b"])
    wmax = max((r["writers"] for r in rows), default=1)
    out = []
    for v in variants.VARIANTS:
        if v.system == "none" or (v.system == "ftrace" and v.result):
            continue
        rs = [r for r in rows if r["mode"] == v.name]
        if not rs:
            continue

        def b_best(w, i):
            vals = [m[i] for (mode, ww, _), m in bmed.items() if mode == v.name and ww == w and m[i] == m[i]]
            # relaytrace: its better reader.
            return (max(vals) if i == 0 else min(vals)) if vals else float("nan")
        c_rows = [r for r in sized if r["mode"] == v.name and r["q"] == "c" and not r["flight"] and r["writers"] == wmax]
        out.append({"variant": v.name, "label": v.label,
                    "ns_w1": meds.get((v.name, 0, 1, size), float("nan")),
                    "ns_wmax": meds.get((v.name, 0, wmax, size), float("nan")),
                    "lossless_w1": b_best(1, 0), "lossless_wmax": b_best(wmax, 0),
                    "cpu_ms_per_mb": b_best(wmax, 1) if b_best(wmax, 1) == b_best(wmax, 1) else b_best(1, 1),
                    "drop_wmax": statistics.median(r["drop_frac"] for r in c_rows) if c_rows else float("nan"),
                    "loss": v.loss_how, "nmi_safe": v.nmi_safe, "lockdown": v.lockdown,
                    "verified": verified(v, rs)})
    buffers = {q: sorted({r["buffer_per_cpu"] for r in sized if r["q"] == q}) for q in ("a", "b", "c")}
    return {"size": size, "writers_max": wmax, "rows": out, "buffer_per_cpu": buffers,
            "goals": goals(meds, bmed, sized, size)}


def verified(v, rs):
    """Whether a variant's records were verified by content: every run
    checked strictly passed, and records were checked."""
    strict = [r for r in rs if r["verdict"] in ("ok", "FAIL")]
    if v.verify == "counted":
        return "counted only"
    if not strict or not sum(r["records_checked"] for r in strict):
        return "not verified"
    return "by content" if all(r["verdict"] == "ok" for r in strict) else "NOT all verified"


def goals(meds, bmed, rows, size):
    """The peers' goals as data, of ROWS, the runs of SIZE-byte records
    (which_data's): one entry per comparison, relay's figure
    and the peer's (medians), their factor, and a status: "met", "missed"
    or "undecided" (the two not told apart); none where a figure is
    missing.

    cost: relay per-CPU's cost per event below the peer's (cheaper()):
    undecided when the min-max ranges of their runs overlap (relay_range,
    peer_range, of relay_runs and peer_runs runs).  lossless: relaytrace's
    lossless rate (its better reader) at least the peer consumer's
    (at_least()): undecided within the bisections' tolerance (tol,
    percent); relay_bisections, peer_bisections: how many bisections
    each median rests on."""
    out = []
    a_runs = group([r for r in rows if r["q"] == "a"], "mode", "flight", "writers", "size")
    wlist = sorted({r["writers"] for r in rows if r["q"] == "a"})

    def cost_runs(mode, fl, w):
        """[min, max] of a configuration's ns per event, and its runs."""
        xs = [r["ns_per_ok"] for r in a_runs[(mode, fl, w, size)] if r["ns_per_ok"] == r["ns_per_ok"]]
        return [min(xs), max(xs)], len(xs)
    for v in variants.peers():
        # A peer that overwrites is held against relay per-CPU flight.
        fl = int(v.overwrite)
        for w in wlist:
            rel, peer = meds.get(("percpu", fl, w, size)), meds.get((v.name, 0, w, size))
            if rel is None or peer is None or rel != rel or peer != peer or not peer:
                continue
            (rel_range, rel_n), (peer_range, peer_n) = cost_runs("percpu", fl, w), cost_runs(v.name, 0, w)
            out.append({"goal": "cost", "peer": v.name, "writers": w, "relay_flight": fl, "relay": rel, "peer_value": peer,
                        "factor": rel / peer, "status": cheaper(rel_range, peer_range),
                        "relay_range": rel_range, "peer_range": peer_range, "relay_runs": rel_n, "peer_runs": peer_n})
    by_reader = group(bisections([r for r in rows if r["q"] == "b"]), "mode", "writers", "reader")
    for v in variants.peers():
        for w in sorted({ww for (m, ww, _) in bmed if m == v.name}):
            # Each side's better reader (a peer has its consumer's only).
            best = [max(((m[0], rd) for (mode, ww, rd), m in bmed.items() if mode == side and ww == w and m[0] == m[0]),
                        default=None) for side in ("percpu", v.name)]
            if None in best or not best[1][0]:
                continue
            (rel, rel_reader), (peer, peer_reader) = best
            rel_b, peer_b = by_reader[("percpu", w, rel_reader)], by_reader[(v.name, w, peer_reader)]
            tol = max(b["tol"] for b in rel_b + peer_b)
            out.append({"goal": "lossless", "peer": v.name, "writers": w, "relay": rel, "peer_value": peer,
                        "factor": rel / peer, "status": at_least(rel, peer, tol), "tol": tol,
                        "relay_bisections": sum(b["lossless"] == b["lossless"] for b in rel_b),
                        "peer_bisections": sum(b["lossless"] == b["lossless"] for b in peer_b)})
    return out


def question_which(rows):
    d = which_data(rows)
    if not d["rows"]:
        return []
    wm = d["writers_max"]
    out = ["", f"WHICH SHOULD I USE? -- this boot, {d['size']}-byte records; medians; (a) nothing reading,",
           "    (b) lossless rate with each system's own consumer (relay: relaytrace's better reader) and that",
           "    consumer's CPU per MB, (c) drop fraction when overloaded.  Buffer memory per CPU, the same",
           "    for every system (a BPF ringbuf shared by all CPUs gets it times the CPUs): "
           + ", ".join(f"({q}) " + "/".join(f"{b // 1024} KiB" for b in bs) for q, bs in d["buffer_per_cpu"].items() if bs)
           + ".",
           f"  {'system':26} | {'ns/event w=1':>12} {f'w={wm}':>8} | {'lossless M/s w=1':>16} {f'w={wm}':>8} | "
           f"{'CPU ms/MB':>9} | {f'drops w={wm}':>10} | records | NMI-safe | lockdown | loss reported as"]
    for r in d["rows"]:
        out.append(f"  {r['label']:26} | {fmt(r['ns_w1'], '.0f'):>12} {fmt(r['ns_wmax'], '.0f'):>8} | "
                   f"{fmt(r['lossless_w1'] / 1e6, '.3f'):>16} {fmt(r['lossless_wmax'] / 1e6, '.3f'):>8} | "
                   f"{fmt(r['cpu_ms_per_mb'], '.1f'):>9} | {fmt(r['drop_wmax'] * 100, '.1f') + ('%' if r['drop_wmax'] == r['drop_wmax'] else ''):>10} | "
                   f"{r['verified']} | {r['nmi_safe']} | {r['lockdown']} | {r['loss']}")
    if d["goals"]:
        tols = sorted({g["tol"] for g in d["goals"] if g["goal"] == "lossless"})
        out += ["", "  goals (reported, not tested): relay per-CPU cheaper per event than every peer (a peer",
                "  that overwrites, than relay per-CPU flight), and",
                "  relaytrace's lossless rate at least every peer consumer's, at the same buffer memory;",
                "  each figure the median [min-max] of the runs, or the median of the bisections, it names.",
                "  undecided: the two costs' [min-max] overlap, or the two rates are within the bisections'",
                f"  tolerance (b.tol {'/'.join(str(t) for t in tols) or '-'} %):"]
        for g in d["goals"]:
            if g["goal"] == "cost":
                rel = (f"{'flight ' if g.get('relay_flight') else ''}{fmt(g['relay'], '.3f')} ns/event [{fmt(g['relay_range'][0], '.1f')}-"
                       f"{fmt(g['relay_range'][1], '.1f')}] of {g['relay_runs']} runs")
                peer = (f"{fmt(g['peer_value'], '.3f')} [{fmt(g['peer_range'][0], '.1f')}-"
                        f"{fmt(g['peer_range'][1], '.1f')}] of {g['peer_runs']}")
            else:
                n = g["relay_bisections"]
                rel = f"{fmt(g['relay'] / 1e6, '.3f')} lossless M/s of {n} bisection{'' if n == 1 else 's'}"
                peer = f"{fmt(g['peer_value'] / 1e6, '.3f')} of {g['peer_bisections']}"
            out.append(f"  {g['goal']:8} vs {g['peer']:19} w={g['writers']}: relay {rel}, peer {peer} "
                       f"(relay/peer {fmt(g['factor'], '.2f')}): "
                       f"{g['status'].upper() if g['status'] == 'missed' else g['status']}")
    return out
