#!/usr/bin/env python3
"""make compare on recorded folders (tests/fixtures/compare/: raw.csv cut
to the columns compare reads, and meta.json), asserting on the fields of
the comparison (compare.compare(), what `report.py compare --json`
prints), never on its text.  Prints "ok - ..." and "not ok - ..." lines
(tests/lib/host.sh's form), for tests/host/compare.sh.

(a), ns per successful write: two boots of identical code call at most
5 % of the comparisons a change; the same boot with a real change added
is called a change where it was added and nowhere else; a change within
the between-boot spread is not; too few runs say so; differing
conditions are named; make bench-ab's pairs (one boot) are called where
the delay is and (almost) only there, and the checks of that are shown
to fail on pairs that must fail them.

(c), drop fraction, in points: two boots of identical code
(tests/fixtures/compare/drop-a, drop-b, make bench boots of the default
matrix's (c) runs) call none; the drop fraction of the per-CPU mode
lowered beyond the between-boot spread is called better there and
nowhere else; a change within the spread is not; and a spread too large
for a verdict gives none.
"""
import csv
import json
import re
import shutil
import sys
import tempfile
from pathlib import Path

TOP = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(TOP / "bench-user" / "report"))
import compare  # noqa: E402
from tap import done, ok  # noqa: E402

F = TOP / "tests" / "fixtures" / "compare"
WORK = Path(tempfile.mkdtemp())


def cmp(old, new, same_boot=False):
    return compare.compare(Path(old), Path(new), same_boot)[1]


def calls(v, pattern=".", verdicts=("better", "WORSE")):
    return [r for r in v.get("comparisons", []) if re.search(pattern, r["config"]) and r["verdict"] in verdicts]


def rows(v, pattern):
    return [r for r in v.get("comparisons", []) if re.search(pattern, r["config"])]


