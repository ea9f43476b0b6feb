"""The accounting checker of make bench and of the tests: one verdict per
run, from the module's counts (R line) and what a reader saw (D lines).

A reader (bench-verify, on what relaytrace recorded, or relay_bench.ko's
own check of a ring buffer)
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
  unwritten   a record of zeros: bytes no writer wrote (relay zeroes a
              buffer when it allocates it, and run identifiers start at 1)
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
live) is checked for what the read side promises such a reader: whole
records of this run, each writer's in order and none twice, nothing
torn and nothing unwritten; what the writers overwrote before it was read
is a figure (the successful writes not seen), not a fault.

A peer (variants.py: a system recording the module's tracepoint) gives
its writers no result per write: there, each writer's attempts must be
its records read plus the system's own loss counter for its CPU
(peer_lost), and the sequence numbers the records skip must be that
loss -- counters and content, held against each other.  A peer whose
buffers overwrite (variants.py's overwrite: an LTTng snapshot session)
counts no record it overwrote: there each writer's records must be its
newest, ending at its last attempt, and what they skip before the first
one kept is the records overwritten (a figure), added to its counter.
"""
from dataclasses import dataclass, field

import runfmt
import variants

CLASSES = ("hole", "phantom", "lost+phantom", "reorder", "payload", "truncated", "stale",
           "unwritten", "foreign", "refusals", "newest", "module")


@dataclass
class Violation:
    cls: str                        # its fault class, one of CLASSES
    what: str                       # what was found, in words
    writer: int = None              # the writer it concerns, if one
    count: int = None               # how many records, writes or bytes

    def __str__(self):
        return f"{self.cls}: {self.what}"


@dataclass
class Verdict:
    verdict: str                    # "ok", "FAIL", "figures" or "n/a"
    records: int = 0                # records checked by content
    violations: list = field(default_factory=list)     # of Violation
    figures: dict = field(default_factory=dict)

    @property
    def failed(self):
        return self.verdict == "FAIL"

    def add(self, cls, what, writer=None, count=None):
        assert cls in CLASSES, cls
        self.violations.append(Violation(cls, what, writer, count))

    def data(self):
        """The verdict as data (verdict.json, report.py check --json)."""
        return {"verdict": self.verdict, "records": self.records,
                "violations": [{"class": v.cls, "writer": v.writer, "count": v.count, "text": str(v)}
                               for v in self.violations],
                "figures": self.figures}


def folder_verdict(out, verdicts, planned=None):
    """The verdict on a guest's output (runfmt.Output) and the verdicts of
    its runs, as data: what verdict.json holds, report.py check --json
    prints, and the tests read.  Warm-up runs (q=w) are checked and
    listed but not counted.  planned: runs.txt's runs, if there is one;
    runs missing from the output, and R lines that differ from their run
    line, are errors then."""
    by_run, counted = [], []
    for idx in sorted(out.runs):
        run, v = out.runs[idx], verdicts[idx]
        by_run.append({"idx": idx, "config": runfmt.config_key(run), "q": run["q"],
                       "flight": int(runfmt.flight(run)), "drain": run.get("drain", "-"), **v.data()})
        if run["q"] != "w":
            counted.append(by_run[-1])
    strict = [r for r in counted if r["verdict"] in ("ok", "FAIL")]
    errors = out.errors + out.bad + [f"run {r.idx}: {e}" for r in out.runs.values() for e in r.errors]
    if planned is not None:
        errors += runfmt.check_planned(out, planned)
    missing = len(planned) - len(runfmt.completed(out, planned)) if planned is not None else 0
    failed = sum(r["verdict"] == "FAIL" for r in counted)
    return {
        "format": runfmt.FORMAT,
        "verdict": "ok" if counted and not failed and not errors and not missing else "FAIL",
        "runs": {"planned": len(planned) if planned is not None else None, "completed": len(out.runs),
                 "counted": len(counted), "missing": missing},
        "runs_checked": len(strict),
        "records_checked": sum(r["records"] for r in strict),
        "failed_runs": {"all": failed,
                        "nonflight": sum(r["verdict"] == "FAIL" for r in strict if not r["flight"]),
                        "flight_after_stop": sum(r["verdict"] == "FAIL" for r in strict
                                                 if r["flight"] and r["drain"] != "live"),
                        "flight_live": sum(r["verdict"] == "FAIL" for r in strict
                                           if r["flight"] and r["drain"] == "live")},
        "runs_flight_live": sum(r["flight"] and r["drain"] == "live" for r in strict),
        "runs_figures_only": sum(r["verdict"] == "figures" for r in counted),
        "violations_by_class": {c: sum(x["class"] == c for r in counted for x in r["violations"])
                                for c in CLASSES},
        "by_variant": by_variant(counted),
        "errors": errors,
        "by_run": by_run,
    }


