#!/usr/bin/env python3
"""Split compiler or sparse warnings into the series' and the tree's own:

  new-warnings.py KSRC PATCH... < WARNINGS

A warning on kernel/relay.c line N belongs to the series if the text of
line N is one the series adds (a "+" line of a patch); else it was there
before the series (the pristine tree warns the same).  A warning placed
in a macro of a header (a printk format, in include/linux/kern_levels.h)
belongs to the series if one of the "note: in expansion of macro" lines
that follow it in the compiler's output is a series' line: pass those
notes too (the compiler's whole output may be passed; other lines are
ignored).  Prints each warning prefixed with "NEW " or "OLD ".  The files
the series creates are the series' throughout.
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
    def ours(line):
        """Whether LINE's location is a series' line; None if it names none."""
        m = re.match(r"^(?:\S*/)?(?P<file>(?:kernel|lib|include|samples|arch)/\S+?):(?P<line>\d+):",
                     line.replace(str(ksrc) + "/", ""))
        if not m:
            return None
        f, n = m.group("file"), int(m.group("line"))
        try:
            text = (ksrc / f).read_text(errors="replace").splitlines()[n - 1].strip()
        except (OSError, IndexError):
            return True
        return f.startswith("kernel/relay_trace") or f.startswith("samples/relay_trace") or \
            f == "include/linux/relay_trace.h" or text in added.get(f, set())

    # Each warning with the notes that follow it, up to the next warning.
    warnings = []
    for line in sys.stdin.read().splitlines():
        if re.search(r"\b(warning|error):", line):
            warnings.append([line, []])
        elif warnings and re.search(r"\bnote: in (expansion|definition) of macro", line):
            warnings[-1][1].append(line)
    for w, notes in warnings:
        verdict = ours(w)
        if verdict is None:
            verdict = True      # no location: not the tree's, as far as we know
        verdict = verdict or any(ours(n) for n in notes)
        print(("NEW " if verdict else "OLD ") + w)

if __name__ == "__main__":
    main()
