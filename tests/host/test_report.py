#!/usr/bin/env python3
"""The formats of bench-user/report/ on small inputs, each shown
accepting good input and rejecting broken input: the run format's one
parser (runfmt.py: D lines' keys read from the uapi header, R lines
against runs.txt, format 1's names), the Go benchmark format (benchfmt.py)
and the verdict data (accounting.py); and the goals' statuses (tables.py),
met or missed only beyond the measurements' resolution.  Prints "ok -
..." and "not ok - ..." lines (tests/lib/host.sh's form), for
tests/host/report.sh.
"""
import itertools
import sys
import tempfile
from pathlib import Path

TOP = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(TOP / "bench-user" / "report"))
import accounting  # noqa: E402
import benchfmt  # noqa: E402
import figures  # noqa: E402
import runfmt  # noqa: E402
import tables  # noqa: E402
from tap import done, ok  # noqa: E402



def rejects(fn, text):
    try:
        fn(text)
    except ValueError as e:
        return str(e)
    return None


# ---- runfmt: D lines, their keys from relay_bench.h
keys = runfmt.D_KEYS
ok(set(keys) == {"file", "stream", "writer", "drain", "text"} and "utime_us" in keys["drain"] and "path" in keys["file"],
   f"runfmt: the D lines' kinds and keys come from relay_bench.h's formats: {', '.join(keys)}")
probe = Path(tempfile.mkdtemp()) / "h.h"
probe.write_text('#define RELAY_BENCH_DRAIN_FMT \\\n\t"drain files=%u " \\\n\t"cpu=%d\\n"\n')
ok(runfmt.d_line_keys(probe) == {"drain": ("files", "cpu")},
   "runfmt: a format string over several lines gives its kind and keys", str(runfmt.d_line_keys(probe)))

R = "R idx=3 of=9 q=c rep=1 drain=live dcpu=3 mode=percpu flight=0 writers=1 rec_size=64 " \
    "attempted=10 ok=8 refused=2 ns=5 last_ts=1 trace_dropped=2 trace_refused=0 hist=\n"
drain = "D idx=3 drain " + " ".join(f"{k}=1" for k in keys["drain"]) + "\n"
out = runfmt.parse(R + drain)
ok(not out.bad and out.runs[3].reader is not None, "runfmt: a drain line with every key of its format parses")
out = runfmt.parse(R + drain.replace(" cpu=1", ""))
ok(out.bad and "without cpu" in out.bad[0], "runfmt: a drain line without one of its keys is refused, naming it",
   *out.bad)
out = runfmt.parse(R + "D idx=3 frob x=1\n")
ok(out.bad and "unknown kind 'frob'" in out.bad[0], "runfmt: a D line of a kind relay_bench.h does not define is refused")
out = runfmt.parse(R + "D drain idx=3 " + " ".join(f"{k}=1" for k in keys["drain"]) + "\n")
ok(not out.bad and out.runs[3].reader, "runfmt: idx= may stand anywhere on a D line")

# R lines: format 1's names read under this format's
old = R.replace("refused=2", "failed=2").replace("trace_dropped=2 trace_refused=0", "dropped=2 refused=0")
out = runfmt.parse(old)
run = out.runs[3]
ok(out.format == 1 and run.per_writer("refused") == [2] and run["trace_dropped"] == "2" and run["trace_refused"] == "0",
   "runfmt: format 1's R lines (failed=, dropped=, refused=) are read under their names now")

# runs.txt: one parser, keys in any order, the R lines checked against it
line = "q=c idx=3 of=9 rep=1 drain=live dcpu=3 | mode=percpu flight=0 writers=1 rec_size=64"
ok(runfmt.parse_run_line(line)[0]["idx"] == "3", "runfmt: runs.txt's keys may come in any order")
ok(rejects(runfmt.parse_run_line, "idx=1 bogus=2 | mode=x") is not None,
   "runfmt: a harness key runfmt.HARNESS does not know is refused")
