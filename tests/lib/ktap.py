#!/usr/bin/env python3
"""Read a KTAP log with the kernel tree's own parser and print one line
per result for tests/run:

  ktap.py KUNIT_PY LOG [SUITE]

runs `KUNIT_PY parse --json` on LOG (a console with KUnit at boot, or a
guest script's KTAP output) and prints "PASS name" / "FAIL name" for each
test case (of SUITE only, if given; "SKIP name (skipped: reason)" for
a case that skipped), "# " diagnostic lines of the log
under a failed case, and a last line "plan P results R" (P: the plan the
log announced, or -1).  Exits 2 if the parser fails.
"""
import json
import re
import subprocess
import sys
import tempfile


def cases(group, suite=None, inside=False):
    if suite is None or inside or group.get("name") == suite:
        for c in group.get("test_cases", []):
            yield c
        inside = True
    for g in group.get("sub_groups", []):
        yield from cases(g, suite, inside or g.get("name") == suite)


def main():
    kunit_py, log = sys.argv[1], sys.argv[2]
    suite = sys.argv[3] if len(sys.argv) > 3 else None
    text = open(log, errors="replace").read()
    # Our guest scripts print their plan last, as TAP allows; the KUnit
    # parser of 6.12 loops on a trailing plan, so move it up front.
    lines = text.splitlines()
    plan_at = [i for i, line in enumerate(lines) if re.match(r"^1\.\.\d+\s*$", line)]
    ver_at = [i for i, line in enumerate(lines) if re.match(r"^(K?TAP version \d+)\s*$", line)]
    if suite is None and plan_at and ver_at and plan_at[-1] > ver_at[0] + 1:
        plan = lines.pop(plan_at[-1])
        lines.insert(ver_at[0] + 1, plan)
    with tempfile.NamedTemporaryFile("w", suffix=".log") as src, \
            tempfile.NamedTemporaryFile(suffix=".json") as js:
        src.write("\n".join(lines) + "\n")
        src.flush()
        try:
            r = subprocess.run([sys.executable, kunit_py, "parse", "--json=" + js.name, src.name],
                               capture_output=True, text=True, timeout=120)
        except subprocess.TimeoutExpired:
            print("# kunit.py parse did not finish in 120 s")
            return 2
        try:
            data = json.load(open(js.name))
        except (OSError, ValueError):
            print(f"# kunit.py parse failed ({r.returncode}): {r.stdout[-300:]} {r.stderr[-300:]}")
            return 2
    diag = {}
    skipped = {}
    cur = None
    for line in text.splitlines():
        line = re.sub(r"^\[ *[0-9.]+\] ", "", line).strip()
        m = re.match(r"^ok \d+ (?:- )?(.*?)\s*# SKIP\s*(.*)$", line)
        if m:
            skipped[m.group(1).strip()] = m.group(2).strip() or "no reason given"
        m = re.match(r"^not ok \d+ (?:- )?(.*)$", line)
        if m:
            cur = m.group(1).strip()
            diag[cur] = []
        elif re.match(r"^ok \d+ ", line):
            cur = None
        elif cur is not None and line.startswith("# "):
            diag[cur].append(line)
    n = 0
    for c in cases(data, suite):
        n += 1
        name = c["name"]
        if c["status"] == "SKIP":
            # A case that cannot run here says why.
            print(f"SKIP {name} (skipped: {skipped.get(name, 'no reason given')})")
        elif c["status"] == "PASS":
            print(f"PASS {name}")
        else:
            print(f"FAIL {name}")
            for d in diag.get(name, diag.get("- " + name, []))[:6]:
                print(d)
    plans = re.findall(r"^1\.\.(\d+)\s*$", text, re.M)
    plan = int(plans[-1]) if plans and suite is None else -1
    print(f"plan {plan} results {n}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
