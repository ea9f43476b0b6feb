"""The run format of make bench and make bench-cost: the one place that
defines it, and its one parser.

A run is described by one line of runs.txt (written by plan.py, read by
bench-user/guest/bench.sh, which knows no key but the ones it acts on):

    idx=7 of=90 q=a rep=2 drain=after dcpu=- | mode=percpu flight=0 ...

Left of "|" are the harness's keys (HARNESS): the run's index and the
number of runs, the question it answers (a: write-path cost, b: lossless
rate, c: overload; w: the warm-up run, excluded from the figures; s: a
run of make test's stress step), the repetition, and
how the trace is read, by relaytrace (after: once the writers stopped,
relaytrace dump; live: while they write, relaytrace record, reader=mmap
or read, or the tool's own choice; none); dcpu, where format 1's reader
ran ("-" now: relaytrace runs each reader on its buffer's CPU); in an
A/B run (make bench-ab) also which build of relay_bench.ko the run loads
(ko=a or ko=b); and for a peer, the variant (variant=, variants.py),
whose module parameter mode= is the tracepoint's, and the system the
guest sets up around it (peer=trace-cmd, bpf-ringbuf:shared,
bpf-ringbuf:percpu, perf: bench-user/guest/peers/).  Right of "|" are
relay_bench.ko's module parameters,
passed to insmod as they are.  Keys may come in any order.

A line with bisect=LO:HI:TOL (question b) is a bisection of the lossless
rate, whose steps the guest runs in one module load: each step prints an
R line of its own, idx=S (S after the plan's runs) parent=IDX step=K,
with the line's keys but rate and run_id, which each step sets.

The guest prints, on its output port (vm/run --output):

    M key=value ...          facts of the guest (clocksource, cpus, ...)
    R idx=N key=value ...    one per run: the run line's keys (both
                             halves), then the module's results: per
                             writer, as comma-separated lists,
                             attempted ok refused ns last_ts; the trace's
                             counters trace_dropped trace_refused; hist,
                             the latency histogram; for a peer,
                             its system's loss counter per writer's
                             CPU (peer_lost) and its consumer's CPU
                             time (peer_cpu_us)
    D idx=N KIND key=value   what a reader saw: KIND file, stream, writer
                             or drain, each line's keys defined once, by
                             its format string in bench-module/uapi/
                             relay_bench.h (D_KEYS, read from there)
    E idx=N message          an error of that run
    [i/N] ...                progress, ignored here

make bench-cost prints R lines too, without idx: "R kind=K size=S
writes=N total_ns=T".

Result folders of the format before this one (FORMAT 1) named the R
line's per-writer refusals failed= and the trace's counters dropped= and
refused=; parse() reads them under the new names.
"""
import re
from dataclasses import dataclass, field
from pathlib import Path

import variants

# The format of result folders: meta.json's "format" (absent in format 1).
FORMAT = 2

# The harness's keys of a run line.
HARNESS = ("idx", "of", "q", "rep", "drain", "dcpu", "ko", "reader", "bisect", "variant", "peer")
# Keys of a bisection's step, on its R line only, and what each sets.
STEP_KEYS = ("parent", "step")
STEP_SETS = ("idx", "rate", "run_id")
# Format 1's R keys, by their names now.
R_KEYS_FORMAT1 = {"failed": "refused", "dropped": "trace_dropped", "refused": "trace_refused"}

UAPI = Path(__file__).resolve().parents[2] / "bench-module" / "uapi" / "relay_bench.h"


def d_line_keys(header=UAPI):
    """{KIND: (key, ...)} of the D lines, from the format strings
    RELAY_BENCH_<KIND>_FMT of the uapi header: the first word of a format
    is its kind, the others are key=%conversion."""
    text = Path(header).read_text()
    kinds = {}
    for m in re.finditer(r"#define\s+RELAY_BENCH_\w+_FMT\s*\\?\s*((?:\"[^\"]*\"\s*\\?\s*)+)", text):
        fmt = "".join(re.findall(r"\"([^\"]*)\"", m.group(1)))
        words = fmt.split()
        kinds[words[0]] = tuple(w.partition("=")[0] for w in words[1:])
    return kinds


D_KEYS = d_line_keys()


def max_run_id(header=UAPI):
    """The largest run id a record can carry (RELAY_BENCH_MAX_RUN)."""
    m = re.search(r"#define\s+RELAY_BENCH_MAX_RUN\s+(0x[0-9a-fA-F]+|\d+)", Path(header).read_text())
    return int(m.group(1), 0)