ok(rejects(runfmt.parse_run_line, "idx=1 q=a mode=x") is not None, "runfmt: a run line without '|' is refused")
planned = [runfmt.parse_run_line(line)]
ok(runfmt.check_planned(runfmt.parse(R), planned) == [], "runfmt: an R line that repeats its run line passes")
bad = runfmt.check_planned(runfmt.parse(R.replace("writers=1", "writers=2")), planned)
ok(bad and "writers" in bad[0], "runfmt: an R line that differs from its run line is named", *bad)

# split-ab places a run by its ko= wherever idx= stands
sides = runfmt.split_ab("R of=2 idx=1 q=a ko=b mode=x\nD stream idx=1 n=0\nM x=1\n",
                        ["# plan", "q=a idx=1 ko=b | mode=x"])
ok("idx=1" in sides["b"][0] and "idx=1" not in sides["a"][0] and "M x=1" in sides["a"][0],
   "runfmt: split-ab finds idx= anywhere on a line")

# config key and benchmark name: one description of a configuration
r = {"q": "a", "mode": "percpu", "flight": "1", "writers": "2", "rec_size": "64"}
ok(runfmt.config_key(r) == "a/percpu/flight/w2/64"
   and runfmt.bench_name(r) == "BenchmarkWrite/q=a/mode=percpu/flight=1/writers=2/size=64",
   f"runfmt: one configuration, two spellings: {runfmt.config_key(r)}, {runfmt.bench_name(r)}")

# ---- benchfmt: the grammar, and what it refuses
good = ("kernel: 6.1\nhost_cpu: Some CPU @ 2GHz\n\nUnit ns/ok better=lower\nUnit frac better=lower assume=exact\n\n"
        "BenchmarkWrite/q=a/mode=percpu/size=64 100 365.2 ns/ok 0.1 frac\n# a comment\n")
p = benchfmt.parse(good)
name, n, values, config = p["results"][0]
ok(n == 100 and values == {"ns/ok": 365.2, "frac": 0.1} and config["host_cpu"] == "Some CPU @ 2GHz"
   and p["units"]["frac"] == {"better": "lower", "assume": "exact"}
   and benchfmt.name_parts(name)[1] == {"q": "a", "mode": "percpu", "size": "64"},
   "benchfmt: configuration, Unit and result lines parse, with the keys of the name")
broken = {
    "a configuration key with upper case": "Kernel: 6.1\n",
    "a configuration line without a blank after the colon": "kernel:6.1\n",
    "a line that is nothing of the format": "PASS\n",
    "a name without an upper case letter after Benchmark": "Benchmarkwrite 1 2 ns/ok\n",
    "a part of the name that is not key=value": "BenchmarkWrite/a/percpu 1 2 ns/ok\n",
    "an odd number of fields": "Unit ns/ok better=lower\nBenchmarkWrite/q=a 1 2 ns/ok 3\n",
    "a value that is not a number": "Unit ns/ok better=lower\nBenchmarkWrite/q=a 1 x ns/ok\n",
    "iterations that are not a whole number": "Unit ns/ok better=lower\nBenchmarkWrite/q=a 1.5 2 ns/ok\n",
    "a unit without a Unit line": "BenchmarkWrite/q=a 1 2 ns/ok\n",
    "a Unit line with an unknown property": "Unit ns/ok better=faster\n",
}
for what, text in broken.items():
    why = rejects(benchfmt.parse, text)
    ok(why is not None and why.startswith("line "), f"benchfmt: refuses {what}: {why}")

# ---- verdict data: a fault class and counts, as fields
v = accounting.Verdict("ok")
v.add("hole", "writer 1: 3 of its 9 successful writes not read", writer=1, count=3)
d = v.data()["violations"][0]
ok(d == {"class": "hole", "writer": 1, "count": 3, "text": "hole: writer 1: 3 of its 9 successful writes not read"},
   "accounting: a violation is data: class, writer, count, and its text")
try:
    v.add("holes", "x")
    ok(False, "accounting: a violation of no fault class is refused")
except AssertionError:
    ok(True, "accounting: a violation of no fault class is refused")

# ---- variants: the Python table against the module's
import re  # noqa: E402
import variants  # noqa: E402

