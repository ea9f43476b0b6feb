"""cost: one make bench-cost result folder, and the regression gate.

Reads guest.out (R lines "kind= size= writes= total_ns=" from
relay_cost.ko) and host.txt; writes cost.csv, meta.json and report.txt;
compares the figures with the committed baseline of this kernel, and
exits 1 if a trace kind's overhead moved by 0.5 instruction per write or
more, in either direction; 3 if the baseline was measured under other
conditions.  With write_baseline it writes the baseline instead.

Under -icount shift=0,sleep=off a guest nanosecond is one executed
instruction, so the figures are deterministic: the same build gives the
same figures in every boot.  What the unit hides: a locked instruction,
pushf/popf, cli/sti or rdtsc count 1 like any other, and there is one
CPU, so nothing contends -- the cost of the global lock under contention
is make bench's to show, not this.
"""
import csv
import hashlib
import sys
from pathlib import Path

import conditions
import history
import runfmt

TRACE_KINDS = ("trace_percpu", "trace_global", "trace_flight", "trace_write",
               "trace_write_global")
GATE = 0.5          # instructions of overhead per write
# The conditions a baseline holds: figures from other conditions are not
# comparable.  The series hash is recorded and shown but is not one of
# them: a change of the series is what the gate is for.
BASELINE_CONDITIONS = ("kpkg_version", "qemu", "compiler", "cost_module")
TARGETS = [
    # (name, kind, denominator, limit, what)
    ("trace_write", "trace_write", "relay_raw", 1.25, "trace_write() vs relay_reserve() inline, as blktrace"),
    ("trace_percpu", "trace_percpu", "relay_raw", 1.10, "the provider's per-CPU write path vs relay_raw"),
    ("trace_global", "trace_global", "trace_percpu", 1.25, "the global lock, uncontended (1 writer)"),
]
# trace_write()'s inline path built up from relay_raw one step at a time
# (relay_cost.c, tw_steps()): each step's cost is measured, not counted.
TRACE_WRITE_STEPS = [
    ("relay_raw", "irqs off, relay_reserve(), copy: as blktrace writes"),
    ("relay_commit", "the record shown once copied: relay_prepare(), copy, relay_commit()"),
    ("tw_state", "+ the state and length check (one compare with fast_len), trace->rchan"),
    ("tw_nest", "+ the nesting check: a write in progress on this CPU? (read, test, branch)"),
    ("tw_mark", "+ the write-in-progress mark that check reads (increment, decrement)"),
]
FLOORS = ("empty", "memcpy", "clock")


def module_hash(top):
    h = hashlib.sha256()
    for p in ("bench-module/relay_cost.c",):
        h.update((top / p).read_bytes())
    return h.hexdigest()[:12]


def read_baseline(path):
    """(conditions dict, {(kind, size): overhead}) of a baseline file."""
    cond, vals = {}, {}
    lines = Path(path).read_text().splitlines()
    body = []
    for line in lines:
        if line.startswith("# ") and ": " in line:
            k, _, v = line[2:].partition(": ")
            cond[k.strip()] = v.strip()
        elif not line.startswith("#"):
            body.append(line)
    reader = csv.DictReader(body)
    if not {"kind", "size", "overhead"} <= set(reader.fieldnames or ()):
        cond["format"] = f"columns {reader.fieldnames}, not kind,size,total,overhead"
        return cond, vals
    for r in reader:
        vals[(r["kind"], int(r["size"]))] = float(r["overhead"])
    return cond, vals


def save_baseline(path, cond, rows):
    with open(path, "w", newline="") as f:
        f.write("# make bench-cost baseline: overhead above memcpy, instructions per write\n")
        f.write("# (QEMU -icount shift=0,sleep=off, 1 vCPU); rewrite with make bench-baseline\n")
        for k in BASELINE_CONDITIONS + ("series_hash", "kernel", "date"):
            f.write(f"# {k}: {cond.get(k, '?')}\n")
        w = csv.writer(f)
        w.writerow(["kind", "size", "total", "overhead"])
        for r in rows:
            w.writerow([r["kind"], r["size"], f"{r['total']:.2f}", f"{r['overhead']:.2f}"])


