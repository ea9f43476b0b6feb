#!/usr/bin/env python3
"""The KCSAN reports of a test run, by file: kcsan.py OUT KSRC TOP

Reads every console OUT/*.log, finds KCSAN's reports ("BUG: KCSAN:
data-race in A / B"), finds the file that defines each function named
(in the kernel tree KSRC, or the project's modules under TOP), and prints
a summary line, then one line per report: "OURS" if a function of relay
or of the trace layer is in it, "other" otherwise.
"""
import re
import subprocess
import sys
from collections import Counter
from pathlib import Path

OURS = re.compile(r"(^kernel/relay(_trace(_kunit)?)?\.c|^include/linux/relay(_trace)?\.h)$")
_where = {}


def where(func, ksrc, top):
    if func in _where:
        return _where[func]
    pat = rf"^[a-zA-Z].*[ *]{re.escape(func)}\("
    found = "?"
    for root, dirs in ((top, ["bench-module", "tests/module"]),
                       (ksrc, ["kernel", "lib", "include", "mm", "fs", "arch/x86", "drivers/base", "."])):
        r = subprocess.run(["grep", "-rlE", "--include=*.c", "--include=*.h", pat] + dirs,
                           cwd=root, capture_output=True, text=True)
        files = [f.removeprefix("./") for f in r.stdout.split()]
        if files:
            found = files[0] if root == ksrc else f"{files[0]} (out of tree)"
            break
    _where[func] = found
    return found


def main():
    out, ksrc, top = Path(sys.argv[1]), Path(sys.argv[2]), Path(sys.argv[3])
    reports = []
    for log in sorted(out.glob("*.log")) + sorted(out.glob("*/console.log")):
        for line in log.read_text(errors="replace").splitlines():
            m = re.search(r"BUG: KCSAN: ([a-z-]+) in (\S+)(?: / (\S+))?", line)
            if m:
                funcs = [f for f in m.groups()[1:] if f]
                reports.append((log.name, m.group(1), funcs))
    by_file = Counter()
    lines = []
    for logname, kind, funcs in reports:
        files = [where(f.split("+")[0], ksrc, top) for f in funcs]
        ours = any(OURS.match(f) for f in files)
        for f in set(files):
            by_file[f] += 1
        lines.append(f"{'OURS ' if ours else 'other'} {kind} in " +
                     " / ".join(f"{fn} ({fl})" for fn, fl in zip(funcs, files)) + f" [{logname}]")
    print(f"{len(reports)} KCSAN reports" +
          (": " + ", ".join(f"{n} in {f}" for f, n in by_file.most_common()) if reports else ""))
    for line in lines:
        print("  " + line)


if __name__ == "__main__":
    main()
