#!/usr/bin/env python3
"""The analysis side of make bench, make bench-cost and make compare: one
entry point, run on the host.

  report.py plan MATRIX --seed N [--ab]        print runs.txt for a matrix
                                               (--ab: two builds, interleaved)
  report.py check GUEST_OUT                    the accounting verdict of
                                               every run; exit 1 on a FAIL
  report.py summarize DIR [--no-history]       a make bench result folder
  report.py cost DIR --baseline CSV [--write-baseline] [--no-history]
                                               a make bench-cost folder
  report.py compare OLD NEW [--same-boot]      two result folders
  report.py split-ab DIR                       an A/B folder into DIR/a, DIR/b
  report.py spread OUT_CSV DIR DIR...          the between-boot spread of
                                               make bench folders of
                                               identical code

The formats it reads are defined in runfmt.py.
"""
import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import accounting  # noqa: E402
import plan as planlib  # noqa: E402
import runfmt  # noqa: E402


def cmd_plan(a):
    print("\n".join(planlib.plan(a.matrix, a.seed, ab=a.ab)))
    return 0


def cmd_check(a):
    out = runfmt.parse(a.guest_out)
    bad = 0
    for idx in sorted(out.runs):
        run = out.runs[idx]
        v = accounting.check(run)
        bad += v.failed
        print(f"run {idx} {runfmt.config_key(run)}: {v.verdict}, {v.records} records checked"
              + "".join(f"\n  {x}" for x in v.violations))
    for e in out.errors + out.bad:
        print(f"ERROR {e}")
    return 1 if bad or out.errors or out.bad or not out.runs else 0


def cmd_summarize(a):
    import summarize
    return summarize.main(Path(a.dir), no_history=a.no_history)


def cmd_cost(a):
    import cost
    return cost.main(Path(a.dir), Path(a.baseline), write_baseline=a.write_baseline,
                     no_history=a.no_history)


def cmd_compare(a):
    import compare
    return compare.main(Path(a.old), Path(a.new), same_boot=a.same_boot)


def cmd_split_ab(a):
    """DIR/guest.out and DIR/runs.txt of make bench-ab, as two folders of
    make bench, DIR/a and DIR/b; host.txt names each side's build."""
    d = Path(a.dir)
    planned = (d / "runs.txt").read_text().splitlines()
    sides = runfmt.split_ab((d / "guest.out").read_text(errors="replace"), planned)
    host = (d / "host.txt").read_text()
    for k, (text, runs) in sides.items():
        s = d / k
        s.mkdir(exist_ok=True)
        (s / "guest.out").write_text(text)
        (s / "runs.txt").write_text(runs)
        side_host = [line for line in host.splitlines() if not line.startswith("bench_module")]
        side_host += [line.replace(f"bench_module_{k}=", "bench_module=", 1)
                      for line in host.splitlines() if line.startswith(f"bench_module_{k}=")]
        (s / "host.txt").write_text("\n".join(side_host) + "\n")
        print(f"{s}: {sum(line.startswith('R ') for line in text.splitlines())} runs")
    return 0


def cmd_spread(a):
    import compare
    return compare.spread_main(a.dirs, a.out)


def main():
    p = argparse.ArgumentParser(prog="report.py", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = p.add_subparsers(dest="cmd", required=True)
    s = sub.add_parser("plan")
    s.add_argument("matrix")
    s.add_argument("--seed", type=int, required=True)
    s.add_argument("--ab", action="store_true")
    s.set_defaults(fn=cmd_plan)
    s = sub.add_parser("check")
    s.add_argument("guest_out")
    s.set_defaults(fn=cmd_check)
    s = sub.add_parser("summarize")
    s.add_argument("dir")
    s.add_argument("--no-history", action="store_true")
    s.set_defaults(fn=cmd_summarize)
    s = sub.add_parser("cost")
    s.add_argument("dir")
    s.add_argument("--baseline", required=True)
    s.add_argument("--write-baseline", action="store_true")
    s.add_argument("--no-history", action="store_true")
    s.set_defaults(fn=cmd_cost)
    s = sub.add_parser("compare")
    s.add_argument("old")
    s.add_argument("new")
    s.add_argument("--same-boot", action="store_true")
    s.set_defaults(fn=cmd_compare)
    s = sub.add_parser("split-ab")
    s.add_argument("dir")
    s.set_defaults(fn=cmd_split_ab)
    s = sub.add_parser("spread")
    s.add_argument("out")
    s.add_argument("dirs", nargs="+")
    s.set_defaults(fn=cmd_spread)
    a = p.parse_args()
    try:
        return a.fn(a)
    except (OSError, ValueError) as e:
        # A missing file or a malformed line: one line naming it, no
        # traceback.
        what = f"{e.filename}: {e.strerror}" if isinstance(e, OSError) and e.filename else str(e)
        print(f"report.py {a.cmd}: {what}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
