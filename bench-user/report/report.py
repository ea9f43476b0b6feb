#!/usr/bin/env python3
"""The analysis side of make bench, make bench-cost and make compare: one
entry point, run on the host.

  report.py plan MATRIX --seed N [--ab] [--without NEED...]
                                               print runs.txt for a matrix
                                               (without the variants that
                                               need NEED: variants.py)
  report.py needs MATRIX                       what its variants need built
                                               (--ab: two builds, interleaved)
  report.py check GUEST_OUT [--json]           the accounting verdict of
                                               every run; exit 1 on a FAIL
  report.py summarize DIR [--no-history]       a make bench result folder
  report.py cost DIR --baseline CSV [--write-baseline] [--no-history]
                                               a make bench-cost folder
  report.py compare OLD NEW [--same-boot] [--json]
                                               two result folders
  report.py split-ab DIR                       an A/B folder into DIR/a, DIR/b
  report.py spread OUT_CSV DIR DIR...          the between-boot spread of
                                               make bench folders of
                                               identical code
  report.py same-cost DIR DIR                  two make bench-cost folders
                                               give the same figures (to
                                               0.02 instruction); --json
  report.py benchfmt FILE [--json]             FILE parses as the Go benchmark
                                               format (benchfmt.py)
  report.py field JSON KEY[.KEY...]            one field of a JSON file (a
                                               verdict, a comparison): what
                                               the tests read
  report.py module-hash DIR NAME               the hash of a module's sources
  report.py hist-bounds                        the latency buckets' bounds

The formats it reads are defined in runfmt.py; every verdict it prints is
printed from data that --json (or the folder's verdict.json) gives as it is.
"""
import argparse
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import accounting  # noqa: E402
import conditions  # noqa: E402
import plan as planlib  # noqa: E402
import runfmt  # noqa: E402


def print_json(data):
    print(json.dumps(data, indent=1))


def cmd_plan(a):
    print("\n".join(planlib.plan(a.matrix, a.seed, ab=a.ab, skip=a.without or ())))


def cmd_needs(a):
    print(" ".join(planlib.needs(a.matrix)))
    return 0


def cmd_check(a):
    out = runfmt.parse(a.guest_out)
    v = accounting.folder_verdict(out, {idx: accounting.check(run) for idx, run in out.runs.items()})
    if a.json:
        print_json(v)
    else:
        for r in v["by_run"]:
            print(f"run {r['idx']} {r['config']}: {r['verdict']}, {r['records']} records checked"
                  + "".join(f"\n  {x['text']}" for x in r["violations"]))
        for e in v["errors"]:
            print(f"ERROR {e}")
        print(f"{v['verdict']}: {v['runs']['counted']} runs, {v['failed_runs']['all']} failed, "
              f"{v['records_checked']} records checked")
    return 0 if v["verdict"] == "ok" else 1


def cmd_summarize(a):
    import summarize
    return summarize.main(Path(a.dir), no_history=a.no_history)


def cmd_cost(a):
    import cost
    return cost.main(Path(a.dir), Path(a.baseline), write_baseline=a.write_baseline,
                     no_history=a.no_history)


def cmd_compare(a):
    import compare
    return compare.main(Path(a.old), Path(a.new), same_boot=a.same_boot, as_json=a.json)


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


def cmd_same_cost(a):
    import cost
    v = cost.same(Path(a.one), Path(a.two))
    if a.json:
        print_json(v)
    else:
        print(f"{v['pairs']} kind/size pairs, the largest difference {v['largest']:.2f} instruction per write"
              + (f" ({v['where']})" if v["where"] else "") + ("" if v["same"] else f"; {v['why']}"))
    return 0 if v["same"] else 1


def cmd_benchfmt(a):
    import benchfmt
    parsed = benchfmt.parse(Path(a.file).read_text())
    keys = sorted({k for name, *_ in parsed["results"] for k in benchfmt.name_parts(name)[1]})
    data = {"results": len(parsed["results"]), "config": parsed["config"], "units": parsed["units"],
            "name_keys": keys}
    if a.json:
        print_json(data)
    else:
        print(f"{a.file}: {data['results']} results, name keys {' '.join(keys)}, units "
              + ", ".join(f"{u} ({' '.join(f'{k}={v}' for k, v in p.items())})" for u, p in data["units"].items()))
    return 0


def cmd_field(a):
    """Print a field of a JSON file: a string or number as it is, a list
    one item a line, anything else as JSON."""
    data = json.loads(Path(a.file).read_text())
    for k in a.key.split("."):
        if isinstance(data, list):
            data = data[int(k)]
        elif isinstance(data, dict) and k in data:
            data = data[k]
        else:
            raise ValueError(f"{a.file}: no field {a.key}")
    if isinstance(data, list):
        print("\n".join(x if isinstance(x, str) else json.dumps(x) for x in data))
    else:
        print(data if isinstance(data, (str, int, float)) else json.dumps(data))
    return 0


def cmd_module_hash(a):
    print(conditions.module_hash(a.dir, a.name))
    return 0


def cmd_hist_bounds(a):
    import latency
    for b in range(latency.BUCKETS):
        print(b, *latency.bucket_bounds(b))
    return 0


def main():
    p = argparse.ArgumentParser(prog="report.py", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = p.add_subparsers(dest="cmd", required=True)

    def command(name, fn, *args, **flags):
        s = sub.add_parser(name)
        for x in args:
            s.add_argument(x)
        for f, kw in flags.items():
            s.add_argument("--" + f.replace("_", "-"), **kw)
        s.set_defaults(fn=fn)
        return s

    flag = {"action": "store_true"}
    command("plan", cmd_plan, "matrix", seed={"type": int, "required": True}, ab=flag,
            without={"nargs": "*", "metavar": "NEED"})
    command("needs", cmd_needs, "matrix")
    command("check", cmd_check, "guest_out", json=flag)
    command("summarize", cmd_summarize, "dir", no_history=flag)
    command("cost", cmd_cost, "dir", baseline={"required": True}, write_baseline=flag, no_history=flag)
    command("compare", cmd_compare, "old", "new", same_boot=flag, json=flag)
    command("split-ab", cmd_split_ab, "dir")
    command("spread", cmd_spread, "out").add_argument("dirs", nargs="+")
    command("same-cost", cmd_same_cost, "one", "two", json=flag)
    command("benchfmt", cmd_benchfmt, "file", json=flag)
    command("field", cmd_field, "file", "key")
    command("module-hash", cmd_module_hash, "dir", "name")
    command("hist-bounds", cmd_hist_bounds)
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