def kv(words):
    """KEY=VALUE words as a dict; a word without '=' is an error."""
    d = {}
    for w in words:
        k, sep, v = w.partition("=")
        if not sep:
            raise ValueError(f"'{w}' is not KEY=VALUE")
        d[k] = v
    return d


def ints(s):
    return [int(x) for x in s.split(",") if x != ""]


def flight(fields):
    """Whether a run's trace overwrites (module parameter flight)."""
    return fields.get("flight", "0") in ("1", "Y", "y")


@dataclass
class Run:
    """One R line and the D and E lines of the same run."""
    idx: int
    fields: dict
    drain: list = field(default_factory=list)   # (kind, dict) in order
    errors: list = field(default_factory=list)

    def __getitem__(self, k):
        return self.fields[k]

    def get(self, k, default=None):
        return self.fields.get(k, default)

    def per_writer(self, k):
        return ints(self.fields[k])

    def lines(self, kind):
        return [d for t, d in self.drain if t == kind]

    @property
    def reader(self):
        """The reader's own summary (its drain line), or None."""
        lines = self.lines("drain")
        return lines[0] if lines else None

    @property
    def hist(self):
        return ints(self.fields.get("hist", ""))


@dataclass
class Output:
    meta: dict = field(default_factory=dict)
    runs: dict = field(default_factory=dict)     # idx -> Run
    cost: list = field(default_factory=list)     # bench-cost R lines (dicts)
    errors: list = field(default_factory=list)   # E lines without a run
    bad: list = field(default_factory=list)      # lines that did not parse
    format: int = FORMAT                         # 1 if its R lines are of format 1


def _tagged(rest):
    """The words of a D or E line's rest: (idx, the words other than idx=)."""
    words = rest.split()
    idx = next((w[4:] for w in words if w.startswith("idx=")), None)
    return (int(idx) if idx is not None else None), [w for w in words if not w.startswith("idx=")]


def _r_fields(rest, out):
    f = kv(rest.split())
    if "failed" in f:                  # format 1
        out.format = 1
        f = {R_KEYS_FORMAT1.get(k, k): v for k, v in f.items()}
    return f


def _d_line(words):
    kind, f = words[0], kv(words[1:])
    want = D_KEYS.get(kind)
    if want is None:
        raise ValueError(f"D line of unknown kind '{kind}' (relay_bench.h defines {', '.join(D_KEYS)})")
    missing = [k for k in want if k not in f]
    if missing:
        raise ValueError(f"D {kind} line without {', '.join(missing)}")
    return kind, f


def parse(source):
    """Parse guest output (a path, or the text itself) into an Output.

    D and E lines follow the R line of their run; one that comes before
    it, or names no run, is reported in Output.errors.
    """
    text = source if isinstance(source, str) and "\n" in source else \
        Path(source).read_text(errors="replace")
    out = Output()
    for n, line in enumerate(text.splitlines(), 1):
        tag, _, rest = line.strip("\r").partition(" ")
        try:
            if tag == "M":
                out.meta.update(kv(rest.split()))
            elif tag == "R":
                f = _r_fields(rest, out)
                if "idx" in f:
                    out.runs[int(f["idx"])] = Run(int(f["idx"]), f)
                else:
                    out.cost.append(f)
            elif tag in ("D", "E"):
                idx, words = _tagged(rest)
                if idx is None:
                    out.errors.append(rest)
                elif idx not in out.runs:
                    out.errors.append(f"line {n}: {tag} line before the R line of run {idx}: {' '.join(words)[:80]}")
                elif tag == "E":
                    out.runs[idx].errors.append(" ".join(words))
                else:
                    out.runs[idx].drain.append(_d_line(words))
        except (ValueError, KeyError, IndexError) as e:
            out.bad.append(f"line {n}: {e}: {line[:120]}")
    return out


def parse_run_line(line):
    """One line of runs.txt: (harness dict, module parameter dict), or
    None for a comment or a blank line."""
    if not line.strip() or line.startswith("#"):
        return None
    h, sep, p = line.partition("|")
    if not sep:
        raise ValueError(f"runs.txt: no '|' in: {line}")
    harness, params = kv(h.split()), kv(p.split())
    unknown = sorted(set(harness) - set(HARNESS))
    if unknown or "idx" not in harness:
        raise ValueError(f"runs.txt: harness keys {unknown or ['no idx']} are not of {HARNESS}: {line}")
    return harness, params


