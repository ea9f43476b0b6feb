"""cost: one make bench-cost result folder, and the regression gate.

Reads guest.out (R lines "kind= size= writes= total_ns=" from
relay_cost.ko) and host.txt; writes cost.csv, bench.txt (Go benchmark
format, assume=exact), meta.json, verdict.json (the gate's verdict as
data, which the tests read) and report.txt (printed from the same data);
compares the figures with the committed baseline of this kernel, and
exits 1 if a gated kind's overhead (a trace kind's, or a peer's that the
ratio lines compare with) moved by GATE instruction per write or more,
in either direction; 3 if the baseline was measured under other
conditions (or there is none).  With write_baseline it writes the
baseline instead.  One function per job: measurements, cost_rows, files,
targets, gate, report, history.

Under -icount shift=0,sleep=off a guest nanosecond is one executed
instruction, so the figures are deterministic: the same build gives the
same figures in every boot.  What the unit hides: a locked instruction,
pushf/popf, cli/sti or rdtsc count 1 like any other, and there is one
CPU, so nothing contends -- the cost of the global lock under contention
is make bench's to show, not this.
"""
import csv
import hashlib
import json
from pathlib import Path

import benchfmt
import conditions
import figures
import history
import runfmt

TRACE_KINDS = ("relay_trace_percpu", "relay_trace_global", "relay_trace_flight", "relay_trace_write",
               "relay_trace_write_global", "relay_trace_write_hdr", "relay_trace_printf")
# The kernel's own tracing, written as its users write it (relay_cost.c):
# gated too, as the ratio lines (PEER_RATIOS) compare the series' writes
# with them.  ftrace_rb and ftrace_rb_wrap are not: the ring buffer alone.
# bpf_ringbuf: the same tracepoint with a BPF program on it that writes
# each record into a BPF ring buffer (bench-ringbuf's, make bench's peer);
# lttng: with LTTng's probe on it instead, into an LTTng kernel session's
# channel (make bench's LTTng peer; 6.1 only, host.txt's not_measured
# says why not).
PEER_KINDS = ("ftrace_event_off", "ftrace_event", "trace_array_printk", "bpf_ringbuf", "lttng")
GATED_KINDS = TRACE_KINDS + PEER_KINDS
GATE = 0.5          # instructions of overhead per write: make compare's too
# The conditions a baseline holds: figures from other conditions are not
# comparable.  The series hash is recorded and shown but is not one of
# them: a change of the series is what the gate is for.  kconfig: the
# kernel's .config, so that new options are named as other conditions.
# lttng_modules: the lttng-modules package and the probe's sources that
# the kind lttng ran with (vm/lttng's root.version), "none" without it
# ("?" in a folder from before it was recorded).
BASELINE_CONDITIONS = ("kpkg_version", "qemu", "compiler", "cost_module", "kconfig", "lttng_modules")
# Exit status of make bench-cost, by the gate's verdict.
GATE_STATUS = {"pass": 0, "written": 0, "changed": 1, "other-conditions": 3, "no-baseline": 3}
UNITS = {"instructions/write": {"better": "lower", "assume": "exact"},
         "overhead-instructions/write": {"better": "lower", "assume": "exact"}}
TARGETS = [
    # (name, kind, denominator, limit, what)
    ("relay_trace_write", "relay_trace_write", "relay_raw", 1.25, "relay_trace_write() vs relay_reserve() inline, as blktrace"),
    ("relay_trace_percpu", "relay_trace_percpu", "relay_raw", 1.10, "the provider's per-CPU write path vs relay_raw"),
    ("relay_trace_global", "relay_trace_global", "relay_trace_percpu", 1.25, "the global lock, uncontended (1 writer)"),
]
# relay_trace_write()'s inline path built up from relay_raw one step at a time
# (relay_cost.c, tw_steps()): each step's cost is measured, not counted.
TRACE_WRITE_STEPS = [
    ("relay_raw", "irqs off, relay_reserve(), copy: as blktrace writes"),
    ("relay_commit", "the record shown once copied: relay_prepare(), copy, relay_commit()"),
    ("tw_state", "+ the state and length check (one compare with fast_len), trace->rchan"),
    ("tw_nest", "+ the nesting check: a write in progress on this CPU? (read, test, branch)"),
    ("tw_mark", "+ the write-in-progress mark that check reads (increment, decrement)"),
]
FLOORS = ("empty", "memcpy", "clock")
# The peers' writes against the series' (name, kind, against, what).
PEER_RATIOS = [
    ("ftrace_event / relay_trace_write", "ftrace_event", "relay_trace_write",
     "a TRACE_EVENT() in an ftrace instance vs relay_trace_write() on a per-CPU trace"),
    ("trace_array_printk / relay_trace_printf", "trace_array_printk", "relay_trace_printf",
     "a line of text into an ftrace instance vs into a per-CPU trace, same format and arguments"),
    ("bpf_ringbuf / relay_trace_write", "bpf_ringbuf", "relay_trace_write",
     "a BPF program on the tracepoint, the record into a shared BPF ring buffer, vs relay_trace_write() on a per-CPU trace"),
    ("lttng / relay_trace_write", "lttng", "relay_trace_write",
     "LTTng's probe on the tracepoint, the record into a per-CPU LTTng channel, vs relay_trace_write() on a per-CPU trace"),
]


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