c_names = set(re.findall(r'\.name = "([a-z]+)"', (TOP / "bench-module" / "relay_bench.c").read_text()))
ok(c_names == set(variants.module_modes()),
   f"variants: the Python table's modules are relay_bench.c's bench_variants[]: {sorted(c_names)}",
   f"C: {sorted(c_names)}, Python: {variants.module_modes()}")
ok(rejects(variants.get, "ftrace_event") is not None, "variants: an unknown variant is refused, naming the known")


# ---- a peer's accounting: attempts = records read + the system's loss
def peer_parse(lost, records=(5, 5), first=(0, 0), gaps=(3, 0), last=(7, 4), back=(0, 0)):
    """A peer's run of two writers (runfmt.Run): 8 and 5 attempts, the
    records read of each, and the system's loss counter LOST."""
    text = ("R idx=1 of=1 q=c rep=1 drain=live dcpu=- variant=ftrace-event mode=event flight=0 writers=2 "
            f"rec_size=64 attempted=8,5 ok=0,0 refused=0,0 ns=9,9 last_ts=0,0 trace_dropped=0 "
            f"trace_refused=0 peer_lost={lost} hist=\n")
    for w in (0, 1):
        text += (f"D idx=1 stream n={w} bytes={records[w] * 64} records={records[w]} stale=0 zero=0 torn=0 bad=0 partial=0\n"
                 f"D idx=1 writer cpu={w} stream={w} records={records[w]} seq_gaps={gaps[w]} ok_gaps=0 "
                 f"ok_dups={records[w] - 1} backwards={back[w]} ts_back=0 first_seq={first[w]} "
                 f"last_seq={last[w]} first_ok=0 last_ok=0 first_ts=0 last_ts=9\n")
    return runfmt.parse(text).runs[1]


def peer_run(lost, **kw):
    return accounting.check(peer_parse(lost, **kw))


v = peer_run("3,0")
ok(v.verdict == "ok" and v.records == 10, "accounting: a peer's run whose loss counter closes it passes",
   str([str(x) for x in v.violations]))
for lost, cls, what in (("2,0", "hole", "one attempt neither read nor counted lost"),
                        ("4,0", "phantom", "one more counted lost than attempts missing"),
                        ("3", "module", "one loss counter for two writers")):
    v = peer_run(lost)
    ok(v.verdict == "FAIL" and cls in [x.cls for x in v.violations],
       f"accounting: a peer's run with {what} fails as {cls}", str([str(x) for x in v.violations]))
# Its row in the figures: counts per writer from the loss counter, and
# none at all from a run whose counter does not name every writer.
def peer_row(lost):
    run = peer_parse(lost)
    return figures.run_row(run, accounting.check(run), 2)


r = peer_row("3,0")
ok((r["ok"], r["refused"]) == (10, 3), "figures: a peer's row: stored = attempts - its loss counter",
   f"ok {r['ok']} refused {r['refused']}")
r = peer_row("3")
ok((r["ok"], r["refused"], r["verdict"]) == (0, 0, "FAIL"),
   "figures: a peer's run with one loss counter for two writers: a failed row claiming nothing",
   f"ok {r['ok']} refused {r['refused']} verdict {r['verdict']}")
v = peer_run("3,0", gaps=(2, 0), first=(1, 0))
ok(v.verdict == "ok", "accounting: a peer's loss before its first record counts as skipped",
   str([str(x) for x in v.violations]))
v = peer_run("3,0", gaps=(2, 0))
ok(v.verdict == "FAIL" and "refusals" in [x.cls for x in v.violations],
   "accounting: a peer's records that skip other than its counted loss fail as refusals",
   str([str(x) for x in v.violations]))
# Five stored records, one of them printed out of order: the check
# counts it as older than the one before, and the others skip its place.
v = peer_run("3,0", records=(4, 5), gaps=(4, 0), back=(1, 0))
ok(v.verdict == "FAIL" and "reorder" in [x.cls for x in v.violations],
   "accounting: a peer's records out of order fail as reorder", str([str(x) for x in v.violations]))
v = peer_run("3,0", back=(1, 0))
ok(v.verdict == "FAIL" and "reorder" in [x.cls for x in v.violations],
   "accounting: a peer's record read twice fails as reorder, unless its consumer is known to repeat records",
   f"{v.verdict} {v.figures} {[str(x) for x in v.violations]}")
