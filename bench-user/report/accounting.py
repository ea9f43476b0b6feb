"""The accounting checker of make bench and of the tests: one verdict per
run, from the module's counts (R line) and what a reader saw (D lines).

A reader (relay-drain, or relay_bench.ko's own check of a ring buffer)
checks each record by content with relay_bench_check() and reports, per
stream and per writer, what it saw.  Here the two sides are held against
each other.  Every violation is named by its fault class, first word:

  hole        successful writes that no reader saw
  phantom     a record whose success count did not advance: a write the
              writer counted as refused, yet it was stored
  lost+phantom  both in one writer, whose counts then agree by accident
  reorder     a record older than the one before it, or a timestamp that
              went backwards
  payload     a record whose payload is not derived from its header
              (torn, overwritten while copied, zeroed, ...)
  truncated   bytes that do not make a whole record
  stale       a whole record of another run
  foreign     a record of no writer of this run
  refusals    refused writes that do not match the sequence numbers, or
              the trace's dropped and refused counters
  newest      a flight dump that does not end at a writer's last write,
              or holds other than the records its buffer keeps
  module      the module's own counts disagree, or a reader is missing

Non-flight runs are checked exactly.  A flight trace read after the
writers stopped is checked strictly too: each writer's records must be its
newest, contiguous and in order, ending at its last successful write.  A
flight trace read while the writers overwrite it (question c, flight
live) gets figures instead: relay gives such a reader no consistency
guarantee, and how often it sees records out of order or torn is what is
measured.
"""
from dataclasses import dataclass, field


@dataclass
class Verdict:
    verdict: str                    # "ok", "FAIL", "figures" or "n/a"
    records: int = 0                # records checked by content
    violations: list = field(default_factory=list)
    figures: dict = field(default_factory=dict)

    @property
    def failed(self):
        return self.verdict == "FAIL"


def _n(d, k):
    return int(d.get(k, 0))


def _flight(run):
    return run.get("flight", "0") in ("1", "Y", "y")


def _writers(run):
    """Per writer: the sum of what every reader saw of it, and its streams."""
    seen = {}
    for w in run.lines("writer"):
        cpu = int(w["cpu"])
        s = seen.setdefault(cpu, {"streams": [], "records": 0, "seq_gaps": 0,
                                  "ok_gaps": 0, "ok_dups": 0, "backwards": 0,
                                  "ts_back": 0})
        s["streams"].append(w)
        for k in ("records", "seq_gaps", "ok_gaps", "ok_dups", "backwards",
                  "ts_back"):
            s[k] += _n(w, k)
    return seen


def _stream_faults(run, v, live_figures):
    for st in run.lines("stream"):
        n = st.get("n", "?")
        if _n(st, "stale"):
            v.violations.append(f"stale: stream {n}: {st['stale']} records of another run")
        if _n(st, "bad"):
            v.violations.append(f"foreign: stream {n}: {st['bad']} records of no writer of this run")
        if _n(st, "partial"):
            v.violations.append(f"truncated: stream {n}: {st['partial']} bytes that are not a whole record")
        if _n(st, "torn") and not live_figures:
            v.violations.append(f"payload: stream {n}: {st['torn']} records whose payload does not match their header")


def _writer_stream(w, s, v, what):
    """The writer's records: in one stream, in order, none missing between.
    Returns that stream, or None if they are spread over several."""
    if len(s["streams"]) != 1:
        v.violations.append(f"module: writer {w}: records in {len(s['streams'])} streams")
        return None
    if s["ok_gaps"] and s["ok_dups"]:
        v.violations.append(f"lost+phantom: writer {w}: {s['ok_gaps']} stored records missing and "
                            f"{s['ok_dups']} records stored although counted as refused{what}")
    elif s["ok_gaps"]:
        v.violations.append(f"hole: writer {w}: {s['ok_gaps']} successful writes missing between records{what}")
    elif s["ok_dups"]:
        v.violations.append(f"phantom: writer {w}: {s['ok_dups']} records stored although counted as refused{what}")
    if s["backwards"]:
        v.violations.append(f"reorder: writer {w}: {s['backwards']} records older than the one before{what}")
    if s["ts_back"]:
        v.violations.append(f"reorder: writer {w}: {s['ts_back']} timestamps earlier than the one before{what}")
    return s["streams"][0]