def main(d, baseline, write_baseline=False, no_history=False):
    top = Path(__file__).resolve().parents[2]
    host = conditions.read_host(d)
    out = runfmt.parse(d / "guest.out")
    guest = out.meta
    raw = {(r["kind"], int(r["size"])): (int(r["writes"]), int(r["total_ns"])) for r in out.cost}
    if out.bad or out.errors:
        print("cost: guest.out: " + "; ".join(out.bad + out.errors), file=sys.stderr)
        return 1
    if not raw:
        print("cost: no measurements in guest.out", file=sys.stderr)
        return 1
    sizes = sorted({s for _, s in raw})
    kinds = list(dict.fromkeys(k for k, _ in raw))
    for k in ("empty", "memcpy", "clock", "relay_raw"):
        if k not in kinds:
            print(f"cost: guest.out has no '{k}' figures", file=sys.stderr)
            return 1

    def per(k, s):
        n, t = raw[(k, s)]
        return t / n

    rows = []
    for k in kinds:
        for s in sizes:
            total = per(k, s) - per("empty", s)
            mem = per("memcpy", s) - per("empty", s)
            rows.append({
                "kind": k, "size": s, "writes": raw[(k, s)][0], "total_ns": raw[(k, s)][1],
                "total": round(total, 2), "overhead": round(total - mem, 2),
                "net_of_clock": round(total - mem - (per("clock", s) - per("empty", s)), 2)
                if k not in ("empty", "memcpy", "clock") else "",
                "over_relay_raw": round(total - (per("relay_raw", s) - per("empty", s)), 2),
            })
    with open(d / "cost.csv", "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(rows[0].keys()))
        w.writeheader()
        w.writerows(rows)
    m = conditions.base_meta(host, guest)
    m.update({"accelerator": "tcg", "clock": "icount shift=0,sleep=off (guest ns = instructions)",
              "vcpus": 1, "vcpus_per_host_cpu": None, "unit": "instructions per write",
              "cost_module": module_hash(top)})
    conditions.write(d, m)
    by = {(r["kind"], r["size"]): r for r in rows}

    L = ["relay_trace write-path cost, deterministic (make bench-cost)",
         f"conditions: QEMU TCG -icount shift=0,sleep=off, 1 vCPU; {m['kernel_package']} ({m['kernel_release']}), "
         f"series {m['series_hash']}; {m['compiler']}; {m['qemu']}; relay_cost.c {m['cost_module']}; {m['date']}",
         "unit: instructions per write (guest ns under -icount), 'empty' (loop, sequence number, timing)",
         "subtracted.  total: all of it; overhead: above 'memcpy' (the copy of the record, 1 instruction per",
         "byte: GCC 12 inlines it as rep movsb, and icount counts each iteration); the relay kinds and",
         "ftrace_rb also take a timestamp (trace_clock_local(): 'clock'); 'net of clock' removes it.",
         "icount cannot show what an instruction costs: a locked instruction, pushf/popf, cli/sti or",
         "rdtsc count 1 each, and with one CPU nothing contends -- the global lock's cost under",
         "contention is make bench's (a) to show.",
         "buffers: the relay kinds and ftrace_rb are emptied between batches and never fill or wrap;",
         "trace_flight and ftrace_rb_wrap are never read and overwrite (lap) their buffers all along;",
         "relay_cost.ko checks both and refuses to report otherwise.", "",
         f"{'kind':19} {'size':>5} {'total':>9} {'overhead':>9} {'net of clock':>12} {'vs relay_raw':>12}"]
    for r in rows:
        if r["kind"] in FLOORS:
            L.append(f"{r['kind']:19} {r['size']:>5} {r['total']:>9.2f} {'-':>9} {'-':>12} {'-':>12}")
        else:
            L.append(f"{r['kind']:19} {r['size']:>5} {r['total']:>9.2f} {r['overhead']:>9.2f} "
                     f"{r['net_of_clock']:>12.2f} {r['over_relay_raw']:>+12.2f}")

    ref = 64 if 64 in sizes else sizes[len(sizes) // 2]
    L += ["", f"targets, on the overhead above memcpy ({ref}-byte records, timestamp included as in every event):"]
    missed = []
    for name, k, den, limit, what in TARGETS:
        if (k, ref) not in by:
            continue
        a, b = by[(k, ref)], by[(den, ref)]
        val = a["overhead"] / b["overhead"]
        net = a["net_of_clock"] / b["net_of_clock"]
        ok = val <= limit
        if not ok:
            missed.append(name)
        L.append(f"  {'MET   ' if ok else 'MISSED'} {name}: {a['overhead']:.2f} / {b['overhead']:.2f} = {val:.3f} "
                 f"(target <= {limit}: {what})")
        L.append(f"         net of the timestamp: {a['net_of_clock']:.2f} / {b['net_of_clock']:.2f} = {net:.3f} "
                 f"({'within' if net <= limit else 'above'} {limit}{'' if net <= limit else ': the floor, see the steps below' if name == 'trace_write' else ''})")
    if all((k, ref) in by for k, _ in TRACE_WRITE_STEPS) and ("trace_write", ref) in by:
        tw = by[("trace_write", ref)]["total"]
        L += ["", f"trace_write()'s inline path, built up from relay_raw step by step ({ref} B, measured): the",
              "floor that keeps its promises (state check, interrupts off, NMI nesting guard, length check,",
              "refusals counted -- those on the out-of-line path only):"]
        prev = None
        for k, what in TRACE_WRITE_STEPS:
            t = by[(k, ref)]["total"]
            step = f"{t - prev:+6.2f}" if prev is not None else f"{t:6.2f}"
            L.append(f"  {k:10} {t:8.2f}  {step}  {what}")
            prev = t
        same = abs(prev - tw) < 0.005
        L.append(f"  {'trace_write':10} {tw:8.2f}  {'(the same)' if same else 'DIFFERS: tw_steps() in relay_cost.c no longer matches the header'}")
        if not same:
            missed.append("breakdown")
    if ("ftrace_rb", ref) in by and ("trace_write", ref) in by:
        L.append(f"\ntrace_write / ftrace_rb overhead at {ref} B: {by[('trace_write', ref)]['overhead']:.2f} / "
                 f"{by[('ftrace_rb', ref)]['overhead']:.2f} = "
                 f"{by[('trace_write', ref)]['overhead'] / by[('ftrace_rb', ref)]['overhead']:.3f}")

    rc = 0
    cond = {"kpkg_version": host.get("kpkg_version", "?"), "qemu": m["qemu"], "compiler": m["compiler"],
            "cost_module": m["cost_module"], "series_hash": m["series_hash"], "kernel": m["kernel"],
            "date": m["date"]}
    if write_baseline:
        save_baseline(baseline, cond, rows)
        L += ["", f"baseline written: {baseline}"]
    elif Path(baseline).exists():
        old_cond, old = read_baseline(baseline)
        diff = [(k, old_cond.get(k, "?"), cond[k]) for k in BASELINE_CONDITIONS if old_cond.get(k, "?") != cond[k]]
        if "format" in old_cond:
            diff.append(("format", old_cond["format"], "kind,size,total,overhead"))
        L += ["", f"against the baseline {baseline} (gate: a change of {GATE} instruction of overhead per write "
              f"or more in a trace kind, either way; series {old_cond.get('series_hash', '?')} -> {cond['series_hash']}):"]
        if diff:
            for k, a, b in diff:
                L.append(f"  {k}: baseline '{a}', now '{b}'")
            L.append("baseline from other conditions: run `make bench-baseline`")
            rc = 3
        else:
            changes = []
            for (k, s), o in sorted(old.items()):
                if (k, s) not in by:
                    if k in TRACE_KINDS:
                        changes.append(f"{k} {s}B: in the baseline, not measured now")
                    continue
                n = by[(k, s)]["overhead"]
                flag = ""
                if k in TRACE_KINDS and abs(n - o) >= GATE:
                    flag = "  CHANGED"
                    changes.append(f"{k} {s}B: overhead {o:.2f} -> {n:.2f} instructions per write ({n - o:+.2f})")
                L.append(f"  {k:19} {s:>5}B {o:>9.2f} -> {n:>9.2f}  {n - o:+7.2f}{flag}")
            for c in changes:
                L.append(f"REGRESSION: {c}")
            if changes:
                L.append("A change that is intended (cheaper or dearer) is recorded with `make bench-baseline`, "
                         "committed with it.")
                rc = 1
    else:
        L += ["", f"no baseline at {baseline}: run `make bench-baseline` to create it"]
        rc = 3
    (d / "report.txt").write_text("\n".join(L) + "\n")

    if not no_history:
        history.append(d.parent, [
            {"date": m["date"], "series_hash": m["series_hash"], "kernel": m["kernel"], "source": "cost",
             "config": f"{r['kind']}/{r['size']}", "metric": metric, "value": f"{r[metric]:.2f}",
             "unit": "instructions"}
            for r in rows for metric in ("total", "overhead")])
    return rc
