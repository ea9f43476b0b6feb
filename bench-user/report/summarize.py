"""summarize: one make bench result folder, three questions.

Reads guest.out (runfmt.py), runs.txt and host.txt, and writes, each
from the rows of figures.py:

  raw.csv, summary.csv  one row per run; per configuration min, median, max
  bench.txt             the runs in Go's benchmark format (benchfmt.py)
  meta.json             the conditions (conditions.py)
  verdict.json          the accounting verdict as data (accounting.py):
                        what the tests read
  report.txt            the tables (tables.py) and the verdict, printed
                        from verdict.json's data
  *.dat                 the data of the plots (plotdata.py)

Every run gets the accounting checker's verdict; the exit status is 1 if
any run fails it, if a run is missing, or if the guest reported errors.
"""
import csv
import json

import accounting
import benchfmt
import conditions
import figures
import history
import plotdata
import runfmt
import tables
import variants

SUMMARY_FIGURES = ("ns_per_ok", "ok_per_s", "drop_frac", "p50", "p99", "p999", "fair_min")
# bench.txt: (raw.csv column, unit, better, format).
BENCH_UNITS = [("ns_per_ok", "ns/ok", "lower", ".2f"), ("ok_per_s", "ok/s", "higher", ".0f"),
               ("drop_frac", "drop-frac", "lower", ".6f")]


def write_csv(path, rows):
    with open(path, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(rows[0].keys()))
        w.writeheader()
        w.writerows(rows)


def summary_rows(rows):
    out = []
    for (config,), rs in sorted(figures.group(rows, "config").items()):
        s = {"config": config, "runs": len(rs),
             "verdicts_ok": sum(r["verdict"] in ("ok", "n/a", "figures") for r in rs)}
        for k in SUMMARY_FIGURES:
            s[f"{k}_min"], s[f"{k}_median"], s[f"{k}_max"] = figures.min_med_max([r[k] for r in rs])
        out.append(s)
    return out


def write_bench_txt(path, meta, runs, rows):
    by_idx = {r["idx"]: r for r in rows}
    benchfmt.write(path, meta, {u: {"better": b} for _, u, b, _ in BENCH_UNITS},
                   [(runfmt.bench_name(run), max(by_idx[idx]["ok"], 1),
                     [(figures.fmt(by_idx[idx][k], spec), u) for k, u, _, spec in BENCH_UNITS])
                    for idx, run in sorted(runs.items()) if idx in by_idx])


def verdict_lines(v):
    """The verdict of report.txt, printed from verdict.json's data."""
    fails = [r for r in v["by_run"] if r["verdict"] == "FAIL"]
    out = ["", "VERIFIED: every record read was checked by content (run, writer, sequence, success count,",
           "timestamp, payload) and held against the module's counts (bench-user/report/accounting.py).",
           f"verdict: {v['records_checked']} records checked in {v['runs_checked']} runs; "
           f"violations: non-flight {v['failed_runs']['nonflight']} runs, "
           f"flight read after stop {v['failed_runs']['flight_after_stop']} runs, "
           f"flight read live {v['failed_runs']['flight_live']} of {v['runs_flight_live']} runs "
           "(all must be 0)"
           + (f"; {v['runs_figures_only']} runs give figures only" if v['runs_figures_only'] else "")]
    for r in fails[:20]:
        out.append(f"  FAIL run {r['idx']} {r['config']}: " + "; ".join(x["text"] for x in r["violations"]))
    bv = v.get("by_variant", {})
    if any(not variants.get(n).result for n in bv):
        out.append("per variant: " + "; ".join(
            f"{n} {d['runs']} runs, {d['failed']} failed, {d['records']} records verified by content"
            + (f" ({d['duplicates']} given twice by its consumer, not counted)" if d["duplicates"] else "")
            + (f" (its loss counter also counted {d['lost_other_records']} records of other kinds)"
               if d.get("lost_other_records") else "")
            for n, d in bv.items()))
    b = v.get("bisections")
    if b and b["count"]:
        out.append(f"bisections (b): {b['count']}, {b['steps']} steps; ended: "
                   + ", ".join(f"{n} {s.replace('_', ' ')}" for s, n in b["by_status"].items() if n)
                   + f"; steps at rate 0 (unlimited): {b['zero_rate_steps']} (must be 0)")
    out += [f"  ERROR {e}" for e in v["errors"]]
    if v["runs"]["missing"]:
        out.append(f"  ERROR {v['runs']['missing']} of {v['runs']['planned']} runs did not complete")
    return out