v = accounting.check(runfmt.parse(
    "\n".join(line for line in [""]) + "R idx=1 of=1 q=c rep=1 drain=live dcpu=- variant=perf mode=event flight=0 "
    "writers=1 rec_size=64 attempted=8 ok=0 refused=0 ns=9 last_ts=0 peer_lost=3 hist=\n"
    "D idx=1 stream n=0 bytes=384 records=6 stale=0 zero=0 torn=0 bad=0 partial=0\n"
    "D idx=1 writer cpu=0 stream=0 records=5 seq_gaps=3 ok_gaps=0 ok_dups=4 backwards=1 ts_back=0 first_seq=0 "
    "last_seq=7 first_ok=0 last_ok=0 first_ts=0 last_ts=9\n"
    "D idx=1 text stream=0 lines=6 events=6 unparsed=0 badlen=0 dups=1 markers=0 lost=0 lost_unknown=0\n").runs[1])
ok(v.verdict == "ok" and v.figures.get("duplicates") == 1 and v.records == 5,
   "accounting: a record a consumer printed twice is a figure (duplicates), not a reorder",
   f"{v.verdict} {v.figures} {[str(x) for x in v.violations]}")
v = peer_run("3,0", records=(4, 5), gaps=(4, 0), back=(1, 0))
ok(v.verdict == "FAIL" and "reorder" in [x.cls for x in v.violations],
   "accounting: a peer's records out of order fail as reorder", str([str(x) for x in v.violations]))
v = peer_run("3,0")
# perf's PERF_RECORD_LOST counts lost records of every kind: more lost
# than the records skip is a figure there, and a fault elsewhere; fewer
# is a fault everywhere.
PERF1 = ("R idx=1 of=1 q=c rep=1 drain=live dcpu=- variant=perf peer=perf mode=event flight=0 writers=1 "
         "rec_size=64 attempted=8 ok=0 refused=0 ns=9 last_ts=0 peer_lost=LOST peer_cpu_us=0 hist=\n"
         "D idx=1 stream n=0 bytes=320 records=5 stale=0 zero=0 torn=0 bad=0 partial=0\n"
         "D idx=1 writer cpu=0 stream=0 records=5 seq_gaps=3 ok_gaps=0 ok_dups=4 backwards=0 ts_back=0 "
         "first_seq=0 last_seq=7 first_ok=0 last_ok=0 first_ts=0 last_ts=9\n")
v = accounting.check(runfmt.parse(PERF1.replace("LOST", "4")).runs[1])
ok(v.verdict == "ok" and v.figures.get("lost_other_records") == 1,
   "accounting: perf's loss counter above the records skipped is a figure (other records lost)",
   f"{v.verdict} {v.figures} {[str(x) for x in v.violations]}")
v = accounting.check(runfmt.parse(PERF1.replace("LOST", "2")).runs[1])
ok(v.verdict == "FAIL" and "hole" in [x.cls for x in v.violations],
   "accounting: perf's loss counter below the records skipped fails as hole", str([str(x) for x in v.violations]))
v = accounting.check(runfmt.parse(PERF1.replace("LOST", "4").replace("variant=perf peer=perf",
                                                                      "variant=ftrace-event peer=ftrace")).runs[1])
ok(v.verdict == "FAIL" and "phantom" in [x.cls for x in v.violations],
   "accounting: an ftrace instance's loss counter above the records skipped fails as phantom",
   str([str(x) for x in v.violations]))
v2 = runfmt.parse("R idx=1 of=1 q=c rep=1 drain=live dcpu=- variant=perf mode=event flight=0 writers=1 "
                  "rec_size=64 attempted=8 ok=0 refused=0 ns=9 last_ts=0 hist=\n")
ok(accounting.check(v2.runs[1]).verdict == "FAIL",
   "accounting: a peer's run without its system's loss counter fails")

