#!/usr/bin/env python3
"""make docs: the measured figures of the README, docs/*.md and the cover
letters, generated -- never typed -- from their one source each:

  the reference run   docs/reference/ (a make bench folder's report.txt and
                      verdict.json, and the tails of make bench and make
                      test: docs/reference/README says how it was taken)
  the cost baselines  bench-user/baselines/cost-<kernel>.csv
  the fixes           tests/fixes/*.diff's headers
  the steps           tests/steps/*.sh's "# step:" lines

A file holds a generated block between two marker lines:

  <!-- generated: NAME [ARG] -->     (or, in a cover letter: [generated: NAME [ARG]])
  ...
  <!-- end: NAME -->                 ([end: NAME])

`docs.py` rewrites every block from its source; `docs.py --check` (run
by make check) rewrites nothing and fails, naming the file and block,
when a block is not what its source gives.

Usage: docs.py [--check] [FILE...]   (default: README.md docs/*.md
       patches/*/0000-cover-letter.patch)
       docs.py --reference RESULTS_DIR BENCH_LOG TEST_LOG
           make the make bench folder RESULTS_DIR the reference run: its
           report.txt, verdict.json, meta.json and plots (SVG), the last lines
           of make bench's output (BENCH_LOG) and of a make test's
           (TEST_LOG) copied to docs/reference/; then make docs
"""
import csv
import glob
import json
import os
import re
import shutil
import sys
import textwrap

import conditions

TOP = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
REF = os.path.join(TOP, "docs", "reference")
BEGIN = re.compile(r"^(?:<!-- |\[)generated: ([a-z0-9-]+)((?: [^\]>]*?)?)(?: -->|\])\s*$")
END = re.compile(r"^(?:<!-- |\[)end: ([a-z0-9-]+)(?: -->|\])\s*$")


def ref_file(name):
    p = os.path.join(REF, name)
    try:
        with open(p) as f:
            return f.read()
    except OSError as e:
        raise SystemExit(f"docs.py: cannot read {os.path.relpath(p, TOP)}: {e.strerror}") from None


def verdict():
    return json.loads(ref_file("verdict.json"))


def fmt(x, spec):
    return "-" if x is None or x != x else format(x, spec)


def conditions_line():
    return conditions.line(json.loads(ref_file("meta.json")))


def e2e_table(arg):
    """The reference run's "which" rows: ns per event (a), lossless rate
    and its consumer's CPU per MB (b), per system."""
    w = verdict()["which"]
    wm = w["writers_max"]
    out = textwrap.wrap(conditions_line() + f"; {w['size']}-byte records, medians", 68,
                        initial_indent="  ", subsequent_indent="  ") + [
           "",
           f"                            ns/event     lossless M rec/s  consumer",
           f"                           1 w    {wm} w     1 w     {wm} w    CPU ms/MB"]
    for r in w["rows"]:
        if r["variant"] == "ftrace":
            continue
        out.append(f"  {r['label'][:24]:24} {fmt(r['ns_w1'], '.0f'):>5}  {fmt(r['ns_wmax'], '.0f'):>5}"
                   f"   {fmt(r['lossless_w1'] and r['lossless_w1'] / 1e6, '.3f'):>5}   "
                   f"{fmt(r['lossless_wmax'] and r['lossless_wmax'] / 1e6, '.3f'):>5}   "
                   f"{fmt(r['cpu_ms_per_mb'], '.1f'):>7}")
    return out


