#!/usr/bin/env python3
"""Summarise one `make bench` result folder.

Reads guest.out (R/D/M/E lines from guest-bench.sh), host.txt and
matrix.conf; writes raw.csv, summary.csv, meta.json, report.txt and the
.dat files the gnuplot scripts in plots/ read.  Exits 1 if the accounting
of any non-flight run does not close, or if a run reported an error.
"""
import csv
import json
import statistics
import sys
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import history  # noqa: E402
import meta as metalib  # noqa: E402


def kv(fields):
    return dict(f.split("=", 1) for f in fields if "=" in f)


def ints(s):
    return [int(x) for x in s.split(",") if x != ""]


def parse(out):
    meta, runs, drain, errors = {}, {}, defaultdict(list), []
    for line in out.read_text(errors="replace").splitlines():
        line = line.strip("\r")
        tag, _, rest = line.partition(" ")
        f = rest.split()
        if tag == "M":
            meta.update(kv(f))
        elif tag == "R":
            r = kv(f)
            runs[int(r["idx"])] = r
        elif tag == "D":
            d = kv(f[2:])
            d["_kind"] = f[1]
            drain[int(f[0].split("=")[1])].append(d)
        elif tag == "E":
            errors.append(rest)
    return meta, runs, drain, errors


def analyse(r, dlines):
    att, wr, fl, ns = (ints(r[k]) for k in ("attempted", "written", "failed", "ns"))
    nw = len(att)
    per = {w: {"records": 0, "gaps": 0, "backwards": 0, "last": -1} for w in range(nw)}
    total = next((d for d in dlines if d["_kind"] == "drain"), {})
    bad = int(total.get("bad", -1))
    for d in dlines:
        if d["_kind"] != "writer":
            continue
        w = int(d["cpu"])
        p = per.setdefault(w, {"records": 0, "gaps": 0, "backwards": 0, "last": -1})
        p["records"] += int(d["records"])
        p["gaps"] += int(d["gaps"])
        p["backwards"] += int(d["backwards"])
        p["last"] = max(p["last"], int(d["last_seq"]))
    flight = r["flight"] == "1"
    problems = []
    if not total:
        problems.append("no drainer summary")
    for w in range(nw):
        p = per[w]
        tail = att[w] - 1 - p["last"]
        if att[w] != wr[w] + fl[w]:
            problems.append(f"w{w}: attempted {att[w]} != written {wr[w]} + failed {fl[w]}")
        if flight:
            continue
        if wr[w] != p["records"]:
            problems.append(f"w{w}: written {wr[w]} != drained {p['records']}")
        if fl[w] != p["gaps"] + tail:
            problems.append(f"w{w}: failed {fl[w]} != sequence gaps {p['gaps']} + tail {tail}")
        if p["backwards"]:
            problems.append(f"w{w}: {p['backwards']} records out of order")
    if not flight:
        if sum(fl) != int(r["dropped"]):
            problems.append(f"sum failed {sum(fl)} != dropped {r['dropped']}")
        if bad:
            problems.append(f"{bad} malformed records")
    drained = sum(p["records"] for p in per.values())
    tmax = max(ns) if ns else 0
    return {
        "idx": int(r["idx"]), "mode": r["mode"], "flight": int(flight),
        "writers": nw, "size": int(r["size"]), "rep": int(r["rep"]),
        "attempted": sum(att), "written": sum(wr), "failed": sum(fl),
        "dropped": int(r["dropped"]), "drained": drained,
        "lost_uncounted": 0 if flight else sum(wr) - drained,
        "gaps": sum(p["gaps"] for p in per.values()), "bad": bad,
        "ns_max": tmax, "ns_sum": sum(ns),
        "mrec_s": sum(wr) / tmax * 1e3 if tmax else 0.0,
        "ns_per_write": sum(ns) / sum(att) if sum(att) else 0.0,
        "drain_cpu_ms": (int(total.get("utime_us", 0)) + int(total.get("stime_us", 0))) / 1e3,
        "accounting": "n/a (flight)" if flight else ("ok" if not problems else "FAIL"),
        "problems": "; ".join(problems),
    }