# ---- an overwriting peer (an LTTng snapshot): each writer's newest records
def snap(records, first, last, att=1000, gaps=0, lost=0):
    """A snapshot of one writer: ATT attempts; 4096-byte buffers per CPU in
    8 sub-buffers of 512 (the peer's guest value): it keeps at least
    6 * (512 - 128) // (64 + 40) = 18 records."""
    return accounting.check(runfmt.parse(
        "R idx=1 of=1 q=a rep=1 drain=after dcpu=- variant=lttng-snapshot peer=lttng:8 mode=event flight=0 "
        f"writers=1 rec_size=64 subbuf_size=512 n_subbufs=8 attempted={att} ok=0 refused=0 ns=9 last_ts=0 "
        f"peer_lost={lost} peer_cpu_us=0 hist=\n"
        f"D idx=1 stream n=0 bytes={records * 64} records={records} stale=0 zero=0 torn=0 bad=0 partial=0\n"
        f"D idx=1 writer cpu=0 stream=0 records={records} seq_gaps={gaps} ok_gaps=0 ok_dups={records - 1} "
        f"backwards=0 ts_back=0 first_seq={first} last_seq={last} first_ok=0 last_ok=0 first_ts=0 last_ts=9\n"
    ).runs[1])


v = snap(30, 970, 999)
ok(v.verdict == "ok" and v.figures.get("overwritten") == 970,
   "accounting: a snapshot of a writer's newest records passes, the ones before them counted overwritten",
   f"{v.verdict} {v.figures} {[str(x) for x in v.violations]}")
for args, cls, what in (((30, 969, 999, 1000, 1), "refusals", "a record missing in the middle"),
                        ((30, 960, 989), "refusals", "not the newest records (the last ten missing)"),
                        ((10, 990, 999), "newest", "fewer records than its buffer keeps (its oldest lost)")):
    v = snap(*args)
    ok(v.verdict == "FAIL" and cls in [x.cls for x in v.violations],
       f"accounting: a snapshot with {what} fails as {cls}", str([str(x) for x in v.violations]))
v = snap(10, 0, 9, att=10)
ok(v.verdict == "ok", "accounting: a snapshot of a writer that wrote less than its buffer keeps holds them all",
   str([str(x) for x in v.violations]))

# ---- tables: the goals call met or missed only beyond the resolution
got = [tables.at_least(r, 100, 10) for r in (120, 111, 110, 105, 99, 91, 90)]
ok(got == ["met", "met", "undecided", "undecided", "undecided", "undecided", "missed"],
   "tables: a lossless rate 120 against 100 met, 110 to 91 undecided within a 10 % tolerance "
   "(the bisection's own), 90 missed", str(got))


def a_rows(mode, w, ns):
    """Question (a)'s runs of one configuration, their ns per event NS."""
    return [{"q": "a", "mode": mode, "flight": 0, "writers": w, "size": 64, "ns_per_ok": x,
             "buffer_per_cpu": 32 << 20, "verdict": "ok", "records_checked": 1} for x in ns]


def b_rows(mode, w, rates, reader=""):
    """Question (b)'s bisections of one configuration, one per rate in
    RATES, of tolerance 10 %: each a step lossless at that rate and one
    5 % above it that lost writes."""
    out = []
    for rate in rates:
        step = {"q": "b", "parent": next(PARENTS), "mode": mode, "flight": 0, "writers": w, "size": 64,
                "reader": reader, "bisect": "50000:3200000:10", "buffer_per_cpu": 131072, "verdict": "ok",
                "records_checked": 1, "drain_bytes": 0, "drain_cpu_ms": 0, "rate": rate}
        out += [{**step, "offered": rate, "ok_per_s": rate, "refused": 0, "drop_frac": 0.0},
                {**step, "offered": rate * 1.05, "ok_per_s": rate, "refused": 1, "drop_frac": 0.05}]
    return out