def report_excerpt(arg):
    """report.txt's "Which should I use?" section and its goals."""
    lines = ref_file("report.txt").splitlines()
    start = next((i for i, l in enumerate(lines) if l.startswith("WHICH SHOULD I USE?")), None)
    if start is None:
        raise SystemExit("docs.py: docs/reference/report.txt has no 'WHICH SHOULD I USE?' section")
    end = start + 1
    while end < len(lines) and (lines[end].startswith(" ") or not lines[end].strip()):
        end += 1
    section = lines[start:end]
    # The goals met are counted, not shown: report.txt has them all.  Their
    # statuses are verdict.json's (met, missed, undecided: only met is
    # left out); its goals are report.txt's goal lines, in their order.
    status = [g["status"] for g in verdict()["which"]["goals"]]
    goals = [l for l in section if re.match(r"^  (cost|lossless) +vs ", l)]
    if len(goals) != len(status) or not all(l.endswith(": " + (s.upper() if s == "missed" else s))
                                            for l, s in zip(goals, status)):
        raise SystemExit("docs.py: docs/reference/report.txt's goal lines are not verdict.json's goals")
    met = {l for l, s in zip(goals, status) if s == "met"}
    shown = [l for l in section if l not in met]
    while shown[-1].strip() == "":
        shown.pop()
    return shown + [f"  ({len(met)} of {len(goals)} goals met, not shown here)"]


def tail(name):
    def gen(arg):
        return ref_file(name).rstrip("\n").splitlines()
    return gen


COST_LABELS = [
    ("relay_raw", "relay_reserve() inline, as blktrace writes"),
    ("relay_trace_write", "relay_trace_write(), per-CPU"),
    ("relay_trace_write_global", "relay_trace_write(), global (lock)"),
    ("relay_trace_write_hdr", "relay_trace_write() with record headers"),
    ("ftrace_rb", "ring_buffer_write(), an ftrace ring buffer"),
    ("ftrace_event", "a TRACE_EVENT into an ftrace instance"),
    ("bpf_ringbuf", "the same tracepoint into a BPF ringbuf"),
    ("lttng", "the same tracepoint into an LTTng channel"),
    ("relay_trace_printf", "relay_trace_printf(), a line of text"),
    ("trace_array_printk", "trace_array_printk(), the same line"),
]


def cost_rows(kernel):
    p = os.path.join(TOP, "bench-user", "baselines", f"cost-{kernel}.csv")
    with open(p) as f:
        rows = list(csv.DictReader(line for line in f if not line.startswith("#")))
    return {r["kind"]: float(r["overhead"]) for r in rows if r["size"] == "64"}


def cost_table(arg):
    """Instructions per 64-byte write above the copy (memcpy), from the
    cost baselines, one column per kernel (ARG: one kernel only)."""
    kernels = [arg] if arg else ["6.1", "6.12"]
    rows = {k: cost_rows(k) for k in kernels}
    out = ["  instructions per 64-byte write, above memcpy   " + "  ".join(f"{k:>6}" for k in kernels),
           "  (QEMU -icount, 1 vCPU: bench-user/baselines/)"]
    for kind, label in COST_LABELS:
        out.append(f"  {label:46} " + "  ".join(f"{rows[k][kind]:6.0f}" if kind in rows[k] else f"{'n/a':>6}"
                                                  for k in kernels))
    return out


def fix_table(arg):
    """The series' fixes, each shown failing without it (make test-fixes)."""
    out = ["| revert (tests/fixes/) | patch | the fix | the check that fails without it |",
           "|---|---|---|---|"]
    for p in sorted(glob.glob(os.path.join(TOP, "tests", "fixes", "*.diff"))):
        head = {}
        with open(p) as f:
            for line in f:
                if not line.startswith("#"):
                    break
                m = re.match(r"^# (patch \d+|test): *(.*)", line)
                if not m:
                    continue
                head.setdefault(m.group(1).split()[0], (m.group(1), m.group(2)))
        patch, fix = head.get("patch", ("?", "?"))
        out.append(f"| {os.path.basename(p)[:-5]} | {patch.split()[1]} | {fix} | {head.get('test', ('', '?'))[1]} |")
    return out