def mmm(xs):
    return min(xs), statistics.median(xs), max(xs)


def main():
    d = Path(sys.argv[1])
    no_history = "--no-history" in sys.argv[2:]
    meta, runs, drain, errors = parse(d / "guest.out")
    host = metalib.read_host(d)
    rows = [analyse(runs[i], drain[i]) for i in sorted(runs)]
    expected = sum(1 for l in (d / "runs.txt").read_text().splitlines() if l.strip())

    with open(d / "raw.csv", "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(rows[0].keys()) if rows else ["idx"])
        w.writeheader()
        w.writerows(rows)

    groups = defaultdict(list)
    for r in rows:
        groups[(r["mode"], r["flight"], r["writers"], r["size"])].append(r)
    summary = []
    for k in sorted(groups, key=lambda k: (k[1], k[3], k[2], k[0])):
        g = groups[k]
        t, n, dr = mmm([r["mrec_s"] for r in g]), mmm([r["ns_per_write"] for r in g]), mmm([r["dropped"] for r in g])
        summary.append({
            "mode": k[0], "flight": k[1], "writers": k[2], "size": k[3], "runs": len(g),
            "mrec_s_min": t[0], "mrec_s_median": t[1], "mrec_s_max": t[2],
            "ns_per_write_min": n[0], "ns_per_write_median": n[1], "ns_per_write_max": n[2],
            "dropped_min": dr[0], "dropped_median": dr[1], "dropped_max": dr[2],
            "drain_cpu_ms_median": statistics.median(r["drain_cpu_ms"] for r in g),
            "accounting": "n/a" if k[1] else ("ok" if all(r["accounting"] == "ok" for r in g) else "FAIL"),
        })
    with open(d / "summary.csv", "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(summary[0].keys()))
        w.writeheader()
        w.writerows(summary)

    m = metalib.base_meta(host, meta)
    m.update({
        "accelerator": host.get("accel", "?"), "vcpus": int(meta.get("cpus", 0) or 0),
        "matrix": host.get("matrix", "?"), "runs_expected": expected, "runs_completed": len(rows),
    })
    (d / "meta.json").write_text(json.dumps(m, indent=2) + "\n")
    cond = (f"{m['accelerator'].upper()}, {m['vcpus']} vCPUs on {m['host_cpus']} host CPUs, "
            f"clocksource {m['guest_clocksource']}, {m['kernel_package']}, series {m['series_hash']}")
    (d / "conditions.txt").write_text(cond + "\n")

    # gnuplot data
    S = {(s["mode"], s["flight"], s["writers"], s["size"]): s for s in summary}
    sizes = sorted({s["size"] for s in summary})
    wlist = sorted({s["writers"] for s in summary})
    ref = 64 if 64 in sizes else sizes[len(sizes) // 2]

    def get(mode, fl, w, sz, key):
        s = S.get((mode, fl, w, sz))
        return s[key] if s else float("nan")

    with open(d / "tput.dat", "w") as f:
        f.write(f"# writers, then med/min/max Mrec/s for global-nf percpu-nf global-f percpu-f, {ref}-byte records\n")
        for w in wlist:
            cols = [w]
            for mode, fl in (("global", 0), ("percpu", 0), ("global", 1), ("percpu", 1)):
                cols += [get(mode, fl, w, ref, k) for k in ("mrec_s_median", "mrec_s_min", "mrec_s_max")]
            f.write(" ".join(f"{c:.4f}" if isinstance(c, float) else str(c) for c in cols) + "\n")
    with open(d / "nsw.dat", "w") as f:
        f.write("# size, then med/min/max ns per write, global-nf percpu-nf global-f percpu-f, 1 writer and max writers\n")
        for sz in sizes:
            cols = [sz]
            for w in (wlist[0], wlist[-1]):
                for mode, fl in (("global", 0), ("percpu", 0), ("global", 1), ("percpu", 1)):
                    cols += [get(mode, fl, w, sz, k) for k in ("ns_per_write_median", "ns_per_write_min", "ns_per_write_max")]
            f.write(" ".join(f"{c:.2f}" if isinstance(c, float) else str(c) for c in cols) + "\n")
    with open(d / "dropped.dat", "w") as f:
        f.write("# label, median dropped records global, percpu (non-flight)\n")
        for sz in sizes:
            for w in wlist:
                f.write(f'"w={w} {sz}B" {get("global", 0, w, sz, "dropped_median")} {get("percpu", 0, w, sz, "dropped_median")}\n')
    with open(d / "ratio.dat", "w") as f:
        f.write("# writers, global/percpu median throughput ratio per size (non-flight): " + " ".join(map(str, sizes)) + "\n")
        for w in wlist:
            vals = []
            for sz in sizes:
                g, p = get("global", 0, w, sz, "mrec_s_median"), get("percpu", 0, w, sz, "mrec_s_median")
                vals.append(g / p if p else float("nan"))
            f.write(f"{w} " + " ".join(f"{v:.4f}" for v in vals) + "\n")
    (d / "sizes.txt").write_text(" ".join(map(str, sizes)) + "\n")

    # report
    L = []
    L.append("relay_trace write-path benchmark")
    L.append(f"conditions: {cond}")
    L.append(f"qemu: {m['qemu']}; host CPU: {m['host_cpu']}; date {m['date']}")
    L.append(f"runs: {len(rows)} of {expected}; each writer is a kthread bound to its CPU, "
             "writing with trace_write() while relay-drain reads every traceN file")
    L.append("Under TCG the times are emulated: compare modes within this report, as ratios; "
             "do not compare absolute figures across machines or boots.")
    L.append("")
    L.append(f"{'mode':7} {'flight':6} {'w':>2} {'size':>5} | {'Mrec/s median [min-max]':>26} | "
             f"{'ns/write med':>12} | {'dropped med':>11} | accounting")
    for s in summary:
        L.append(f"{s['mode']:7} {('yes' if s['flight'] else 'no'):6} {s['writers']:>2} {s['size']:>5} | "
                 f"{s['mrec_s_median']:8.3f} [{s['mrec_s_min']:7.3f}-{s['mrec_s_max']:7.3f}] | "
                 f"{s['ns_per_write_median']:12.1f} | {s['dropped_median']:11.0f} | {s['accounting']}")
    L.append("")
    L.append("global/per-CPU throughput ratio (median, non-flight):")
    L.append("  writers " + " ".join(f"{sz:>7}B" for sz in sizes))
    for w in wlist:
        vals = []
        for sz in sizes:
            g, p = get("global", 0, w, sz, "mrec_s_median"), get("percpu", 0, w, sz, "mrec_s_median")
            vals.append(f"{g / p:8.2f}" if p else "     n/a")
        L.append(f"  {w:>7} " + " ".join(vals))
    nf = [r for r in rows if not r["flight"]]
    bad = [r for r in nf if r["accounting"] != "ok"]
    L.append("")
    L.append(f"accounting (non-flight, per writer, by sequence numbers): {len(nf) - len(bad)}/{len(nf)} runs close "
             f"exactly (written = drained, attempted = drained + dropped); "
             f"records lost without being counted: {sum(r['lost_uncounted'] for r in nf)}")
    for r in bad:
        L.append(f"  FAIL run {r['idx']} ({r['mode']} w={r['writers']} {r['size']}B): {r['problems']}")
    for e in errors:
        L.append(f"  ERROR {e}")
    if len(rows) != expected:
        L.append(f"  ERROR only {len(rows)} of {expected} runs completed")
    (d / "report.txt").write_text("\n".join(L) + "\n")
    if not no_history:
        history.append(d.parent, [
            {"date": m["date"], "series_hash": m["series_hash"], "source": "bench",
             "config": f"{s['mode']}/{'flight' if s['flight'] else 'nonflight'}/w{s['writers']}/{s['size']}",
             "mrec_s": round(s["mrec_s_median"], 3), "ns_per_write": round(s["ns_per_write_median"], 1),
             "dropped": s["dropped_median"]}
            for s in summary])
    return 1 if bad or errors or len(rows) != expected else 0


if __name__ == "__main__":
    sys.exit(main())