def by_variant(counted):
    """Per variant (variants.py; a run's config names it): its runs, how
    many failed, the records checked by content, the records its
    consumer gave twice (figures["duplicates"]), and the records of other
    kinds its loss counter counted (figures["lost_other_records"])."""
    out = {}
    for r in counted:
        name = r["config"].split("/")[1]
        d = out.setdefault(name, {"runs": 0, "failed": 0, "records": 0, "duplicates": 0,
                                  "lost_other_records": 0})
        d["runs"] += 1
        d["failed"] += r["verdict"] == "FAIL"
        d["records"] += r["records"] if r["verdict"] in ("ok", "FAIL") else 0
        d["duplicates"] += r["figures"].get("duplicates", 0)
        d["lost_other_records"] += r["figures"].get("lost_other_records", 0)
    return out


def _n(d, k):
    return int(d.get(k, 0))


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


def _stream_faults(run, v):
    for st in run.lines("stream"):
        n = st.get("n", "?")
        if _n(st, "zero"):
            v.add("unwritten", f"stream {n}: {st['zero']} records of zeros, bytes no writer wrote",
                  count=_n(st, "zero"))
        if _n(st, "stale"):
            v.add("stale", f"stream {n}: {st['stale']} records of another run", count=_n(st, "stale"))
        if _n(st, "bad"):
            v.add("foreign", f"stream {n}: {st['bad']} records of no writer of this run", count=_n(st, "bad"))
        if _n(st, "partial"):
            v.add("truncated", f"stream {n}: {st['partial']} bytes that are not a whole record",
                  count=_n(st, "partial"))
        if _n(st, "torn"):
            v.add("payload", f"stream {n}: {st['torn']} records whose payload does not match their header",
                  count=_n(st, "torn"))


def _writer_stream(w, s, v, what):
    """The writer's records: in one stream, in order, none missing between.
    Returns that stream, or None if they are spread over several."""
    if len(s["streams"]) != 1:
        v.add("module", f"writer {w}: records in {len(s['streams'])} streams", writer=w)
        return None
    if s["ok_gaps"] and s["ok_dups"]:
        v.add("lost+phantom", f"writer {w}: {s['ok_gaps']} stored records missing and "
              f"{s['ok_dups']} records stored although counted as refused{what}", writer=w, count=s["ok_gaps"])
    elif s["ok_gaps"]:
        v.add("hole", f"writer {w}: {s['ok_gaps']} successful writes missing between records{what}",
              writer=w, count=s["ok_gaps"])
    elif s["ok_dups"]:
        v.add("phantom", f"writer {w}: {s['ok_dups']} records stored although counted as refused{what}",
              writer=w, count=s["ok_dups"])
    if s["backwards"]:
        v.add("reorder", f"writer {w}: {s['backwards']} records older than the one before{what}",
              writer=w, count=s["backwards"])
    if s["ts_back"]:
        v.add("reorder", f"writer {w}: {s['ts_back']} timestamps earlier than the one before{what}",
              writer=w, count=s["ts_back"])
    return s["streams"][0]