def cost_module(d, host, top):
    """The hash of relay_cost.ko's sources, as bench-cost recorded it in
    host.txt; a folder of format 1 did not record it, and its hash was
    relay_cost.c's alone, computed from the tree, as here."""
    if "cost_module" in host:
        return host["cost_module"]
    return hashlib.sha256((top / "bench-module" / "relay_cost.c").read_bytes()).hexdigest()[:12]


def measurements(out):
    """{(kind, size): (writes, total_ns)} of a guest's output; ValueError
    naming what is wrong with it."""
    if out.bad or out.errors:
        raise ValueError("guest.out: " + "; ".join(out.bad + out.errors))
    raw = {(r["kind"], int(r["size"])): (int(r["writes"]), int(r["total_ns"])) for r in out.cost}
    if not raw:
        raise ValueError("no measurements in guest.out")
    for k in FLOORS + ("relay_raw",):
        if k not in {k for k, _ in raw}:
            raise ValueError(f"guest.out has no '{k}' figures")
    return raw


def cost_rows(raw):
    """The rows of cost.csv: per kind and size, the total (above 'empty'),
    the overhead (above 'memcpy'), net of the clock, and over relay_raw."""
    sizes = sorted({s for _, s in raw})
    kinds = list(dict.fromkeys(k for k, _ in raw))

    def per(k, s):
        n, t = raw[(k, s)]
        return t / n - raw[("empty", s)][1] / raw[("empty", s)][0]

    rows = []
    for k in kinds:
        for s in sizes:
            total = per(k, s)
            rows.append({
                "kind": k, "size": s, "writes": raw[(k, s)][0], "total_ns": raw[(k, s)][1],
                "total": round(total, 2), "overhead": round(total - per("memcpy", s), 2),
                "net_of_clock": round(total - per("memcpy", s) - per("clock", s), 2)
                if k not in FLOORS else "",
                "over_relay_raw": round(total - per("relay_raw", s), 2),
            })
    return rows


