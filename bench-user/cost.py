#!/usr/bin/env python3
"""Analyse one `make bench-cost` result folder.

Usage: cost.py RESULT_DIR BASELINE_CSV [--write-baseline]

Reads guest.out ("kind size writes total_ns" lines from relay_cost.ko) and
host.txt; writes cost.csv, meta.json and report.txt; compares the trace
modes with the committed baseline and exits 1 if any got more than 2%
slower.  With --write-baseline it replaces the baseline instead.
"""
import csv
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import history  # noqa: E402
import meta as metalib  # noqa: E402

TRACE_MODES = ("trace_percpu", "trace_global", "trace_flight", "trace_write")
LIMIT = 1.02


def main():
    d, base = Path(sys.argv[1]), Path(sys.argv[2])
    write_baseline = "--write-baseline" in sys.argv[3:]
    host = metalib.read_host(d)
    meta, raw = {}, {}
    for line in (d / "guest.out").read_text().splitlines():
        f = line.split()
        if f and f[0] == "M":
            meta.update(x.split("=", 1) for x in f[1:] if "=" in x)
        elif len(f) == 4 and f[1].isdigit():
            raw[(f[0], int(f[1]))] = (int(f[2]), int(f[3]))
    if not raw:
        print("cost.py: no measurements in guest.out", file=sys.stderr)
        return 1
    sizes = sorted({s for _, s in raw})
    kinds = list(dict.fromkeys(k for k, _ in raw))

    def per(k, s):
        n, t = raw[(k, s)]
        return t / n

    rows = []
    for k in kinds:
        for s in sizes:
            net = per(k, s) - per("empty", s)
            rows.append({
                "kind": k, "size": s, "writes": raw[(k, s)][0], "total_ns": raw[(k, s)][1],
                "ns_per_write": round(per(k, s), 2), "net_ns_per_write": round(net, 2),
                "vs_memcpy": round(net / (per("memcpy", s) - per("empty", s)), 3),
                "vs_ftrace_rb": round(net / (per("ftrace_rb", s) - per("empty", s)), 3),
            })
    with open(d / "cost.csv", "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(rows[0].keys()))
        w.writeheader()
        w.writerows(rows)
    m = metalib.base_meta(host, meta)
    m.update({
        "accelerator": "tcg -icount shift=0,sleep=off", "vcpus": 1,
        "unit": "ns of guest time = executed instructions (icount shift 0)",
    })
    (d / "meta.json").write_text(json.dumps(m, indent=2) + "\n")
    net = {(r["kind"], r["size"]): r["net_ns_per_write"] for r in rows}

    L = ["relay_trace write-path cost, deterministic (make bench-cost)",
         f"conditions: QEMU TCG -icount shift=0,sleep=off, 1 vCPU, clocksource {m['guest_clocksource']}, "
         f"{m['kernel_package']}, series {m['series_hash']}, {m['date']}",
         "unit: guest ns, which under -icount are executed instructions; 'empty' (loop + timing) is subtracted",
         "", f"{'kind':13} {'size':>5} {'per write':>10} {'net':>9} {'/memcpy':>8} {'/ftrace_rb':>10}"]
    for r in rows:
        L.append(f"{r['kind']:13} {r['size']:>5} {r['ns_per_write']:>10.2f} {r['net_ns_per_write']:>9.2f} "
                 f"{r['vs_memcpy']:>8.3f} {r['vs_ftrace_rb']:>10.3f}")

    L += ["", "targets (64-byte records):"]

    def target(desc, val, limit, why):
        ok = val <= limit
        L.append(f"  {'MET   ' if ok else 'MISSED'} {desc}: {val:.3f} (target <= {limit}){'' if ok else '  -- ' + why}")

    if ("trace_percpu", 64) in net:
        p, raw_, rb = net[("trace_percpu", 64)], net[("relay_raw", 64)], net[("ftrace_rb", 64)]
        target("trace_percpu / relay_raw", p / raw_, 1.10,
               "the trace layer adds the running check and its own call over raw relay")
        target("trace_percpu / ftrace_rb", p / rb, 0.35,
               "relay's reserve is not that much cheaper than the ring buffer's write here")
        target("trace_global / trace_percpu (1 writer)", net[("trace_global", 64)] / p, 1.25,
               "the uncontended spinlock costs more than a quarter of the path")

    regress = []
    if write_baseline:
        with open(base, "w", newline="") as f:
            f.write(f"# make bench-cost baseline: {m['kernel_package']}, series {m['series_hash']}, {m['date']}\n")
            f.write("# unit: net guest ns (= instructions under -icount) per write; update with make bench-baseline\n")
            w = csv.writer(f)
            w.writerow(["kind", "size", "net_ns_per_write"])
            for r in rows:
                w.writerow([r["kind"], r["size"], f"{r['net_ns_per_write']:.2f}"])
        L += ["", f"baseline written: {base}"]
    elif base.exists():
        old = {}
        with open(base) as f:
            for r in csv.DictReader(l for l in f if not l.startswith("#")):
                old[(r["kind"], int(r["size"]))] = float(r["net_ns_per_write"])
        L += ["", f"against the baseline ({base}; regression limit +{(LIMIT - 1) * 100:.0f}% for trace modes):"]
        for (k, s), o in sorted(old.items()):
            if (k, s) not in net:
                continue
            n = net[(k, s)]
            ch = (n - o) / o * 100 if o else 0.0
            flag = ""
            if k in TRACE_MODES and n > o * LIMIT:
                flag = "  REGRESSION"
                regress.append(f"{k} {s}B: {o:.2f} -> {n:.2f} per write ({ch:+.2f}%)")
            L.append(f"  {k:13} {s:>5}B {o:>9.2f} -> {n:>9.2f}  {ch:+7.2f}%{flag}")
    else:
        L += ["", f"no baseline at {base}: run 'make bench-baseline' to create it"]
    for r in regress:
        L.append(f"REGRESSION: {r} exceeds the 2% limit")
    (d / "report.txt").write_text("\n".join(L) + "\n")

    history.append(d.parent, [
        {"date": m["date"], "series_hash": m["series_hash"], "source": "cost",
         "config": f"{r['kind']}/{r['size']}", "mrec_s": "", "ns_per_write": r["net_ns_per_write"],
         "dropped": ""}
        for r in rows])
    return 1 if regress else 0


if __name__ == "__main__":
    sys.exit(main())
