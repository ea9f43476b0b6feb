#!/usr/bin/env python3
"""Split compiler or sparse warnings into the series' and the tree's own:

  new-warnings.py KSRC PATCH... < WARNINGS

A warning on kernel/relay.c line N belongs to the series if the text of
line N is one the series adds (a "+" line of a patch); else it was there
before the series (the pristine tree warns the same).  Prints each
warning prefixed with "NEW " or "OLD ".  The files the series creates
are the series' throughout.
"""
import re
import sys
from pathlib import Path


def main():
    ksrc, patches = Path(sys.argv[1]), sys.argv[2:]
    added = {}
    for p in patches:
        path = None
        for line in Path(p).read_text(errors="replace").splitlines():
            m = re.match(r"^\+\+\+ b/(.*)$", line)
            if m:
                path = m.group(1)
            elif path and line.startswith("+"):
                added.setdefault(path, set()).add(line[1:].strip())
    for w in sys.stdin.read().splitlines():
        m = re.match(r"^(?:\S*/)?(?P<file>(?:kernel|lib|include|samples)/\S+?):(?P<line>\d+):", w.replace(str(ksrc) + "/", ""))
        if not m:
            print("NEW " + w)
            continue
        f, n = m.group("file"), int(m.group("line"))
        try:
            text = (ksrc / f).read_text(errors="replace").splitlines()[n - 1].strip()
        except (OSError, IndexError):
            print("NEW " + w)
            continue
        ours = f.startswith("kernel/relay_trace") or f.startswith("samples/relay_trace") or \
            f == "include/linux/relay_trace.h" or text in added.get(f, set())
        print(("NEW " if ours else "OLD ") + w)


if __name__ == "__main__":
    main()
