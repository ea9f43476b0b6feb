"""The variants of make bench: what the writers write through, and how it
is read, counted and verified -- the one table the plan, the accounting,
the figures and the report read (as tools/testing/selftests/bpf/bench.h's
struct bench is for the BPF benchmark).  Each entry names the module's
variant (relay_bench.ko's mode=, its table bench_variants[] in
bench-module/relay_bench.c; `make test` checks the two agree), and the
guest's side of it (bench-user/guest/bench.sh, and for a peer its file
bench-user/guest/peers/PEER.sh: the system set up around the module's
tracepoint, and its consumer).

Adding a variant:
1. for a new system that records the tracepoint, one file
   bench-user/guest/peers/PEER.sh that meets the contract written at the
   top of bench-user/guest/peers/common.sh (PEER_begin, PEER_end,
   PEER_files; peer_lost and peer_cpu_us; its records decoded through
   bench-verify --text or verified by its own consumer);
2. an entry here (peer="PEER" for such a system, its guest= words passed
   to it as peer=PEER:VALUE...);
3. an entry in bench_variants[] only if the module writes through
   something new, and a parser in bench-verify.c only if the tool's text
   is new to it.
The plan, bench.sh's dispatch, the files copied into the guest
(bench-user/host/bench: all of bench-user/guest/peers/), the accounting,
the tables and the plots take it from there.  docs/developing.md,
"Adding a benchmark variant".
"""
from dataclasses import dataclass, field


@dataclass(frozen=True)
class Variant:
    name: str                 # the variant in runs.txt (variant=), the tables and the plots
    module: str               # relay_bench.ko's mode=
    label: str                # its name in the report
    system: str               # what records: relay, ftrace, bpf, perf, none
    flights: tuple = (0,)     # flight= values it takes (1: overwrites)
    reader: str = ""          # its consumer, live (questions b and c)
    after: str = ""           # how (a) reads it once the writers stopped ("": not read)
    result: bool = True       # a write returns success or refusal to the writer
    loss: tuple = ()          # R-line keys of the system's own loss counters
    verify: str = "content"   # content, module (the module checks it), counted, n/a
    loss_how: str = ""        # how loss is reported, for "Which should I use?"
    nmi_safe: str = "no"
    lockdown: str = "yes"
    questions: tuple = ("a", "b", "c")
    repeats: bool = False     # its consumer may give a record twice (perf script)
    loss_all_kinds: bool = False  # its loss counter counts other records too (perf's side-band)
    peer: str = ""            # its file in bench-user/guest/peers/ (no .sh): a system on the tracepoint
    needs: str = ""           # a part of the guest built for it alone: lttng (vm/lttng, vm/peers-root
                              # --lttng); a kernel that cannot have it runs without the variant
    overwrite: bool = False   # a peer whose buffers overwrite the oldest: (a) gives it relay's flight
                              # buffers; its loss is the records overwritten, by sequence number
                              # (accounting.py), beside its own counter
    guest: dict = field(default_factory=dict)  # what the peer sets up: values passed as peer=PEER:VALUE...