def main(d, no_history=False):
    out = runfmt.parse(d / "guest.out")
    planned = runfmt.parse_runs_txt(d / "runs.txt")
    host = conditions.read_host(d)
    meta = conditions.base_meta(host, out.meta)
    host_cpus = meta["host_cpus"] or 1
    verdicts = {idx: accounting.check(run) for idx, run in out.runs.items()}
    rows = [figures.run_row(out.runs[i], verdicts[i], host_cpus) for i in sorted(out.runs)]
    warm = [r for r in rows if r["q"] == "w"]
    rows = [r for r in rows if r["q"] != "w"]
    if not rows:
        (d / "report.txt").write_text("no runs completed\n")
        return 1

    write_csv(d / "raw.csv", rows)
    summary = summary_rows(rows)
    write_csv(d / "summary.csv", summary)
    meta.update({"matrix": host.get("matrix", "?"), "seed": host.get("seed", "?"),
                 "runs_planned": len(planned), "runs_completed": len(rows) + len(warm)})
    write_bench_txt(d / "bench.txt", meta, {i: run for i, run in out.runs.items() if run["q"] != "w"}, rows)
    conditions.write(d, meta)
    verdict = accounting.folder_verdict(out, verdicts, planned=planned)
    verdict["bisections"] = tables.bisection_summary(rows)
    verdict["which"] = tables.which_data(rows)
    verdict["reader_goals"] = tables.reader_goals(rows, meta["kernel"])
    (d / "verdict.json").write_text(json.dumps(verdict, indent=1) + "\n")

    sizes = sorted({r["size"] for r in rows if r["q"] == "a"} or {r["size"] for r in rows})
    wlist = sorted({r["writers"] for r in rows})

    def flag(w, readers):
        return "*" if w + readers > host_cpus else " "

    lines = ["relay_trace benchmark (make bench)",
             f"conditions: {conditions.line(meta)}",
             f"guest: clocksource {meta['guest_clocksource']}, bpf_jit_enable {meta['guest_bpf_jit']}; "
             f"host CPU: {meta['host_cpu']}; {meta['date']}",
             f"runs: {len(rows)} measured + {len(warm)} warm-up of {len(planned)} planned, in an order shuffled with "
             f"seed {meta['seed']} ({meta['matrix']})",
             *([f"not measured: {meta['not_measured']}"] if meta.get("not_measured") else []),
             "Under TCG, guest time is emulated: compare modes within this report, as ratios.",
             f"* writers + readers exceed the host's {host_cpus} CPUs: dominated by host scheduling, not by the kernel."]
    lines += tables.question_a(rows, sizes, wlist, flag)
    lines += tables.question_b(rows, wlist, flag, meta["kernel"])
    lines += tables.question_c(rows, flag)
    lines += tables.question_which(rows)
    lines += verdict_lines(verdict)
    (d / "report.txt").write_text("\n".join(lines) + "\n")
    plotdata.write_all(d, rows, conditions.plot_lines(meta))

    if not no_history:
        history.append(d.parent, [
            {"date": meta["date"], "series_hash": meta["series_hash"], "kernel": meta["kernel"],
             "source": "bench", "config": s["config"], "metric": "ns_per_ok",
             "value": figures.fmt(s["ns_per_ok_median"], ".2f"), "unit": "emulated ns"}
            for s in summary if s["config"].startswith("a/")])
    return 0 if verdict["verdict"] == "ok" else 1
