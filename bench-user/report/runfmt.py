"""The run format of make bench and make bench-cost: the one place that
defines it, and its one parser.

A run is described by one line of runs.txt (written by plan.py, read by
bench-user/guest/bench.sh):

    idx=7 of=90 q=a rep=2 drain=after dcpu=- | mode=percpu flight=0 ...

Left of "|" are the harness's keys: the run's index and the number of
runs, the question it answers (a: write-path cost, b: lossless rate,
c: overload; w: the warm-up run, excluded from the figures), the
repetition, and how the trace is read (after: once the writers stopped;
live: while they write, with the reader on vCPU dcpu; none); in an A/B
run (make bench-ab) also which build of relay_bench.ko the run loads
(ko=a or ko=b).  Right of "|" are relay_bench.ko's module parameters,
passed to insmod as they are.

The guest prints, on its output channel (vm/run --output):

    M key=value ...          facts of the guest (clocksource, cpus, ...)
    R idx=N key=value ...    one per run: the run line's keys (both
                             halves), then the module's results, per
                             writer as comma-separated lists:
                             attempted ok failed ns last_ts, and
                             dropped refused hist (latency histogram)
    D idx=N KIND key=value   what a reader saw (relay-drain, or the
                             module's own check of a ring buffer):
                             KIND file, stream, writer or drain
    E idx=N message          an error of that run
    [i/N] ...                progress, ignored here

make bench-cost prints R lines too, without idx: "R kind=K size=S
writes=N total_ns=T".  The stream and writer lines come from format
strings in bench-module/uapi/relay_bench.h.
"""
from dataclasses import dataclass, field
from pathlib import Path

# Keys of an R line that are per-writer lists, and the harness's keys.
PER_WRITER = ("attempted", "ok", "failed", "ns", "last_ts")
HARNESS = ("idx", "of", "q", "rep", "drain", "dcpu", "ko")
QUESTIONS = {"a": "write-path cost", "b": "lossless rate", "c": "overload",
             "w": "warm-up"}


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
    def hist(self):
        return ints(self.fields.get("hist", ""))


@dataclass
class Output:
    meta: dict = field(default_factory=dict)
    runs: dict = field(default_factory=dict)     # idx -> Run
    cost: list = field(default_factory=list)     # bench-cost R lines (dicts)
    errors: list = field(default_factory=list)   # E lines without a run
    bad: list = field(default_factory=list)      # lines that did not parse


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
                f = kv(rest.split())
                if "idx" in f:
                    out.runs[int(f["idx"])] = Run(int(f["idx"]), f)
                else:
                    out.cost.append(f)
            elif tag in ("D", "E"):
                first, _, more = rest.partition(" ")
                idx = int(kv([first])["idx"]) if first.startswith("idx=") else None
                if idx is None:
                    out.errors.append(rest)
                elif idx not in out.runs:
                    out.errors.append(f"line {n}: {tag} line before the R line of run {idx}: {more[:80]}")
                elif tag == "E":
                    out.runs[idx].errors.append(more)
                else:
                    words = more.split()
                    out.runs[idx].drain.append((words[0], kv(words[1:])))
        except (ValueError, KeyError, IndexError) as e:
            out.bad.append(f"line {n}: {e}: {line[:120]}")
    return out


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
        if not line.strip() or line.startswith("#"):
            for v in runs.values():
                v.append(line)
            continue
        h = kv(line.partition("|")[0].split())
        ko[h.get("idx")] = h.get("ko")
        if h.get("ko") in runs:
            runs[h["ko"]].append(line)
    sides = {"a": [], "b": []}
    for line in text.splitlines():
        tag, _, rest = line.partition(" ")
        first = rest.split(" ", 1)[0]
        if tag in ("R", "D", "E") and first.startswith("idx="):
            idx = first[4:]
            side = ko.get(idx)
            if side not in sides:
                raise ValueError(f"run {idx} has no ko=a or ko=b in runs.txt: {line[:80]}")
            if tag == "R" and kv(rest.split()).get("ko") != side:
                raise ValueError(f"run {idx} was planned for build {side}, "
                                 f"but its R line says ko={kv(rest.split()).get('ko')}")
            sides[side].append(line)
        else:
            for v in sides.values():
                v.append(line)
    return {k: ("\n".join(sides[k]) + "\n", "\n".join(runs[k]) + "\n") for k in sides}


def parse_runs_txt(path):
    """runs.txt: a list of (harness dict, module parameter string)."""
    runs = []
    for line in Path(path).read_text().splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        h, sep, p = line.partition("|")
        if not sep:
            raise ValueError(f"runs.txt: no '|' in: {line}")
        runs.append((kv(h.split()), p.strip()))
    return runs


def config_key(r):
    """The one spelling of a configuration, e.g. 'a/percpu/flight/w2/64'."""
    fl = "flight" if r.get("flight", "0") in ("1", "Y", "y") else "nonflight"
    mode = r["mode"]
    if mode in ("none", "ftrace"):
        fl = "-"
    key = f"{r['q']}/{mode}/{fl}/w{r['writers']}/{r['rec_size']}"
    if r.get("rate", "0") not in ("0", ""):
        key += f"/r{r['rate']}"
    return key


def bench_name(key):
    """The same key as a Go benchmark name, for benchstat."""
    return "BenchmarkWrite/" + key.replace("/", "/")