def check(run):
    """The verdict on one run (a runfmt.Run)."""
    att, ok, failed = run.per_writer("attempted"), run.per_writer("ok"), run.per_writer("failed")
    mode, drain, flight = run["mode"], run.get("drain", "after"), _flight(run)
    v = Verdict("ok")
    for e in run.errors:
        v.violations.append(f"module: {e}")
    nw = int(run.get("writers", len(att)))
    if not (len(att) == len(ok) == len(failed) == nw):
        v.violations.append(f"module: {nw} writers but {len(att)}/{len(ok)}/{len(failed)} results")
        v.verdict = "FAIL"
        return v
    for w in range(nw):
        if att[w] != ok[w] + failed[w]:
            v.violations.append(f"module: writer {w}: attempted {att[w]} != ok {ok[w]} + refused {failed[w]}")

    if mode == "none":
        if sum(failed):
            v.violations.append(f"module: {sum(failed)} refusals without a write")
        v.verdict = "FAIL" if v.violations else "n/a"
        return v

    live_flight = flight and drain == "live"
    has_reader = run.lines("drain") or (mode == "ftrace" and run.lines("stream"))
    if not has_reader:
        v.violations.append("module: no reader's summary (relay-drain did not report)")
    seen = _writers(run)
    v.records = sum(_n(st, "records") for st in run.lines("stream"))
    _stream_faults(run, v, live_flight)

    if live_flight:
        v.figures = {
            "records": v.records,
            "backwards": sum(s["backwards"] for s in seen.values()),
            "torn": sum(_n(st, "torn") for st in run.lines("stream")),
            "ts_back": sum(s["ts_back"] for s in seen.values()),
            "ok_gaps": sum(s["ok_gaps"] for s in seen.values()),
        }
        v.verdict = "FAIL" if v.violations else "figures"
        return v

    if not flight:
        for w in range(nw):
            s = seen.get(w)
            got = s["records"] if s else 0
            if got < ok[w]:
                v.violations.append(f"hole: writer {w}: {ok[w] - got} of its {ok[w]} successful writes not read")
            elif got > ok[w]:
                v.violations.append(f"phantom: writer {w}: {got - ok[w]} more records read than its {ok[w]} successful writes")
            if not s:
                continue
            st = _writer_stream(w, s, v, "")
            if st is None:
                continue
            if ok[w] and (_n(st, "first_ok") != 0 or _n(st, "last_ok") != ok[w] - 1):
                v.violations.append(f"hole: writer {w}: success counts {st['first_ok']}..{st['last_ok']}, "
                                    f"want 0..{ok[w] - 1}")
            tail = att[w] - 1 - _n(st, "last_seq")
            refused = _n(st, "first_seq") + s["seq_gaps"] + tail
            if refused != failed[w]:
                v.violations.append(f"refusals: writer {w}: {failed[w]} refused, but the sequence numbers "
                                    f"skip {refused}")
        counted = _n(run.fields, "dropped") + _n(run.fields, "refused")
        if mode != "ftrace" and sum(failed) != counted:
            v.violations.append(f"refusals: writers were refused {sum(failed)} times, the trace counted "
                                f"{run.get('dropped')} dropped + {run.get('refused')} refused")
    else:
        _check_flight_dump(run, v, seen, ok, att, failed, nw)

    v.verdict = "FAIL" if v.violations else "ok"
    return v


def _check_flight_dump(run, v, seen, ok, att, failed, nw):
    """A flight trace read after stop: each writer's newest records."""
    mode = run["mode"]
    size = int(run["rec_size"])
    if sum(failed):
        v.violations.append(f"refusals: {sum(failed)} writes refused by a flight trace")
    present = {w: s for w, s in seen.items() if s["records"]}
    for w in range(nw):
        s = present.get(w)
        if not s:
            # Only a global buffer may have overwritten all of a writer's
            # records: those of the others then fill it (checked below).
            # Timestamps cannot tell: writers on other CPUs stamp their
            # records before they wait for the lock.
            if ok[w] and mode != "global":
                v.violations.append(f"newest: writer {w}: none of its {ok[w]} records in the dump")
            continue
        st = _writer_stream(w, s, v, " in the flight dump")
        if st is None:
            continue
        if _n(st, "last_ok") != ok[w] - 1:
            v.violations.append(f"newest: writer {w}: the dump ends at its write {st['last_ok']}, "
                                f"not at its last, {ok[w] - 1}")
        if _n(st, "last_seq") != att[w] - 1:
            v.violations.append(f"newest: writer {w}: the dump ends at attempt {st['last_seq']}, "
                                f"not at its last, {att[w] - 1}")
    if mode == "ftrace":
        return      # the ring buffer's capacity in records is not fixed
    # A flight buffer keeps n_subbufs - 1 sub-buffers: the last one,
    # finished by the flush at stop, holds the records written since the
    # last switch; the ones before it are full.
    per_sub = int(run["subbuf_size"]) // size

    def kept(written):
        last = written % per_sub or per_sub
        return min(written, (int(run["n_subbufs"]) - 2) * per_sub + last)
    if mode == "global":
        total = sum(s["records"] for s in present.values())
        want = kept(sum(ok))
        if total != want:
            v.violations.append(f"newest: the global dump holds {total} records, the buffer keeps {want}")
    else:
        for w, s in present.items():
            want = kept(ok[w])
            if s["records"] != want:
                v.violations.append(f"newest: writer {w}: the dump holds {s['records']} records, "
                                    f"its buffer keeps {want}")