PARENTS = itertools.count(1)
# Costs: at 1 writer the medians differ (105 against 115) but the runs'
# ranges overlap; at 2 they do not; at 3 relay's are all above.
# Lossless rates (relay: 3 bisections of its better reader, mmap; the
# peer: 1): at 1 writer 1.00 against 0.95 M/s, within 10 %; at 2 and 4
# beyond it, either way.
rows = (a_rows("percpu", 1, (100, 105, 110)) + a_rows("bpf-ringbuf", 1, (108, 115, 120))
        + a_rows("percpu", 2, (100, 105, 110)) + a_rows("bpf-ringbuf", 2, (111, 115, 120))
        + a_rows("percpu", 3, (130, 135, 140)) + a_rows("bpf-ringbuf", 3, (111, 115, 120))
        + b_rows("percpu", 1, (0.98e6, 1.00e6, 1.02e6), "mmap") + b_rows("percpu", 1, (0.95e6,) * 3, "read")
        + b_rows("bpf-ringbuf", 1, (0.95e6,))
        + b_rows("percpu", 2, (0.80e6,) * 3, "mmap") + b_rows("bpf-ringbuf", 2, (1.00e6,))
        + b_rows("percpu", 4, (1.00e6,) * 3, "mmap") + b_rows("bpf-ringbuf", 4, (0.80e6,)))
goals = {(g["goal"], g["writers"]): g for g in tables.which_data(rows)["goals"] if g["peer"] == "bpf-ringbuf"}
got = {k: g["status"] for k, g in goals.items()}
ok(got == {("cost", 1): "undecided", ("cost", 2): "met", ("cost", 3): "missed",
           ("lossless", 1): "undecided", ("lossless", 2): "missed", ("lossless", 4): "met"},
   "tables: the goals of synthetic figures: costs whose runs' min-max overlap undecided, apart met or missed; "
   "lossless rates within the bisections' 10 % undecided (1.00 against 0.95 M/s), beyond it met or missed",
   str(sorted(got.items())))
g = goals.get(("lossless", 1), {})
ok((g.get("relay"), g.get("relay_bisections"), g.get("peer_bisections"), g.get("tol")) == (1.00e6, 3, 1, 10)
   and goals.get(("cost", 1), {}).get("relay_range") == [100, 110],
   "tables: a goal says what it rests on: relaytrace's better reader's median of 3 bisections, the peer's of 1, "
   "the tolerance; a cost's min-max of its runs", str(g), str(goals.get(("cost", 1))))
lines = [line for line in tables.question_which(rows) if " vs bpf-ringbuf " in line]
ok(len(lines) == 6 and lines[0].endswith(": undecided") and "of 3 runs" in lines[0]
   and lines[3].endswith(": undecided") and "of 3 bisections, peer 0.950 of 1" in lines[3],
   "tables: the goal lines are printed from the goals' data, undecided and the counts with them", *lines)
# Other record sizes beside the title's 64 bytes: a peer's far faster
# 256-byte bisections and both sizes' overload runs leave its goals, its
# lossless rate and its drop fraction the 64-byte ones.
big = [{**r, "size": 256} for r in b_rows("bpf-ringbuf", 4, (9.0e6,)) + b_rows("bpf-ringbuf", 1, (9.0e6,))]
drops = [{"q": "c", "mode": "bpf-ringbuf", "flight": 0, "writers": 4, "size": sz, "drop_frac": d,
          "buffer_per_cpu": 16384, "verdict": "ok", "records_checked": 1, "ns_per_ok": float("nan")}
         for sz, d in ((64, 0.25), (64, 0.25), (256, 0.75), (256, 0.75), (256, 0.75))]
w2 = tables.which_data(rows + big + drops)
got2 = {(g["goal"], g["writers"]): g["status"] for g in w2["goals"] if g["peer"] == "bpf-ringbuf"}
r2 = next(r for r in w2["rows"] if r["variant"] == "bpf-ringbuf")
ok(got2 == got and (r2["lossless_w1"], r2["lossless_wmax"], r2["drop_wmax"]) == (0.95e6, 0.80e6, 0.25),
   "tables: \"which\" rests on the title's 64-byte records only: 256-byte bisections and overload runs "
   "beside them change no goal, lossless rate or drop fraction", str(sorted(got2.items())),
   str({k: r2[k] for k in ("lossless_w1", "lossless_wmax", "drop_wmax")}))
rvm = {c["writers"]: c["rate_target"] for c in tables.read_vs_mmap([r for r in rows if r["q"] == "b"])}
ok(rvm == {1: "undecided"}, "tables: mmap against read(2) 1.00 against 0.95 M/s: undecided, by the same rule",
   str(rvm))

done()