def copy(src, name, change=None, keep=None):
    """A copy of a folder whose raw.csv rows pass through change(row), and
    only the first `keep` runs of each configuration."""
    dst = WORK / name
    dst.mkdir()
    shutil.copy(Path(src) / "meta.json", dst)
    with open(Path(src) / "raw.csv", newline="") as f:
        data = list(csv.DictReader(f))
    seen, out = {}, []
    for r in data:
        seen[r["config"]] = seen.get(r["config"], 0) + 1
        if keep is None or seen[r["config"]] <= keep:
            out.append(change(dict(r)) if change else r)
    with open(dst / "raw.csv", "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(data[0].keys()))
        w.writeheader()
        w.writerows(out)
    return dst


def scaled(src, name, pattern, metric, factor=None, points=None):
    def change(r):
        if re.search(pattern, r["config"]) and r[metric] not in ("", "nan"):
            x = float(r[metric])
            r[metric] = str(x * factor if factor is not None else min(1.0, max(0.0, x + points)))
        return r
    return copy(src, name, change)


def spread_of(v, metric):
    return next((m["spread"] for m in v["metrics"] if m["metric"] == metric), None)


# ---- (a): ns per successful write
v = cmp(F / "boot-a", F / "boot-b")
a_rows = rows(v, "^a/")
ok(a_rows and len(calls(v, "^a/")) * 20 <= len(a_rows),
   f"compare: two boots of identical code: {len(calls(v, '^a/'))} of {len(a_rows)} (a) comparisons called a change (at most 5 %)")

v = cmp(F / "boot-a", scaled(F / "boot-a", "faster", "^a/percpu/", "ns_per_ok", 0.25))
want, better = rows(v, "^a/percpu/"), calls(v, "^a/percpu/", ("better",))
others = [r for r in calls(v) if not r["config"].startswith("a/percpu/")]
ok(want and len(better) == len(want) and not others,
   f"compare: a per-CPU path 4 times cheaper is called better in all {len(want)} per-CPU configurations, and nothing else",
   f"{len(better)} of {len(want)} better, {len(others)} others")

v = cmp(F / "boot-a", scaled(F / "boot-a", "slower", "^a/global/", "ns_per_ok", 4))
want, worse = rows(v, "^a/global/"), calls(v, "^a/global/", ("WORSE",))
ok(want and len(worse) == len(want),
   f"compare: a global path 4 times dearer is called WORSE in all {len(want)} global configurations",
   f"{len(worse)} of {len(want)}")

v = cmp(F / "boot-a", scaled(F / "boot-a", "small", ".", "ns_per_ok", 1.03))
ok(v["called"] == 0, f"compare: a 3 % change in every configuration stays within the between-boot spread: "
   f"0 of {v['total']} called", f"{v['called']} called")

two = copy(F / "boot-a", "two", keep=2)
v = cmp(two, two)
ok(all(r["why"] == "n=2+2 cannot reach p<0.05" for r in rows(v, "^a/")) and rows(v, "^a/"),
   "compare: two runs a side are said to be too few to reach p < 0.05")

other = copy(F / "boot-b", "otherqemu")
meta = json.loads((other / "meta.json").read_text())
meta["qemu"] = "QEMU emulator version 0.0.1"
(other / "meta.json").write_text(json.dumps(meta))
v = cmp(F / "boot-a", other)
ok([(m["condition"], m["new"]) for m in v["mismatches"]] == [("QEMU", "QEMU emulator version 0.0.1")],
   "compare: differing conditions are named, before the figures", str(v["mismatches"]))
ok(v["old"]["format"] == 1 and v["new"]["format"] == 1,
   "compare: folders of format 1 (no format in meta.json) are read, and said to be of format 1")

# make bench-ab: one boot, the two builds' runs interleaved, no margin.
v = cmp(F / "ab-aa" / "a", F / "ab-aa" / "b", same_boot=True)
ok(v["total"] and v["called"] * 20 <= v["total"] and all(m["spread"] == 0 for m in v["metrics"]),
   f"compare --same-boot: two identical builds in one boot: {v['called']} of {v['total']} comparisons called "
   f"a change (at most 5 %)")


def delay_seen(old, new):
    """The delay is called where it is, and (almost) only there."""
    v = cmp(old, new, same_boot=True)
    want = rows(v, r"^a/(percpu|global)/[a-z]+/w[12]/")
    worse = calls(v, r"^a/(percpu|global)/[a-z]+/w[12]/", ("WORSE",))
    wrong = calls(v, r"^a/(ftrace|none)/") + calls(v, "^a/", ("better",))
    wrong = list({r["config"]: r for r in wrong}.values())
    return (bool(want) and len(worse) == len(want) and len(wrong) * 20 <= v["called"],
            f"WORSE in {len(worse)} of {len(want)} trace configurations at 1-2 writers; {v['called']} of "
            f"{v['total']} called, {len(wrong)} of them where the delay is not")


seen, what = delay_seen(F / "ab-delay" / "a", F / "ab-delay" / "b")
ok(seen, f"compare --same-boot: ndelay(1000) before relay_trace_write(): {what} (at most 5 %)")
floor = scaled(F / "ab-delay" / "b", "floor", "^a/none/", "ns_per_ok", 3)
bad1, bad2 = delay_seen(F / "ab-aa" / "a", F / "ab-aa" / "b")[0], delay_seen(F / "ab-delay" / "a", floor)[0]
ok(not bad1 and not bad2, "compare --same-boot: that check rejects a pair without the delay and a pair with calls "
   "outside it", f"A/A passed: {bad1}, floor dearer too passed: {bad2}")

v = cmp(F / "ab-delay" / "a", F / "ab-delay" / "b")
want = rows(v, r"^a/(percpu|global)/[a-z]+/w[12]/")
worse = [r for r in calls(v, r"^a/(percpu|global)/[a-z]+/w[12]/", ("WORSE",)) if "beyond the" in r["why"]]
ok(want and len(worse) == len(want) and spread_of(v, "ns_per_ok"),
   f"compare: without --same-boot the between-boot margin applies, and the delay exceeds it ({len(worse)} of {len(want)})")

status, v = compare.compare(F / "boot-a", F / "boot-b", same_boot=True)
ok(status == 2 and "not the two sides of one boot" in v.get("error", ""),
   "compare --same-boot: refuses folders of two boots", str(v.get("error")))

# ---- (c): the drop fraction, in points
v = cmp(F / "drop-a", F / "drop-b")
c_rows = rows(v, "^c/")
sp = spread_of(v, "drop_frac")
ok(c_rows and sp is not None and not calls(v, "^c/"),
   f"compare: two boots of identical code: 0 of {len(c_rows)} drop fractions called a change "
   f"(between-boot spread +-{sp} points)", f"{len(calls(v, '^c/'))} called")
ok(c_rows and all(r["why"] != "n=3+3 cannot reach p<0.05" and "cannot reach" not in r["why"] for r in c_rows),
   f"compare: (c) has the runs to reach a verdict: {len(c_rows[0]['old']) if c_rows else 0} a side")

drop = 2 * sp if sp else 0.3
lower = scaled(F / "drop-a", "fewer-drops", "^c/percpu/", "drop_frac", points=-drop)
v = cmp(F / "drop-a", lower)
want = [r for r in rows(v, "^c/percpu/") if r["old_median"] >= drop + sp]
better = [r for r in calls(v, "^c/percpu/", ("better",)) if r in want]
others = [r for r in calls(v) if not r["config"].startswith("c/percpu/")]
ok(want and len(better) == len(want) and not others,
   f"compare: per-CPU drop fractions lowered by {drop:.3f} points (twice the spread) are called better in all "
   f"{len(want)} per-CPU configurations that had as much to lose, and nothing else",
   f"{len(better)} of {len(want)}, {len(others)} others: "
   + "; ".join(f"{r['config']} {r['verdict']} ({r['why']})" for r in rows(v, "^c/percpu/")))

v = cmp(F / "drop-a", scaled(F / "drop-a", "few-drops", "^c/", "drop_frac", points=sp / 2 if sp else 0.01))
ok(not calls(v, "^c/"), f"compare: drop fractions moved by half the spread ({sp / 2 if sp else 0:.3f} points) "
   "are not called", f"{len(calls(v, '^c/'))} called")

# A spread that leaves no room: no verdict, and it is said.
wide = WORK / "spread-wide.csv"
wide.write_text("metric,spread,scale,source\ndrop_frac,0.9,points,test\n")
spread, src = compare.load_spread(wide)
v = compare.compare_bench(F / "drop-a", lower, spread, src)
ok(all(r["verdict"] == "no verdict" for r in rows(v, "^c/")) and v["without_verdict"] == len(rows(v, "^c/"))
   and next(m for m in v["metrics"] if m["metric"] == "drop_frac")["no_verdict"],
   "compare: a between-boot spread that leaves no room (0.9 points) gives no verdict, and says so")

# make bench-cost folders from before the rename (trace_write, ...) pair
# with today's (relay_trace_write, ...): the same figures, no kind missing.
for name, kinds in (("cost-old", ("memcpy", "trace_write", "trace_printf")),
                    ("cost-new", ("memcpy", "relay_trace_write", "relay_trace_printf"))):
    (WORK / name).mkdir()
    (WORK / name / "cost.csv").write_text("kind,size,writes,total_ns,total,overhead\n" + "".join(
        f"{k},64,100000,1,{100 + i}.0,{i}.0\n" for i, k in enumerate(kinds)))
v = compare.compare_cost(WORK / "cost-old", WORK / "cost-new")
ok(v["total"] == 3 and v["called"] == 0 and all(r["verdict"] == "same" for r in v["figures"])
   and {r["kind"] for r in v["figures"]} == {"memcpy", "relay_trace_write", "relay_trace_printf"},
   "compare: a bench-cost folder with the kinds' old names (trace_write) pairs with one with the new "
   "(relay_trace_write)", "; ".join(f"{r['kind']} {r['verdict']}" for r in v["figures"]))

shutil.rmtree(WORK)
done()