def write_files(d, rows, meta):
    with open(d / "cost.csv", "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(rows[0].keys()))
        w.writeheader()
        w.writerows(rows)
    conditions.write(d, meta)
    benchfmt.write(d / "bench.txt", meta, UNITS,
                   [(f"BenchmarkCost/kind={r['kind']}/size={r['size']}", r["writes"],
                     [(f"{r['total']:.2f}", "instructions/write"), (f"{r['overhead']:.2f}", "overhead-instructions/write")])
                    for r in rows])


def targets(by, ref):
    """The targets (TARGETS) at the reference size, as data."""
    out = []
    for name, k, den, limit, what in TARGETS:
        if (k, ref) not in by:
            continue
        num, den_row = by[(k, ref)], by[(den, ref)]
        out.append({"name": name, "kind": k, "denominator": den, "limit": limit, "what": what,
                    "overhead": num["overhead"], "den_overhead": den_row["overhead"],
                    "ratio": num["overhead"] / den_row["overhead"],
                    "met": num["overhead"] / den_row["overhead"] <= limit,
                    "net": num["net_of_clock"], "den_net": den_row["net_of_clock"],
                    "net_ratio": num["net_of_clock"] / den_row["net_of_clock"]})
    return out


def peer_ratios(by, ref):
    """The peers' writes against the series' (PEER_RATIOS) at the
    reference size, total and overhead, as data."""
    out = []
    for name, k, den, what in PEER_RATIOS:
        if (k, ref) not in by or (den, ref) not in by:
            continue
        a, b = by[(k, ref)], by[(den, ref)]
        out.append({"name": name, "kind": k, "against": den, "size": ref, "what": what,
                    "total": a["total"], "against_total": b["total"], "total_ratio": a["total"] / b["total"],
                    "overhead": a["overhead"], "against_overhead": b["overhead"],
                    "overhead_ratio": a["overhead"] / b["overhead"]})
    return out


def gate(by, cond, baseline, write_baseline=False, rows=()):
    """The gate's verdict as data: "pass", "changed" (a gated kind's
    overhead moved by GATE or more, either way), "other-conditions" (the
    baseline's conditions differ), "no-baseline", or "written"."""
    v = {"gate": None, "baseline": str(baseline), "gate_instructions": GATE, "changes": [],
         "conditions_differ": [], "figures": [], "baseline_series": None}
    if write_baseline:
        save_baseline(baseline, cond, rows)
        v["gate"] = "written"
        return v
    if not Path(baseline).exists():
        v["gate"] = "no-baseline"
        return v
    old_cond, old = read_baseline(baseline)
    v["baseline_series"] = old_cond.get("series_hash", "?")
    v["conditions_differ"] = [{"condition": k, "baseline": old_cond.get(k, "?"), "now": cond[k]}
                              for k in BASELINE_CONDITIONS if old_cond.get(k, "?") != cond[k]]
    if "format" in old_cond:
        v["conditions_differ"].append({"condition": "format", "baseline": old_cond["format"],
                                       "now": "kind,size,total,overhead"})
    if v["conditions_differ"]:
        v["gate"] = "other-conditions"
        return v
    for (k, s), o in sorted(old.items()):
        if (k, s) not in by:
            if k in GATED_KINDS:
                v["changes"].append({"kind": k, "size": s, "baseline": o, "now": None, "change": None})
            continue
        n = by[(k, s)]["overhead"]
        changed = k in GATED_KINDS and abs(n - o) >= GATE
        v["figures"].append({"kind": k, "size": s, "baseline": o, "now": n, "changed": changed})
        if changed:
            v["changes"].append({"kind": k, "size": s, "baseline": o, "now": n, "change": round(n - o, 2)})
    v["gate"] = "changed" if v["changes"] else "pass"
    return v


HEADER = [
    "unit: instructions per write (guest ns under -icount), 'empty' (loop, sequence number, timing)",
    "subtracted.  total: all of it; overhead: above 'memcpy' (the copy of the record, 1 instruction per",
    "byte: GCC 12 inlines it as rep movsb, and icount counts each iteration); the relay kinds and",
    "ftrace_rb also take a timestamp (trace_clock_local(): 'clock'); 'net of clock' removes it.",
    "The peers: ftrace_event is the TRACE_EVENT() relay_cost:relay_cost_rec enabled in an ftrace",
    "instance only (its ring buffer stamps it), ftrace_event_off the same enabled nowhere (the",
    "tracepoint's static key); relay_trace_printf and trace_array_printk write the record as a line of",
    "text, same format and arguments (up to 20 bytes longer than the record), into a per-CPU trace",
    "and into the instance, each stamped first -- and trace_array_printk's again by the ring buffer.",
    "bpf_ringbuf: the record stamped, then the same tracepoint with bench-ringbuf's BPF program on it",
    "(raw tracepoint, JIT on, the event enabled nowhere): reserve, copy, submit in one shared BPF ring",
    "buffer that nothing reads while timed, large enough never to fill (none refused: checked).",
    "lttng: the same tracepoint with LTTng's probe on it (lttng-probe-relay-cost.ko, the event enabled",
    "nowhere else), as LTTng stamps and writes it into an LTTng kernel session's discard-mode per-CPU",
    "channel that every record of the stage fits in (cost.sh); none discarded, every one counted by",
    "babeltrace2 (checked).  lttng-sessiond and lttng-consumerd run beside it, never in a timed batch.",
    "icount cannot show what an instruction costs: a locked instruction, pushf/popf, cli/sti or",
    "rdtsc count 1 each, and with one CPU nothing contends -- the global lock's cost under",
    "contention is make bench's (a) to show.",
    "buffers: the relay kinds, ftrace_rb and the instance (ftrace_event, trace_array_printk) are",
    "emptied between batches and never fill or wrap -- every batch leaves all its records in the",
    "instance, none overwritten; relay_trace_flight and ftrace_rb_wrap are never read and overwrite (lap)",
    "their buffers all along; relay_cost.ko checks both and refuses to report otherwise.", ""]


def report_lines(meta, rows, by, ref, goals, verdict, ratios=()):
    """report.txt, printed from the figures, the targets and the gate's data."""
    out = ["relay_trace write-path cost, deterministic (make bench-cost)",
           f"conditions: QEMU TCG -icount shift=0,sleep=off, 1 vCPU; {meta['kernel_package']} ({meta['kernel_release']}), "
           f"series {meta['series_hash']}; {meta['compiler']}; {meta['qemu']}; relay_cost.c {meta['cost_module']}; "
           f"LTTng: {meta['lttng_modules']}; {meta['date']}"]
    if meta.get("not_measured"):
        out.append(f"not measured: {meta['not_measured']}")
    out += HEADER
    out.append(f"{'kind':19} {'size':>5} {'total':>9} {'overhead':>9} {'net of clock':>12} {'vs relay_raw':>12}")
    for r in rows:
        if r["kind"] in FLOORS:
            out.append(f"{r['kind']:19} {r['size']:>5} {r['total']:>9.2f} {'-':>9} {'-':>12} {'-':>12}")
        else:
            out.append(f"{r['kind']:19} {r['size']:>5} {r['total']:>9.2f} {r['overhead']:>9.2f} "
                       f"{r['net_of_clock']:>12.2f} {r['over_relay_raw']:>+12.2f}")
    out += ["", f"targets, on the overhead above memcpy ({ref}-byte records, timestamp included as in every event):"]
    for t in goals:
        net_ok = t["net_ratio"] <= t["limit"]
        out.append(f"  {'MET   ' if t['met'] else 'MISSED'} {t['name']}: {t['overhead']:.2f} / {t['den_overhead']:.2f} = "
                   f"{t['ratio']:.3f} (target <= {t['limit']}: {t['what']})")
        out.append(f"         net of the timestamp: {t['net']:.2f} / {t['den_net']:.2f} = {t['net_ratio']:.3f} "
                   f"({'within' if net_ok else 'above'} {t['limit']}"
                   f"{'' if net_ok else ': the floor, see the steps below' if t['name'] == 'relay_trace_write' else ''})")
    if all((k, ref) in by for k, _ in TRACE_WRITE_STEPS) and ("relay_trace_write", ref) in by:
        tw = by[("relay_trace_write", ref)]["total"]
        out += ["", f"relay_trace_write()'s inline path, built up from relay_raw step by step ({ref} B, measured): the",
                "floor that keeps its promises (state check, interrupts off, NMI nesting guard, length check,",
                "refusals counted -- those on the out-of-line path only):"]
        prev = None
        for k, what in TRACE_WRITE_STEPS:
            t = by[(k, ref)]["total"]
            step = f"{t - prev:+6.2f}" if prev is not None else f"{t:6.2f}"
            out.append(f"  {k:10} {t:8.2f}  {step}  {what}")
            prev = t
        same = abs(prev - tw) < 0.005
        out.append(f"  {'relay_trace_write':10} {tw:8.2f}  "
                   f"{'(the same)' if same else 'DIFFERS: tw_steps() in relay_cost.c no longer matches the header'}")
    if ("ftrace_rb", ref) in by and ("relay_trace_write", ref) in by:
        out.append(f"\ntrace_write / ftrace_rb overhead at {ref} B: {by[('relay_trace_write', ref)]['overhead']:.2f} / "
                   f"{by[('ftrace_rb', ref)]['overhead']:.2f} = "
                   f"{by[('relay_trace_write', ref)]['overhead'] / by[('ftrace_rb', ref)]['overhead']:.3f}")
    if ratios:
        out += ["", f"the peers against the series at {ref} B (total; overhead above memcpy):"]
        for r in ratios:
            out.append(f"  {r['name']}: total {r['total']:.2f} / {r['against_total']:.2f} = {r['total_ratio']:.3f}; "
                       f"overhead {r['overhead']:.2f} / {r['against_overhead']:.2f} = {r['overhead_ratio']:.3f}")
            out.append(f"      ({r['what']})")
    if ("ftrace_event_off", ref) in by:
        out.append(f"  ftrace_event_off: {by[('ftrace_event_off', ref)]['total']:.2f} instructions per call "
                   "with the event enabled nowhere (the tracepoint's static key)")
    g, base = verdict["gate"], verdict["baseline"]
    if g == "written":
        out += ["", f"baseline written: {base}"]
    elif g == "no-baseline":
        out += ["", f"no baseline at {base}: run `make bench-baseline` to create it"]
    else:
        out += ["", f"against the baseline {base} (gate: a change of {GATE} instruction of overhead per write "
                f"or more in a trace kind or a peer's that the ratios use, either way; "
                f"series {verdict['baseline_series']} -> {meta['series_hash']}):"]
        if g == "other-conditions":
            out += [f"  {c['condition']}: baseline '{c['baseline']}', now '{c['now']}'" for c in verdict["conditions_differ"]]
            out.append("baseline from other conditions: run `make bench-baseline`")
        else:
            for f in verdict["figures"]:
                out.append(f"  {f['kind']:19} {f['size']:>5}B {f['baseline']:>9.2f} -> {f['now']:>9.2f}  "
                           f"{f['now'] - f['baseline']:+7.2f}{'  CHANGED' if f['changed'] else ''}")
            for c in verdict["changes"]:
                out.append(f"REGRESSION: {c['kind']} {c['size']}B: " +
                           ("in the baseline, not measured now" if c["now"] is None else
                            f"overhead {c['baseline']:.2f} -> {c['now']:.2f} instructions per write ({c['change']:+.2f})"))
            if verdict["changes"]:
                out.append("A change that is intended (cheaper or dearer) is recorded with `make bench-baseline`, "
                           "committed with it.")
    return out


def main(d, baseline, write_baseline=False, no_history=False):
    top = Path(__file__).resolve().parents[2]
    host = conditions.read_host(d)
    out = runfmt.parse(d / "guest.out")
    rows = cost_rows(measurements(out))
    meta = conditions.base_meta(host, out.meta)
    meta.update({"accelerator": "tcg", "clock": "icount shift=0,sleep=off (guest ns = instructions)",
                 "vcpus": 1, "vcpus_per_host_cpu": None, "unit": "instructions per write",
                 "cost_module": cost_module(d, host, top), "lttng_modules": host.get("lttng_modules", "?")})
    write_files(d, rows, meta)
    by = {(r["kind"], r["size"]): r for r in rows}
    ref = figures.reference_size(sorted({r["size"] for r in rows}))
    goals = targets(by, ref)
    ratios = peer_ratios(by, ref)
    cond = {"kpkg_version": host.get("kpkg_version", "?"), "qemu": meta["qemu"], "compiler": meta["compiler"],
            "cost_module": meta["cost_module"], "kconfig": meta["kconfig"], "lttng_modules": meta["lttng_modules"],
            "series_hash": meta["series_hash"],
            "kernel": meta["kernel"], "date": meta["date"]}
    verdict = gate(by, cond, baseline, write_baseline, rows)
    verdict.update({"format": runfmt.FORMAT, "targets": goals, "ratios": ratios})
    (d / "verdict.json").write_text(json.dumps(verdict, indent=1) + "\n")
    (d / "report.txt").write_text("\n".join(report_lines(meta, rows, by, ref, goals, verdict, ratios)) + "\n")
    if not no_history:
        history.append(d.parent, [
            {"date": meta["date"], "series_hash": meta["series_hash"], "kernel": meta["kernel"], "source": "cost",
             "config": f"{r['kind']}/{r['size']}", "metric": metric, "value": f"{r[metric]:.2f}",
             "unit": "instructions"}
            for r in rows for metric in ("total", "overhead")])
    return GATE_STATUS[verdict["gate"]]


# The kinds' names before the API left the tracepoints' namespace
# (trace_write() became relay_trace_write()): a folder measured before
# reads under the new names, so that make compare pairs them.
RENAMED = {old: "relay_" + old for old in (
    "trace_percpu", "trace_global", "trace_flight", "trace_write", "trace_write_global",
    "trace_write_hdr", "trace_printf")}


def load(d):
    """{(kind, size): (total, overhead)} of a make bench-cost folder."""
    with open(Path(d) / "cost.csv", newline="") as f:
        return {(RENAMED.get(r["kind"], r["kind"]), int(r["size"])): (float(r["total"]), float(r["overhead"]))
                for r in csv.DictReader(f)}


def same(one, two, tolerance=0.02):
    """Whether two make bench-cost folders give the same figures, to the
    rounding of a 100,000-write total (a 1 ns difference in a total moves
    a figure by 0.01): at most `tolerance` instruction per write."""
    a, b = load(one), load(two)
    v = {"pairs": len(a), "largest": 0.0, "where": "", "tolerance": tolerance, "same": True, "why": ""}
    if a.keys() != b.keys() or not a:
        v.update(same=False, why=f"different figures: {sorted(a.keys() ^ b.keys())[:4]}")
        return v
    worst, where = max((abs(x - y), k) for k in a for x, y in zip(a[k], b[k]))
    v.update(largest=round(worst, 4), where=f"{where[0]} {where[1]}B", same=worst <= tolerance)
    if not v["same"]:
        v["why"] = f"more than {tolerance}"
    return v