VARIANTS = [
    Variant("percpu", "percpu", "relay per-CPU", "relay", flights=(0, 1), reader="relaytrace",
            after="relaytrace dump", loss=("trace_dropped", "trace_refused"),
            loss_how="relay_trace_write() returns -ENOSPC; dropped/refused counters", nmi_safe="no",
            lockdown="yes (tracefs)"),
    Variant("global", "global", "relay global", "relay", flights=(0, 1), reader="relaytrace",
            after="relaytrace dump", loss=("trace_dropped", "trace_refused"),
            loss_how="relay_trace_write() returns -ENOSPC; dropped/refused counters", nmi_safe="no (lock)",
            lockdown="yes (tracefs)"),
    Variant("ftrace", "ftrace", "ftrace ring buffer (direct)", "ftrace", flights=(1,), after="module",
            verify="module", questions=("a",), loss_how="overwrites the oldest", nmi_safe="yes",
            lockdown="n/a (in-kernel API)"),
    Variant("ftrace-event", "event", "ftrace event + trace-cmd", "ftrace", reader="trace-cmd",
            after="the instance's trace file", result=False, loss=("peer_lost",), peer="trace-cmd",
            loss_how="per-CPU stats: dropped events, overrun; trace-cmd report", nmi_safe="yes",
            lockdown="yes (tracefs; refused at confidentiality)"),
    Variant("bpf-ringbuf", "event", "BPF ringbuf, one shared", "bpf", reader="bench-ringbuf",
            after="bench-ringbuf", result=False, loss=("peer_lost",), peer="bpf-ringbuf",
            loss_how="reserve fails: the program counts it", nmi_safe="no (spinlock; trylock in NMI)",
            lockdown="yes (bpf refused only at confidentiality)", guest={"layout": "shared"}),
    Variant("bpf-ringbuf-percpu", "event", "BPF ringbuf, one per CPU", "bpf", reader="bench-ringbuf",
            after="bench-ringbuf", result=False, loss=("peer_lost",), peer="bpf-ringbuf",
            loss_how="reserve fails: the program counts it", nmi_safe="no (spinlock; trylock in NMI)",
            lockdown="yes (bpf refused only at confidentiality)", guest={"layout": "percpu"}),
    Variant("perf", "event", "perf record (tracepoint)", "perf", reader="perf", result=False,
            loss=("peer_lost",), peer="perf", questions=("b", "c"), loss_how="PERF_RECORD_LOST records (of any kind)", repeats=True,
            loss_all_kinds=True,
            nmi_safe="yes", lockdown="yes (perf refused only at confidentiality)"),
    Variant("lttng", "event", "LTTng + lttng-consumerd", "lttng", reader="lttng-consumerd",
            result=False, loss=("peer_lost",), peer="lttng", questions=("b", "c"), needs="lttng",
            guest={"subbufs": "8"},
            loss_how="discard mode: events_discarded in the packet headers (babeltrace2), lttng list",
            nmi_safe="yes (lockless per-CPU ring buffer)",
            lockdown="modules signed by the kernel's key (out of tree)"),
    Variant("lttng-snapshot", "event", "LTTng snapshot (overwrite)", "lttng",
            after="lttng snapshot record", result=False, loss=("peer_lost",), peer="lttng",
            questions=("a",), overwrite=True, needs="lttng", guest={"subbufs": "8"},
            loss_how="overwrite mode: overwritten events not counted (seen by sequence number)",
            nmi_safe="yes (lockless per-CPU ring buffer)",
            lockdown="modules signed by the kernel's key (out of tree)"),
    Variant("none", "none", "floor (no write)", "none", verify="n/a", questions=("a",)),
    # A run of the tracepoint that names no system: never planned; its
    # accounting fails for want of a loss counter.
    Variant("event", "event", "the tracepoint, no system", "none", result=False, verify="n/a",
            questions=()),
]

BY_NAME = {v.name: v for v in VARIANTS}


def get(name):
    """The variant NAME; an unknown name is an error that lists the known."""
    try:
        return BY_NAME[name]
    except KeyError:
        raise ValueError(f"no variant '{name}' (variants.py has {', '.join(BY_NAME)})") from None


def of_run(r):
    """The variant of a run line or an R line (a dict or a runfmt.Run):
    its variant= key, or, in results without one, its mode=."""
    return get(r.get("variant") or r["mode"])


def peers():
    """The variants that record through the tracepoint (the peers)."""
    return [v for v in VARIANTS if not v.result and v.questions]


def peer_word(v):
    """The run line's peer= value of variant V: its file in
    bench-user/guest/peers/ and its guest values, PEER[:VALUE...] ("" for a
    variant that is no peer)."""
    return v.peer + "".join(f":{x}" for x in v.guest.values()) if v.peer else ""


def module_modes():
    return sorted({v.module for v in VARIANTS})
