"""summarize: one make bench result folder, three questions.

Reads guest.out (runfmt.py), runs.txt and host.txt; writes raw.csv (one
row per run), summary.csv (per configuration), bench.txt (Go benchmark
format, for benchstat), meta.json, conditions.txt, report.txt and the
.dat files the gnuplot scripts in plots/ read (by column name).  Every run
gets the accounting checker's verdict (accounting.py); the exit status is
1 if any run fails it, or if runs are missing.

(a) write-path cost under contention: nothing reads while the writers
    write.  ns per successful write = the writers' time / their successful
    writes; successful writes per second = all writers' successes / the
    longest writer's time; the overhead above the floor (mode=none: the
    same loop, record and timestamp, without the write).
(b) lossless rate: rate-limited writers and a live reader; the highest
    aggregate rate with no record refused.
(c) overload: unthrottled writers and a live reader; the fraction of
    writes refused, and what a live reader of a flight trace sees.
"""
import csv
import statistics
from collections import defaultdict
from pathlib import Path

import accounting
import conditions
import history
import runfmt

HIST_BUCKETS = 128


def bucket_bounds(b):
    """[low, high) ns of latency bucket b (relay_bench.c hist_bucket())."""
    if b < 16:
        return b, b + 1
    e, sub = 4 + (b - 16) // 4, (b - 16) % 4
    return (4 + sub) << (e - 2), (5 + sub) << (e - 2)


def percentile(hist, q):
    """The upper bound of the bucket holding quantile q of a histogram."""
    total = sum(hist)
    if not total:
        return float("nan")
    want, acc = q * total, 0
    for b, n in enumerate(hist):
        acc += n
        if acc >= want:
            return bucket_bounds(b)[1]
    return bucket_bounds(len(hist) - 1)[1]


def hist_max(hist):
    top = max((b for b, n in enumerate(hist) if n), default=None)
    return float("nan") if top is None else bucket_bounds(top)[1]


def min_med_max(xs):
    xs = [x for x in xs if x == x]
    if not xs:
        return (float("nan"),) * 3
    return min(xs), statistics.median(xs), max(xs)


def run_row(run, v, host_cpus):
    att, ok, failed, ns = (run.per_writer(k) for k in ("attempted", "ok", "failed", "ns"))
    hist = run.hist
    drain = run.lines("drain")
    d = drain[0] if drain else {}
    window = max(ns) if ns else 0
    ok_total, att_total = sum(ok), sum(att)
    shares = [o / ok_total for o in ok] if ok_total else [float("nan")]
    writers = int(run["writers"])
    readers = 1 if run.get("drain") == "live" else 0
    return {
        "idx": run.idx, "config": runfmt.config_key(run), "q": run["q"],
        "mode": run["mode"], "flight": int(run.get("flight", "0") in ("1", "Y")),
        "writers": writers, "size": int(run["rec_size"]), "rep": int(run.get("rep", 1)),
        "rate": int(run.get("rate", 0)), "offered": int(run.get("rate", 0)) * writers,
        "drain": run.get("drain", "-"), "dcpu": run.get("dcpu", "-"),
        "verdict": v.verdict, "records_checked": v.records,
        "attempted": att_total, "ok": ok_total, "failed": sum(failed),
        "dropped": int(run.get("dropped", 0)), "refused": int(run.get("refused", 0)),
        "window_ns": window,
        "ns_per_ok": sum(ns) / ok_total if ok_total else float("nan"),
        "ok_per_s": ok_total / window * 1e9 if window else 0.0,
        "drop_frac": sum(failed) / att_total if att_total else 0.0,
        "ended_at_drop": int(bool(sum(failed))),
        "fair_min": min(shares) * writers, "fair_max": max(shares) * writers,
        "p50": percentile(hist, 0.50), "p99": percentile(hist, 0.99),
        "p999": percentile(hist, 0.999), "max": hist_max(hist), "timed": sum(hist),
        "drain_cpu_ms": (int(d.get("utime_us", 0)) + int(d.get("stime_us", 0))) / 1e3,
        "drain_bytes": int(d.get("bytes", 0)),
        "host_bound": int(writers + readers > host_cpus),
        "live_backwards": v.figures.get("backwards", ""), "live_torn": v.figures.get("torn", ""),
        "live_records": v.figures.get("records", ""),
        "violations": "; ".join(v.violations),
    }


