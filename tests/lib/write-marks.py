#!/usr/bin/env python3
"""The trace layer's write-in-progress mark keeps the write inside it.

Usage: write-marks.py KERNEL_TREE

__this_cpu_inc() and __this_cpu_dec() are not volatile asm on x86, so the
compiler may move them across the write they are meant to bracket unless
compiler barriers hold them in place (as kernel/trace/trace_recursion.h
does for its marks).  The series keeps the increment and the decrement in
two helpers of include/linux/relay_trace.h; this checks that

  - relay_trace_write_mark() increments relay_trace_write_depth, then barrier();
  - relay_trace_write_unmark() does barrier(), then decrements it;
  - nothing else in the trace layer's files increments or decrements
    relay_trace_write_depth (they call the helpers);
  - every function of those files that marks also unmarks, as often.

Prints one line per finding and exits 1 if there is any.
"""
import re
import sys
from pathlib import Path

FILES = ("include/linux/relay_trace.h", "kernel/relay_trace.c")
CHANGE = re.compile(r"\b(?:raw_cpu|__this_cpu|this_cpu)_(?:inc|dec|add|sub)(?:_return)?\s*\(\s*relay_trace_write_depth\b")


def strip_comments(text):
    text = re.sub(r"/\*.*?\*/", lambda m: "\n" * m.group(0).count("\n"), text, flags=re.S)
    return re.sub(r"//[^\n]*", "", text)


def functions(text):
    """(name, body) of each top-level function definition."""
    for m in re.finditer(r"^[a-z_][^\n;]*?\b(\w+)\([^;{]*?\)\s*\{", text, re.M | re.S):
        depth, i = 1, m.end()
        while depth and i < len(text):
            depth += {"{": 1, "}": -1}.get(text[i], 0)
            i += 1
        yield m.group(1), text[m.end():i - 1]


def statements(body):
    return [s.strip() for s in re.split(r"[;{}]", body) if s.strip()]


def main():
    tree = Path(sys.argv[1])
    bad = []
    helpers = {}
    for rel in FILES:
        text = strip_comments((tree / rel).read_text())
        for name, body in functions(text):
            st = statements(body)
            if name in ("relay_trace_write_mark", "relay_trace_write_unmark"):
                helpers[name] = st
                continue
            if any(CHANGE.search(s) for s in st):
                bad.append(f"{rel}: {name}() changes relay_trace_write_depth itself, not through relay_trace_write_mark()/_unmark()")
            marks = sum(len(re.findall(r"\btrace_write_mark\(\)", s)) for s in st)
            unmarks = sum(len(re.findall(r"\btrace_write_unmark\(\)", s)) for s in st)
            if marks != unmarks:
                bad.append(f"{rel}: {name}() marks {marks} times and unmarks {unmarks} times")
    want = {
        "relay_trace_write_mark": ["__this_cpu_inc(relay_trace_write_depth)", "barrier()"],
        "relay_trace_write_unmark": ["barrier()", "__this_cpu_dec(relay_trace_write_depth)"],
    }
    for name, st in want.items():
        if name not in helpers:
            bad.append(f"{FILES[0]}: no {name}()")
        elif [re.sub(r"\s+", "", s) for s in helpers[name]] != st:
            bad.append(f"{FILES[0]}: {name}() is {'; '.join(helpers[name]) or 'empty'}, not {'; '.join(st)}")
    for b in bad:
        print(b)
    if not bad:
        print(f"write marks: relay_trace_write_mark() and relay_trace_write_unmark() hold their barriers; "
              f"nothing else changes relay_trace_write_depth in {', '.join(FILES)}")
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
