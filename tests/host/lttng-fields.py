"""The fields of the benchmark's record in LTTng's probes (bench-module/
lttng/bench_rec_lttng.h, LTTng's field macros, which relay_bench_rec's
and relay_cost_rec's probes both expand) against the kernel's event
(bench-module/bench_rec_event.h, TRACE_EVENT's), in order: name, type,
and for an array the field that gives its length.  The prototypes are
compared by the compiler (lttng-probe-relay-*.c include both).

    python3 lttng-fields.py [BENCH_REC_EVENT_H BENCH_REC_LTTNG_H]

prints the fields and exits 0 if they agree, else names the first
difference and exits 1."""
import re
import sys
from pathlib import Path

TOP = Path(__file__).resolve().parents[2]


def ftrace_fields(text):
    """TP_STRUCT__entry's __field(T, N) and __dynamic_array(T, N, LEN)."""
    out = []
    for kind, args in re.findall(r"__(field|dynamic_array)\(([^()]*)\)", text):
        a = [x.strip() for x in args.split(",")]
        out.append((a[1], a[0], a[2] if kind == "dynamic_array" else ""))
    return out


def lttng_fields(text):
    """TP_FIELDS' ctf_integer[_hex](T, N, SRC) and
    ctf_sequence[_hex](T, N, SRC, LEN_T, LEN)."""
    out = []
    for kind, args in re.findall(r"\bctf_(integer|integer_hex|sequence|sequence_hex)\(([^()]*)\)", text):
        a = [x.strip() for x in args.split(",")]
        out.append((a[1], a[0], a[4] if kind.startswith("sequence") else ""))
    return out


def main(argv):
    ev = Path(argv[1]) if len(argv) > 2 else TOP / "bench-module/bench_rec_event.h"
    lt = Path(argv[2]) if len(argv) > 2 else TOP / "bench-module/lttng/bench_rec_lttng.h"
    a, b = ftrace_fields(ev.read_text()), lttng_fields(lt.read_text())
    print(f"{ev.name}: {a}")
    print(f"{lt.name}: {b}")
    if not a:
        print(f"no fields found in {ev}")
        return 1
    for i in range(max(len(a), len(b))):
        x = a[i] if i < len(a) else None
        y = b[i] if i < len(b) else None
        if x != y:
            print(f"field {i + 1}: {ev.name} has {x}, {lt.name} has {y}")
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