def check(run):
    """The verdict on one run (a runfmt.Run)."""
    att, ok, refused = run.per_writer("attempted"), run.per_writer("ok"), run.per_writer("refused")
    var = variants.of_run(run)
    mode, drain, flight = var.name, run.get("drain", "after"), runfmt.flight(run)
    v = Verdict("ok")
    for e in run.errors:
        v.add("module", e)
    nw = int(run.get("writers", len(att)))
    if not (len(att) == len(ok) == len(refused) == nw):
        v.add("module", f"{nw} writers but {len(att)}/{len(ok)}/{len(refused)} results")
        v.verdict = "FAIL"
        return v
    if not var.result:
        return _check_peer(run, v, att, nw)
    for w in range(nw):
        if att[w] != ok[w] + refused[w]:
            v.add("module", f"writer {w}: attempted {att[w]} != ok {ok[w]} + refused {refused[w]}", writer=w)

    if var.system == "none":
        if sum(refused):
            v.add("module", f"{sum(refused)} refusals without a write", count=sum(refused))
        v.verdict = "FAIL" if v.violations else "n/a"
        return v

    live_flight = flight and drain == "live"
    has_reader = run.reader or (var.verify == "module" and run.lines("stream"))
    if not has_reader:
        v.add("module", "no reader's summary (bench-verify did not report)")
    seen = _writers(run)
    v.records = sum(_n(st, "records") for st in run.lines("stream"))
    _stream_faults(run, v)

    if live_flight:
        # Losses are what overwriting is; order, wholeness and no repeat
        # are promised (Documentation/trace/relay-trace.rst).
        for w, s in sorted(seen.items()):
            if s["backwards"]:
                v.add("reorder", f"writer {w}: {s['backwards']} records older than, or the same as, "
                      "the one before, read live", writer=w, count=s["backwards"])
            if s["ok_dups"]:
                v.add("phantom", f"writer {w}: {s['ok_dups']} records stored although counted as refused",
                      writer=w, count=s["ok_dups"])
        v.figures = {
            "records": v.records,
            "backwards": sum(s["backwards"] for s in seen.values()),
            "torn": sum(_n(st, "torn") for st in run.lines("stream")),
            "ts_back": sum(s["ts_back"] for s in seen.values()),
            "ok_gaps": sum(s["ok_gaps"] for s in seen.values()),
        }
        v.verdict = "FAIL" if v.violations else "ok"
        return v

    if not flight:
        for w in range(nw):
            s = seen.get(w)
            got = s["records"] if s else 0
            if got < ok[w]:
                v.add("hole", f"writer {w}: {ok[w] - got} of its {ok[w]} successful writes not read",
                      writer=w, count=ok[w] - got)
            elif got > ok[w]:
                v.add("phantom", f"writer {w}: {got - ok[w]} more records read than its {ok[w]} successful writes",
                      writer=w, count=got - ok[w])
            if not s:
                continue
            st = _writer_stream(w, s, v, "")
            if st is None:
                continue
            if ok[w] and (_n(st, "first_ok") != 0 or _n(st, "last_ok") != ok[w] - 1):
                v.add("hole", f"writer {w}: success counts {st['first_ok']}..{st['last_ok']}, "
                      f"want 0..{ok[w] - 1}", writer=w)
            tail = att[w] - 1 - _n(st, "last_seq")
            skipped = _n(st, "first_seq") + s["seq_gaps"] + tail
            if skipped != refused[w]:
                v.add("refusals", f"writer {w}: {refused[w]} refused, but the sequence numbers "
                      f"skip {skipped}", writer=w, count=skipped - refused[w])
        counted = _n(run.fields, "trace_dropped") + _n(run.fields, "trace_refused")
        if var.verify != "module" and sum(refused) != counted:
            v.add("refusals", f"writers were refused {sum(refused)} times, the trace counted "
                  f"{run.get('trace_dropped')} dropped + {run.get('trace_refused')} refused",
                  count=counted - sum(refused))
    else:
        _check_flight_dump(run, v, seen, ok, att, refused, nw)

    v.verdict = "FAIL" if v.violations else "ok"
    return v


def _check_flight_dump(run, v, seen, ok, att, refused, nw):
    """A flight trace read after stop: each writer's newest records."""
    mode = variants.of_run(run).name
    size = int(run["rec_size"])
    if sum(refused):
        v.add("refusals", f"{sum(refused)} writes refused by a flight trace", count=sum(refused))
    present = {w: s for w, s in seen.items() if s["records"]}
    for w in range(nw):
        s = present.get(w)
        if not s:
            # Only a global buffer may have overwritten all of a writer's
            # records: those of the others then fill it (checked below).
            # Timestamps cannot tell: writers on other CPUs stamp their
            # records before they wait for the lock.
            if ok[w] and mode != "global":
                v.add("newest", f"writer {w}: none of its {ok[w]} records in the dump", writer=w)
            continue
        st = _writer_stream(w, s, v, " in the flight dump")
        if st is None:
            continue
        if _n(st, "last_ok") != ok[w] - 1:
            v.add("newest", f"writer {w}: the dump ends at its write {st['last_ok']}, "
                  f"not at its last, {ok[w] - 1}", writer=w)
        if _n(st, "last_seq") != att[w] - 1:
            v.add("newest", f"writer {w}: the dump ends at attempt {st['last_seq']}, "
                  f"not at its last, {att[w] - 1}", writer=w)
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
            v.add("newest", f"the global dump holds {total} records, the buffer keeps {want}",
                  count=want - total)
    else:
        for w, s in present.items():
            want = kept(ok[w])
            if s["records"] != want:
                v.add("newest", f"writer {w}: the dump holds {s['records']} records, "
                      f"its buffer keeps {want}", writer=w, count=want - s["records"])