def steps_table(arg):
    """The steps of tests/run, in order, with the variants that run them."""
    out = ["| step (tests/steps/) | runs in | what it checks |", "|---|---|---|"]
    steps = []
    for p in glob.glob(os.path.join(TOP, "tests", "steps", "*.sh")):
        with open(p) as f:
            lines = f.read().splitlines()
        m = re.match(r"^# step: (\d+) (.*)", lines[1])
        what = ""
        for l in lines[2:]:
            if not l.startswith("#"):
                break
            what += " " + l[1:].strip()
        what = re.sub(r"^ *Step(?: \([^)]*\))?: *", "", what).strip()
        what = what.split(". ")[0].rstrip(".")
        steps.append((int(m.group(1)), os.path.basename(p)[:-3], m.group(2), what))
    for _, name, variants, what in sorted(steps):
        out.append(f"| {name} | {variants} | {what} |")
    return out


def detect_table(arg):
    """How often and how fast the model test and the fuzzer find each fix
    undone, from docs/reference/detection.tsv (tests/fixes/detect)."""
    path = os.path.join(TOP, "docs", "reference", "detection.tsv")
    rows, cond, lengths = {}, "", {}
    if not os.path.exists(path):
        return ["Not measured yet: no docs/reference/detection.tsv (tests/fixes/detect writes it)."]
    with open(path) as f:
        for line in f:
            line = line.rstrip("\n")
            if line.startswith("# tests/fixes/detect"):
                cond = line[2:]
            if not line or line.startswith("#"):
                continue
            name, check, seed, result, fast, where, secs = (line.split("\t") + [""] * 7)[:7]
            rows.setdefault(name, {}).setdefault(check, []).append((result, fast, where))
            if check == "fuzz":
                lengths.setdefault(secs or "?", set()).add(name)

    def model(runs):
        if not runs:
            return "not run"
        result, fast, where = runs[0]
        if result == "found":
            m = re.search(r"(\d+) sequences of up to \d+ steps from seed 1: (\d+) failed", where)
            return f"sequence {fast}" + (f" ({m.group(2)} of the first {m.group(1)} failed)" if m else "")
        return {"missed": "not found in 2000 sequences"}.get(result, result)

    def fuzz(runs):
        if not runs:
            return "not run"
        found = [r for r in runs if r[0] != "missed"]
        txt = f"{len(found)} of {len(runs)} seeds"
        fast = sorted(float(r[1]) for r in found if r[0] == "found" and r[1] not in ("", "-"))
        if fast:
            n = len(fast)
            med = fast[n // 2] if n % 2 else (fast[n // 2 - 1] + fast[n // 2]) / 2
            txt += f"; {med:g} s [{fast[0]:g}-{fast[-1]:g}]"
        other = sorted({r[0] for r in found if r[0] != "found"})
        if other:
            txt += " (" + ", ".join(f"{sum(1 for r in found if r[0] == o)} {o}" for o in other) + ")"
        where = sorted({r[2] for r in found if r[0] == "found" and r[2]})
        if where:
            txt += "; by " + ", ".join(where)
        return txt

    def fix_of(name):
        head = {}
        with open(os.path.join(TOP, "tests", "fixes", name + ".diff")) as f:
            for line in f:
                if not line.startswith("#"):
                    break
                m = re.match(r"^# (patch \d+|test): *(.*)", line)
                if m:
                    head.setdefault(m.group(1).split()[0], (m.group(1), m.group(2)))
        return head.get("patch", ("patch ?", ""))[0].split()[1], head.get("test", ("", "?"))[1]

    # The table first (a Markdown table, not fenced text), its conditions
    # below it.
    out = ["| revert | patch | its own check | model test: the first sequence that failed | "
           "fuzzer: seeds that found it; seconds into the run, median [range]; the runs that did |",
           "|---|---|---|---|---|"]
    for name in sorted(rows):
        patch, test = fix_of(name)
        out.append(f"| {name} | {patch} | {test} | {model(rows[name].get('model', []))} | "
                   f"{fuzz(rows[name].get('fuzz', []))} |")
    unmeasured = sorted(n[:-5] for n in os.listdir(os.path.join(TOP, "tests", "fixes"))
                        if n.endswith(".diff") and n[:-5] not in rows)
    # A fuzz run's length is kept with each row: name it once if all share it.
    if len(lengths) == 1:
        runs = f"; each fuzz run {next(iter(lengths))} s long (`--secs`)"
    else:
        runs = "; fuzz runs of " + "; ".join(f"{s} s for {', '.join(sorted(n))}"
                                             for s, n in sorted(lengths.items()))
    out += ["", f"Measured by `{cond}`{runs}." if cond else "Conditions not recorded.",
            "Not measured yet: " + ", ".join(unmeasured) + "." if unmeasured else "Every revert measured."]
    return out


GENERATORS = {
    "detect-table": detect_table,
    "e2e-table": e2e_table,
    "report-excerpt": report_excerpt,
    "bench-tail": tail("bench.tail"),
    "test-tail": tail("test.tail"),
    "cost-table": cost_table,
    "fix-table": fix_table,
    "steps-table": steps_table,
}


def regenerate(text, path):
    """TEXT with every generated block rewritten; the names of the
    blocks that changed."""
    out, changed, lines, i = [], [], text.split("\n"), 0
    while i < len(lines):
        out.append(lines[i])
        m = BEGIN.match(lines[i])
        i += 1
        if not m:
            continue
        name, arg = m.group(1), m.group(2).strip()
        if name not in GENERATORS:
            raise SystemExit(f"docs.py: {path}: no generated block '{name}' (known: {', '.join(GENERATORS)})")
        j = i
        while j < len(lines) and not END.match(lines[j]):
            j += 1
        if j == len(lines) or END.match(lines[j]).group(1) != name:
            raise SystemExit(f"docs.py: {path}: block '{name}' has no end line")
        new = GENERATORS[name](arg)
        if path.endswith(".md") and not (new and new[0].startswith("|")):
            new = ["```"] + new + ["```"]   # text, not a Markdown table: as it is
        if lines[i:j] != new:
            changed.append(f"{name} {arg}".strip())
        out += new
        out.append(lines[j])
        i = j + 1
    return "\n".join(out), changed


REF_FILES = ("report.txt", "verdict.json", "meta.json")
TAIL_LINES = {"bench.tail": 8, "test.tail": 5}


def take_reference(run, bench_log, test_log):
    """Copy the reference run's files into docs/reference/."""
    os.makedirs(REF, exist_ok=True)
    for name in REF_FILES:
        shutil.copy(os.path.join(run, name), os.path.join(REF, name))
    for p in glob.glob(os.path.join(REF, "*.svg")):
        os.remove(p)
    for p in glob.glob(os.path.join(run, "*.svg")):
        shutil.copy(p, REF)
    for log, name in ((bench_log, "bench.tail"), (test_log, "test.tail")):
        with open(log, errors="replace") as f:
            lines = [l.rstrip() for l in f if l.strip()]
        with open(os.path.join(REF, name), "w") as f:
            f.write("\n".join(lines[-TAIL_LINES[name]:]) + "\n")
    print(f"docs/reference/: {', '.join(sorted(os.listdir(REF)))}")


def main(argv):
    if argv[:1] == ["--reference"]:
        if len(argv) != 4:
            print(__doc__.strip())
            return 2
        take_reference(*argv[1:])
        argv = []
    check = "--check" in argv
    files = [a for a in argv if a != "--check"]
    if any(a.startswith("-") for a in files):
        print(__doc__.strip())
        return 0 if "-h" in files or "--help" in files else 2
    if not files:
        files = ["README.md"] + sorted(glob.glob("docs/*.md")) + sorted(glob.glob("patches/*/0000-cover-letter.patch"))
    stale = 0
    for path in files:
        p = os.path.join(TOP, path)
        with open(p) as f:
            text = f.read()
        new, changed = regenerate(text, path)
        for c in changed:
            print(f"{path}: block '{c}' {'differs from' if check else 'rewritten from'} its source")
        stale += len(changed)
        if changed and not check:
            with open(p, "w") as f:
                f.write(new)
    if check and stale:
        print(f"docs.py: {stale} generated block(s) out of date: make docs rewrites them")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
