"""plan: turn a matrix description (bench-user/matrix/*.conf) into the
lines of runs.txt (format: runfmt.py), in an order shuffled with a
recorded seed, after one warm-up run.
"""
import random
from pathlib import Path

import variants
from runfmt import max_run_id

REQUIRED = ("sizes", "writers", "subbuf_size")
# The module's largest run id, and the top of the ids of runs that are
# not bisections: the upper half is the bisections'.
RUN_MAX = max_run_id()
RUNS_TOP = RUN_MAX // 2
# The peers' files (variants.py: peer), copied into the guest as /extra/peers/.
PEERS_DIR = Path(__file__).resolve().parents[1] / "guest" / "peers"


def read_conf(path):
    conf = {}
    for n, line in enumerate(Path(path).read_text().splitlines(), 1):
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        k, sep, v = line.partition("=")
        if not sep:
            raise ValueError(f"{path}:{n}: not KEY = VALUE: {line}")
        conf[k.strip()] = v.split()
    for k in REQUIRED:
        if k not in conf:
            raise ValueError(f"{path}: no '{k} = ...' line")
    return conf


def _one(conf, key):
    if key not in conf:
        raise ValueError(f"the matrix has no '{key} = ...' line")
    return conf[key][0]


def without(conf, needs):
    """CONF without the variants that need one of NEEDS (variants.py's
    needs: what this kernel cannot have)."""
    return {k: [m for m in v if variants.get(m).needs not in needs] if k.endswith(".modes") else v
            for k, v in conf.items()}


def needs(conf_path):
    """What the variants of a matrix need built for them (variants.py)."""
    conf = read_conf(conf_path)
    return sorted({variants.get(m).needs for k, v in conf.items() if k.endswith(".modes")
                   for m in v if variants.get(m).needs})


def runs(conf):
    """The runs of a matrix, as (harness dict, module parameters dict), in
    a canonical order (question, then configuration, then repetition)."""
    sizes, writers = conf["sizes"], conf["writers"]
    sub = _one(conf, "subbuf_size")
    out = []

    def for_variant(q, mode, key, default):
        """A matrix value for one variant: a peer's own (Q.peer_KEY), if
        the matrix has one, else the question's (Q.KEY) or DEFAULT."""
        if not variants.get(mode).result and f"{q}.peer_{key}" in conf:
            return conf[f"{q}.peer_{key}"]
        return conf.get(f"{q}.{key}", default)

    def add(q, rep, drain, harness=None, **p):
        v = variants.get(p["mode"])
        if q not in v.questions:
            raise ValueError(f"{q}.modes: variant {v.name} does not answer ({q})")
        if v.peer:
            if not (PEERS_DIR / f"{v.peer}.sh").is_file():
                raise ValueError(f"variant {v.name}: no {PEERS_DIR.relative_to(PEERS_DIR.parents[2])}/{v.peer}.sh")
            harness = {**(harness or {}), "variant": v.name, "peer": variants.peer_word(v)}
        params = {"mode": v.module, "flight": p.get("flight", 0),
                  "writers": p["writers"], "rec_size": p["rec_size"],
                  "subbuf_size": conf.get(f"{q}.subbuf_size", [sub])[0],
                  "n_subbufs": p["n_subbufs"],
                  "duration_ms": p["duration_ms"], "rate": p.get("rate", 0),
                  "stop_on_drop": p.get("stop_on_drop", 0)}
        if "keep_running" in p:
            params["keep_running"] = p["keep_running"]
        out.append(({"q": q, "rep": rep, "drain": drain, "dcpu": "-", **(harness or {})}, params))

    if "a.modes" in conf:
        for mode in conf["a.modes"]:
            v = variants.get(mode)
            reps = int(for_variant("a", mode, "reps", None)[0])
            dur = for_variant("a", mode, "duration_ms", None)[0]
            for fl in v.flights:
                for w in for_variant("a", mode, "writers", writers):
                    for s in for_variant("a", mode, "sizes", sizes):
                        nsub = _one(conf, "a.n_subbufs_flight" if fl or v.overwrite else "a.n_subbufs")
                        drain = "after" if v.after not in ("", "module") else "none"
                        for r in range(1, reps + 1):
                            add("a", r, drain, mode=mode, flight=fl, writers=w,
                                rec_size=s, n_subbufs=nsub, duration_ms=dur,
                                stop_on_drop=0 if fl or not v.result else 1)
    if "b.modes" in conf:
        # One bisection of the lossless rate per line (the guest runs its
        # steps: bench-user/guest/bench.sh), with each reader of
        # relaytrace, b.reps times.
        size, dur = _one(conf, "b.size"), _one(conf, "b.duration_ms")
        lo, hi, tol = (_one(conf, k) for k in ("b.lo", "b.hi", "b.tol"))
        if not all(v.isdigit() for v in (lo, hi, tol)) or not 0 < int(lo) < int(hi) or int(tol) < 1:
            raise ValueError(f"b.lo = {lo}, b.hi = {hi}, b.tol = {tol}: want integers, "
                             "0 < b.lo < b.hi and b.tol >= 1 (percent)")
        bisect = f"{lo}:{hi}:{tol}"
        for mode in conf["b.modes"]:
            for w in for_variant("b", mode, "writers", writers):
                # relaytrace's two readers; a peer has its consumer's own.
                rdrs = conf.get("b.readers", ["mmap", "read"]) if variants.get(mode).system == "relay" else [""]
                for reader in rdrs:
                    for r in range(1, int(for_variant("b", mode, "reps", None)[0]) + 1):
                        add("b", r, "live", {**({"reader": reader} if reader else {}), "bisect": bisect}, mode=mode,
                            writers=w, rec_size=size, n_subbufs=_one(conf, "b.n_subbufs"),
                            duration_ms=for_variant("b", mode, "duration_ms", [dur])[0], keep_running=1)
    if "c.modes" in conf:
        for mode in conf["c.modes"]:
            dur = for_variant("c", mode, "duration_ms", None)[0]
            # c.readers: relaytrace's choice (""), mmap, read, or readloop's
            # plain read(2) (plain, plain-rand), on CPU c.dcpu if given.
            rdrs = [r if r != "-" else "" for r in conf.get("c.readers", ["-"])] \
                if variants.get(mode).system == "relay" else [""]
            dcpu = _one(conf, "c.dcpu") if "c.dcpu" in conf else "-"
            for fl in [f for f in conf.get("c.flight", ["0"]) if int(f) in variants.get(mode).flights]:
                # Flight runs read live: c.flight_reps of them.
                reps = int(_one(conf, "c.flight_reps") if fl == "1" and "c.flight_reps" in conf
                           else for_variant("c", mode, "reps", None)[0])
                for w in for_variant("c", mode, "writers", writers):
                    for s in for_variant("c", mode, "size", conf.get("c.size", sizes)):
                        for reader in rdrs:
                            h = {**({"reader": reader} if reader else {}), **({"dcpu": dcpu} if dcpu != "-" else {})}
                            for r in range(1, reps + 1):
                                add("c", r, "live", h or None, mode=mode,
                                    flight=int(fl), writers=w, rec_size=s,
                                    n_subbufs=_one(conf, "c.n_subbufs"), duration_ms=dur)
    return out