def group(rows, *keys):
    g = defaultdict(list)
    for r in rows:
        g[tuple(r[k] for k in keys)].append(r)
    return g


def fmt(x, spec=".1f"):
    return "n/a" if x != x else format(x, spec)


def cell(rs, k, spec=".1f", scale=1.0):
    lo, med, hi = min_med_max([r[k] * scale for r in rs])
    return f"{fmt(med, spec)} [{fmt(lo, spec)}-{fmt(hi, spec)}]"


def write_dat(path, header, rows):
    """A .dat file for gnuplot: a header line of column names, then rows."""
    with open(path, "w") as f:
        f.write(" ".join(header) + "\n")
        for r in rows:
            f.write(" ".join(str(x) if not isinstance(x, float) else fmt(x, ".6g") for x in r) + "\n")


def question_a(rows, L, d, sizes, wlist, flag):
    a = [r for r in rows if r["q"] == "a"]
    if not a:
        return
    floor = {k: statistics.median(r["ns_per_ok"] for r in rs)
             for k, rs in group([r for r in a if r["mode"] == "none"], "writers", "size").items()}
    g = group(a, "mode", "flight", "writers", "size")
    kinds = [("percpu", 0, "relay per-CPU"), ("global", 0, "relay global"),
             ("percpu", 1, "relay per-CPU flight"), ("global", 1, "relay global flight"),
             ("ftrace", 1, "ftrace ring buffer"), ("none", 0, "floor (no write)")]
    L += ["", "(a) WRITE-PATH COST UNDER CONTENTION -- nothing reads while the writers write",
          "    flight: read after the writers stop; non-flight: 32 MiB buffers, and each writer's window",
          "    ends at its first refused write (ended@drop counts the runs where one did) or at duration_ms.",
          "    ns/ok: writers' time per successful write; above floor: minus the same loop without the",
          "    write (record, payload, timestamp); M ok/s: all writers' successes per second; latency:",
          "    one write in 16 timed alone (upper bound of its histogram bucket, ns); fairness: the",
          "    smallest and largest writer's share of the successes, times the writers (1 = equal).",
          "    Median [min-max] of the runs."]
    for s in sizes:
        L += ["", f"  {s}-byte records"]
        L.append(f"  {'kind':22} {'w':>2} | {'ns/ok':>24} | {'above floor':>11} | {'M ok/s':>20} | "
                 f"{'p50':>6} {'p99':>6} {'p99.9':>7} {'max':>8} | {'fairness':>11} | ended@drop | checked")
        for mode, fl, label in kinds:
            for w in wlist:
                rs = g.get((mode, fl, w, s))
                if not rs:
                    continue
                med = statistics.median(r["ns_per_ok"] for r in rs)
                fl_ns = floor.get((w, s))
                above = fmt(med - fl_ns) if fl_ns is not None and mode != "none" else "-"
                lat = [statistics.median(r[k] for r in rs) for k in ("p50", "p99", "p999", "max")]
                fair = f"{fmt(min(r['fair_min'] for r in rs), '.2f')}-{fmt(max(r['fair_max'] for r in rs), '.2f')}"
                ended = sum(r["ended_at_drop"] for r in rs) if not fl and mode in ("percpu", "global") else "-"
                checked = "n/a" if mode == "none" else f"{sum(r['verdict'] == 'ok' for r in rs)}/{len(rs)} ok"
                L.append(f"  {label:22} {w:>2}{flag(w, 0)}| {cell(rs, 'ns_per_ok'):>24} | {above:>11} | "
                         f"{cell(rs, 'ok_per_s', '.3f', 1e-6):>20} | {fmt(lat[0], '.0f'):>6} {fmt(lat[1], '.0f'):>6} "
                         f"{fmt(lat[2], '.0f'):>7} {fmt(lat[3], '.0f'):>8} | {fair:>11} | {str(ended):>10} | {checked}")
    # Ratios within this boot.
    L += ["", "  ratios of median ns per successful write, this boot (lower = cheaper than the denominator):",
          f"  {'':34}" + "".join(f"{f'w={w}':>8}" for w in wlist)]

    def ratio_line(label, num, den, s):
        vals = []
        for w in wlist:
            n, dd = g.get(num + (w, s)), g.get(den + (w, s))
            if n and dd:
                vals.append(f"{statistics.median(r['ns_per_ok'] for r in n) / statistics.median(r['ns_per_ok'] for r in dd):8.2f}")
            else:
                vals.append(f"{'n/a':>8}")
        L.append(f"  {label:34}" + "".join(vals))
    for s in sizes:
        ratio_line(f"{s}B global / per-CPU", ("global", 0), ("percpu", 0), s)
        ratio_line(f"{s}B global / per-CPU (flight)", ("global", 1), ("percpu", 1), s)
        ratio_line(f"{s}B ftrace rb / relay per-CPU flight", ("ftrace", 1), ("percpu", 1), s)
        ratio_line(f"{s}B ftrace rb / relay global flight", ("ftrace", 1), ("global", 1), s)
    # Plot data: ns per successful write and latency against writers, at
    # the middle size.
    ref = 64 if 64 in sizes else sizes[len(sizes) // 2]
    series, lat_rows, cost_rows = [], [], []
    for mode, fl, label in kinds:
        name = label.replace(" ", "_")
        for w in wlist:
            rs = g.get((mode, fl, w, ref))
            if not rs:
                continue
            if name not in series:
                series.append(name)
            cost_rows.append((name, w) + min_med_max([r["ns_per_ok"] for r in rs]))
            if mode != "none":
                lat_rows.append((name, w) + tuple(statistics.median(r[k] for r in rs) for k in ("p50", "p99", "p999"))
                                + (min(r["p99"] for r in rs), max(r["p99"] for r in rs)))
    write_dat(d / "cost.dat", ["series", "writers", "min", "median", "max"], cost_rows)
    write_dat(d / "latency.dat", ["series", "writers", "p50", "p99", "p999", "p99min", "p99max"], lat_rows)
    (d / "cost.series").write_text(" ".join(series) + "\n")
    (d / "latency.series").write_text(" ".join(s for s in series if not s.startswith("floor")) + "\n")
    (d / "ref_size.txt").write_text(f"{ref}\n")


def question_b(rows, L, d, wlist, flag):
    b = [r for r in rows if r["q"] == "b"]
    if not b:
        return
    L += ["", "(b) LOSSLESS RATE -- writers limited to an aggregate rate, a live reader",
          f"    reader: relay-drain, every thread on vCPU {b[0]['dcpu']}, which writer {b[0]['dcpu']} also uses "
          f"when there are more than {b[0]['dcpu']} writers; one run per offered rate.",
          "    lossless: the highest rate achieved with no write refused (the true limit lies below the next",
          "    offered rate); reader CPU: relay-drain's user+system time per MB it drained, in those runs.",
          "",
          f"  {'mode':7} {'w':>2} | {'lossless M ok/s':>15} | {'next offered':>12} {'its drops':>9} | {'reader CPU ms/MB':>16} | checked"]
    rows_dat, series = [], []
    for (mode, w), rs in sorted(group(b, "mode", "writers").items()):
        rs.sort(key=lambda r: r["offered"])
        clean = [r for r in rs if r["failed"] == 0 and r["verdict"] == "ok"]
        best = max(clean, key=lambda r: r["ok_per_s"], default=None)
        nxt = next((r for r in rs if r["failed"] > 0), None)
        cpu = [r["drain_cpu_ms"] / (r["drain_bytes"] / 1e6) for r in clean if r["drain_bytes"]]
        checked = f"{sum(r['verdict'] == 'ok' for r in rs)}/{len(rs)} ok"
        bound = " (the writers' own limit: they could not offer more)" if best and nxt is None and \
            best["ok_per_s"] < 0.9 * best["offered"] else ""
        L.append(f"  {mode:7} {w:>2}{flag(w, 1)}| {fmt(best['ok_per_s'] / 1e6 if best else float('nan'), '.3f'):>15} | "
                 f"{fmt(nxt['offered'] / 1e6 if nxt else float('nan'), '.3f'):>12} "
                 f"{fmt(nxt['drop_frac'] * 100 if nxt else float('nan'), '.1f') + '%':>9} | "
                 f"{fmt(statistics.median(cpu) if cpu else float('nan'), '.2f'):>16} | {checked}{bound}")
        if mode not in series:
            series.append(mode)
        rows_dat.append((mode, w, best["ok_per_s"] / 1e6 if best else float("nan"),
                         nxt["offered"] / 1e6 if nxt else float("nan")))
    write_dat(d / "lossless.dat", ["series", "writers", "lossless", "next_offered"], rows_dat)
    (d / "lossless.series").write_text(" ".join(series) + "\n")


def question_c(rows, L, d, sizes, wlist, flag):
    c = [r for r in rows if r["q"] == "c"]
    if not c:
        return
    nf = [r for r in c if not r["flight"]]
    fl = [r for r in c if r["flight"]]
    L += ["", "(c) OVERLOAD -- writers as fast as they can, a live reader",
          "    drops: refused writes / attempted writes (all of them counted in the trace's dropped file),",
          "    median [min-max] of the runs."]
    if nf:
        L += ["", f"  {'mode':7} {'w':>2} {'size':>5} | {'drop fraction':>22} | {'refused writes':>16} | {'M ok/s':>20} | checked"]
        rows_dat, series = [], []
        for (mode, w, s), rs in sorted(group(nf, "mode", "writers", "size").items()):
            L.append(f"  {mode:7} {w:>2} {s:>5}{flag(w, 1)}| {cell(rs, 'drop_frac', '.3f'):>22} | "
                     f"{statistics.median(r['failed'] for r in rs):>16.0f} | {cell(rs, 'ok_per_s', '.3f', 1e-6):>20} | "
                     f"{sum(r['verdict'] == 'ok' for r in rs)}/{len(rs)} ok")
            name = f"{mode}_{s}B"
            if name not in series:
                series.append(name)
            rows_dat.append((name, w) + min_med_max([r["drop_frac"] for r in rs]))
        write_dat(d / "overload.dat", ["series", "writers", "min", "median", "max"], rows_dat)
        (d / "overload.series").write_text(" ".join(series) + "\n")
    if fl:
        L += ["", "  flight traces read while the writers overwrite them: what the reader saw, as figures",
              "  (relay gives such a reader no consistency guarantee; the drainer reads whole sub-buffers",
              "  that poll() reports complete, which the writers may overwrite while they are copied out)",
              f"  {'mode':7} {'w':>2} {'size':>5} | {'records read':>12} | {'out of order':>18} | {'torn':>18}"]
        for (mode, w, s), rs in sorted(group(fl, "mode", "writers", "size").items()):
            rec = sum(r["live_records"] or 0 for r in rs)
            back = sum(r["live_backwards"] or 0 for r in rs)
            torn = sum(r["live_torn"] or 0 for r in rs)
            L.append(f"  {mode:7} {w:>2} {s:>5}{flag(w, 1)}| {rec:>12} | {back:>8} ({back / rec * 100 if rec else 0:5.2f}%) | "
                     f"{torn:>8} ({torn / (rec + torn) * 100 if rec + torn else 0:5.2f}%)")


def main(d, no_history=False):
    out = runfmt.parse(d / "guest.out")
    planned = runfmt.parse_runs_txt(d / "runs.txt")
    host = conditions.read_host(d)
    m = conditions.base_meta(host, out.meta)
    host_cpus = m["host_cpus"] or 1
    verdicts = {idx: accounting.check(run) for idx, run in out.runs.items()}
    rows = [run_row(out.runs[i], verdicts[i], host_cpus) for i in sorted(out.runs)]
    warm = [r for r in rows if r["q"] == "w"]
    rows = [r for r in rows if r["q"] != "w"]
    if not rows:
        (d / "report.txt").write_text("no runs completed\n")
        return 1

    with open(d / "raw.csv", "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(rows[0].keys()))
        w.writeheader()
        w.writerows(rows)
    summary = []
    for key, rs in sorted(group(rows, "config").items()):
        s = {"config": key[0], "runs": len(rs), "verdicts_ok": sum(r["verdict"] in ("ok", "n/a", "figures") for r in rs)}
        for k in ("ns_per_ok", "ok_per_s", "drop_frac", "p50", "p99", "p999", "fair_min"):
            s[f"{k}_min"], s[f"{k}_median"], s[f"{k}_max"] = min_med_max([r[k] for r in rs])
        summary.append(s)
    with open(d / "summary.csv", "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(summary[0].keys()))
        w.writeheader()
        w.writerows(summary)
    with open(d / "bench.txt", "w") as f:
        for k, v in m.items():
            f.write(f"{k}: {v}\n")
        for r in rows:
            name = runfmt.bench_name(r["config"])
            f.write(f"{name} {max(r['ok'], 1)} {fmt(r['ns_per_ok'], '.2f')} ns/ok "
                    f"{fmt(r['ok_per_s'], '.0f')} ok/s {fmt(r['drop_frac'], '.6f')} drop-frac\n")

    m.update({"matrix": host.get("matrix", "?"), "seed": host.get("seed", "?"),
              "runs_planned": len(planned), "runs_completed": len(rows) + len(warm)})
    conditions.write(d, m)

    sizes = sorted({r["size"] for r in rows if r["q"] == "a"} or {r["size"] for r in rows})
    wlist = sorted({r["writers"] for r in rows})

    def flag(w, readers):
        return "*" if w + readers > host_cpus else " "

    L = ["relay_trace benchmark (make bench)",
         f"conditions: {conditions.line(m)}",
         f"guest: clocksource {m['guest_clocksource']}; host CPU: {m['host_cpu']}; {m['date']}",
         f"runs: {len(rows)} measured + {len(warm)} warm-up of {len(planned)} planned, in an order shuffled with "
         f"seed {m['seed']} ({m['matrix']})",
         "Under TCG, guest time is emulated: compare modes within this report, as ratios.",
         f"* writers + readers exceed the host's {host_cpus} CPUs: dominated by host scheduling, not by the kernel."]
    question_a(rows, L, d, sizes, wlist, flag)
    question_b(rows, L, d, wlist, flag)
    question_c(rows, L, d, sizes, wlist, flag)

    # The verdict.
    strict = [r for r in rows if r["verdict"] in ("ok", "FAIL")]
    fails = [r for r in rows if r["verdict"] == "FAIL"]
    nf = [r for r in strict if not r["flight"]]
    fa = [r for r in strict if r["flight"]]
    live = [r for r in rows if r["verdict"] == "figures"]
    L += ["", "VERIFIED: every record read was checked by content (run, writer, sequence, success count,",
          "timestamp, payload) and held against the module's counts (bench-user/report/accounting.py).",
          f"verdict: {sum(r['records_checked'] for r in strict)} records checked in {len(strict)} runs; "
          f"violations: non-flight {sum(r['verdict'] == 'FAIL' for r in nf)} runs, "
          f"flight read after stop {sum(r['verdict'] == 'FAIL' for r in fa)} runs (both must be 0); "
          f"flight read live: {len(live)} runs, figures only"]
    for r in fails[:20]:
        L.append(f"  FAIL run {r['idx']} {r['config']}: {r['violations']}")
    errors = out.errors + out.bad + [f"run {r.idx}: {e}" for r in out.runs.values() for e in r.errors]
    for e in errors:
        L.append(f"  ERROR {e}")
    missing = len(planned) - len(rows) - len(warm)
    if missing:
        L.append(f"  ERROR {missing} of {len(planned)} runs did not complete")
    (d / "report.txt").write_text("\n".join(L) + "\n")

    if not no_history:
        history.append(d.parent, [
            {"date": m["date"], "series_hash": m["series_hash"], "kernel": m["kernel"],
             "source": "bench", "config": s["config"], "metric": "ns_per_ok",
             "value": fmt(s["ns_per_ok_median"], ".2f"), "unit": "emulated ns"}
            for s in summary if s["config"].startswith("a/")])
    return 1 if fails or errors or missing else 0