def parse_runs_txt(path):
    """runs.txt: a list of (harness dict, module parameter dict)."""
    return [r for r in map(parse_run_line, Path(path).read_text().splitlines()) if r]


def check_planned(out, planned):
    """The R lines against runs.txt: each run's R line carries its run
    line's keys and values.  Returns the mismatches, as messages."""
    by_idx = {h["idx"]: {**h, **p} for h, p in planned}
    bad = []
    for idx, run in sorted(out.runs.items()):
        parent = run.get("parent")
        want = by_idx.get(parent if parent is not None else str(idx))
        if want is None:
            bad.append(f"run {idx}: an R line, but no such run in runs.txt")
            continue
        if parent is not None and "bisect" not in want:
            bad.append(f"run {idx}: a step of run {parent}, which is no bisection")
        skip = STEP_SETS if parent is not None else ()
        differ = [k for k, v in want.items() if k not in skip and run.get(k) != v]
        if differ:
            bad.append(f"run {idx}: its R line and runs.txt differ in {', '.join(differ)}")
    return bad


def completed(out, planned):
    """The planned runs that have an R line: their own, or one of a step."""
    done = {str(i) for i in out.runs} | {r.get("parent") for r in out.runs.values()}
    return [h["idx"] for h, _ in planned if h["idx"] in done]


def split_ab(text, planned):
    """An A/B run as two make bench runs: {"a": (guest, runs), "b": ...},
    each side's guest output and runs.txt lines.  ``planned`` is the lines
    of runs.txt, whose ko= names each run's build: a run's R, D and E
    lines, and its line of runs.txt, go to that side; comments and every
    other line of the guest go to both.  A run the plan does not place, or
    whose R line names the other build, is an error: a line is never
    guessed into a side."""
    ko, runs = {}, {"a": [], "b": []}
    for line in planned:
        run = parse_run_line(line)
        if run is None:
            for v in runs.values():
                v.append(line)
            continue
        ko[int(run[0]["idx"])] = run[0].get("ko")
        if run[0].get("ko") in runs:
            runs[run[0]["ko"]].append(line)
    sides = {"a": [], "b": []}
    for line in text.splitlines():
        tag, _, rest = line.partition(" ")
        idx = _tagged(rest)[0] if tag in ("R", "D", "E") else None
        if idx is None:
            for v in sides.values():
                v.append(line)
            continue
        side = ko.get(idx)
        if side not in sides:
            raise ValueError(f"run {idx} has no ko=a or ko=b in runs.txt: {line[:80]}")
        if tag == "R" and kv(rest.split()).get("ko") != side:
            raise ValueError(f"run {idx} was planned for build {side}, "
                             f"but its R line says ko={kv(rest.split()).get('ko')}")
        sides[side].append(line)
    return {k: ("\n".join(sides[k]) + "\n", "\n".join(runs[k]) + "\n") for k in sides}


def config_parts(r):
    """A configuration, as (key, value) pairs: question, variant (named
    mode, as in format 1), flight, writers, record size and, for a
    rate-limited run, its rate.  flight is "-" where the variant has no
    choice (variants.py: ftrace always overwrites, none writes nothing,
    the peers are measured without overwriting)."""
    v = variants.of_run(r)
    fl = "-" if len(v.flights) == 1 else ("1" if flight(r) else "0")
    parts = [("q", r["q"]), ("mode", v.name), ("flight", fl), ("writers", str(r["writers"])),
             ("size", str(r["rec_size"]))]
    if str(r.get("rate", "0")) not in ("0", ""):
        parts.append(("rate", str(r["rate"])))
    return parts


def config_key(r):
    """The short spelling of a configuration in raw.csv, summary.csv and
    history.csv, e.g. 'a/percpu/flight/w2/64' (format 1's, kept)."""
    p = dict(config_parts(r))
    fl = {"1": "flight", "0": "nonflight"}.get(p["flight"], "-")
    key = f"{p['q']}/{p['mode']}/{fl}/w{p['writers']}/{p['size']}"
    return key + (f"/r{p['rate']}" if "rate" in p else "")


def bench_name(r):
    """The configuration as a Go benchmark name with key=value parts
    (benchfmt), e.g. BenchmarkWrite/q=a/mode=percpu/flight=1/writers=2/size=64."""
    return "BenchmarkWrite/" + "/".join(f"{k}={v}" for k, v in config_parts(r))