def plan(conf_path, seed, ab=False, skip=()):
    """The lines of runs.txt: a warm-up run, then every run, shuffled.

    ab: a warm-up run of each build, then every run twice, once with each
    build of relay_bench.ko (ko=a, ko=b), the two next to each other in an
    order drawn for each pair -- A/B, B/A, ... -- so that a drift of the
    boot falls on both alike.
    """
    conf = without(read_conf(conf_path), skip)
    todo = runs(conf)
    rng = random.Random(seed)
    rng.shuffle(todo)
    if ab:
        pairs = [("a", "b") if rng.random() < 0.5 else ("b", "a") for _ in todo]
        todo = [({**h, "ko": k}, p) for (h, p), ab_ in zip(todo, pairs) for k in ab_]
    # Warm-up: the first (a) configuration with the most writers.
    warm = max((r for r in todo if r[0]["q"] == "a" and "peer" not in r[0]), key=lambda r: int(r[1]["writers"]),
               default=todo[0])
    # With two builds, each gets its warm-up.
    warmups = [({**warm[0], "q": "w", "rep": 1, **({"ko": k} if ab else {})}, dict(warm[1]))
               for k in (("a", "b") if ab else ("",))]
    todo = warmups + todo
    lines = [f"# runs of {conf_path}, seed {seed}: {len(todo)} runs, the first "
             + ("two warm-ups, then every run with build a and build b of relay_bench.ko, "
                "in adjacent pairs" if ab else "a warm-up")]
    for i, (h, p) in enumerate(todo, 1):
        # Run ids 1..RUNS_TOP for runs, and above it 64 for each
        # bisection: its steps use base+1..base+63 (bench.sh), none of
        # them another run's.
        if "bisect" in h:
            run_id = RUNS_TOP + 1 + (i * 64) % (RUN_MAX - RUNS_TOP - 63)
        else:
            run_id = (seed * 1000 + i) % RUNS_TOP + 1
        hw = " ".join(f"{k}={v}" for k, v in {"idx": i, "of": len(todo), **h}.items())
        pw = " ".join(f"{k}={v}" for k, v in {**p, "run_id": run_id}.items())
        lines.append(f"{hw} | {pw}")
    return lines