def _check_peer(run, v, att, nw):
    """A peer's run: attempts = records read + the system's loss, per
    writer, and the records' skipped sequence numbers = that loss."""
    if "peer_lost" not in run.fields:
        v.add("module", "no loss counter of the system (peer_lost) on the R line")
        v.verdict = "FAIL"
        return v
    lost = run.per_writer("peer_lost")
    if not run.lines("stream"):
        v.add("module", "no reader's summary: the consumer's records were not verified")
    seen = _writers(run)
    # Exact repeats of a record that a consumer printed twice (perf script
    # does, under overload): bench-verify --text counts them per stream
    # (its text lines); the check counted each as out of order, and not
    # as a record.  A figure, not a fault of the system under test.
    dups = {int(t["stream"]): _n(t, "dups") for t in run.lines("text") if int(t["stream"]) >= 0}
    v.records = sum(_n(st, "records") for st in run.lines("stream")) - sum(dups.values())
    if sum(dups.values()):
        v.figures["duplicates"] = sum(dups.values())
    _stream_faults(run, v)
    got = [seen[w]["records"] if w in seen else 0 for w in range(nw)]
    skipped, back = [], {}
    for w in range(nw):
        s = seen.get(w)
        if not s:
            skipped.append(att[w])
            continue
        if len(s["streams"]) != 1:
            v.add("module", f"writer {w}: records in {len(s['streams'])} streams", writer=w)
            skipped.append(None)
            continue
        st = s["streams"][0]
        back[w] = s["backwards"] - dups.get(_n(st, "stream"), 0)
        if s["ts_back"]:
            v.add("reorder", f"writer {w}: {s['ts_back']} timestamps earlier than the one before",
                  writer=w, count=s["ts_back"])
        skipped.append(_n(st, "first_seq") + s["seq_gaps"] + att[w] - 1 - _n(st, "last_seq"))
    if len(lost) == nw:
        pairs = [(f"writer {w}", [w]) for w in range(nw)]
    else:
        v.add("module", f"{nw} writers but {len(lost)} loss counters")
        v.verdict = "FAIL"
        return v
    var = variants.of_run(run)
    if var.overwrite:
        # The records overwritten: those before the first one kept.
        over = [_n(seen[w]["streams"][0], "first_seq") if w in seen and len(seen[w]["streams"]) == 1
                else att[w] for w in range(nw)]
        for w in range(nw):
            if att[w] and w not in seen:
                v.add("newest", f"writer {w}: none of its {att[w]} records in the snapshot", writer=w)
        # What the snapshot must hold at least: all of its sub-buffers
        # (the peer's guest value subbufs, of the run's buffer memory) but
        # two, each after a packet header of at most 128 bytes and with
        # records of at most rec_size + 40 bytes (LTTng's event header and
        # the event's length fields).  Fewer: it lost its oldest.
        n_sub = int(var.guest.get("subbufs", 0))
        if n_sub > 2:
            sub = int(run["subbuf_size"]) * int(run["n_subbufs"]) // n_sub
            least = (n_sub - 2) * ((sub - 128) // (int(run["rec_size"]) + 40))
            for w, s in seen.items():
                if w < nw and s["records"] < min(att[w], least):
                    v.add("newest", f"writer {w}: the snapshot holds {s['records']} of its records, "
                          f"its buffer keeps at least {min(att[w], least)}", writer=w,
                          count=min(att[w], least) - s["records"])
        v.figures["overwritten"] = sum(over)
        lost = [lost[w] + over[w] for w in range(nw)]
    for who, ws in pairs:
        a, g, lo = sum(att[w] for w in ws), sum(got[w] for w in ws), sum(lost[w] for w in ws)
        wr = ws[0] if len(ws) == 1 else None
        sk = sum(skipped[w] for w in ws) if None not in (skipped[w] for w in ws) else None
        if var.loss_all_kinds and sk is not None and g + sk == a and sk <= lo:
            # perf's PERF_RECORD_LOST counts every kind of record its
            # buffer lost, the task and mmap records it tracks with -a
            # too: an upper bound of the events lost.  The records must
            # then close the count by themselves (read + skipped =
            # attempts), every one skipped being counted lost; the
            # excess is a figure.
            if lo > sk:
                v.figures["lost_other_records"] = v.figures.get("lost_other_records", 0) + lo - sk
            lo = sk
        closed = g + lo == a
        if g + lo < a:
            v.add("hole", f"{who}: {a} attempts, but {g} records read + {lo} counted lost",
                  writer=wr, count=a - g - lo)
        elif g + lo > a:
            v.add("phantom", f"{who}: {a} attempts, but {g} records read + {lo} counted lost",
                  writer=wr, count=g + lo - a)
        if sk is not None:
            if sk != lo:
                closed = False
                v.add("refusals", f"{who}: the system counted {lo} lost, the sequence numbers skip {sk}",
                      writer=wr, count=sk - lo)
        # A record older than the one before: out of order -- then a
        # record is missing where it belonged, and the counts above do
        # not close -- or, from a consumer known to repeat records (perf
        # script, under overload: variants.py's repeats), a copy of one
        # already read, when they do.
        old = sum(back.get(w, 0) for w in ws)
        if old and closed and variants.of_run(run).repeats:
            v.figures["duplicates"] = v.figures.get("duplicates", 0) + old
            v.records -= old
        elif old:
            v.add("reorder", f"{who}: {old} records older than the one before", writer=wr, count=old)
    v.verdict = "FAIL" if v.violations else "ok"
    return v
