#!/bin/sh
# make bench-cost, in the guest (bench-user/host/bench-cost, under QEMU
# -icount, one CPU): relay_cost.ko's figures, printed as they come.
#
# Usage: sh /extra/cost.sh [RB_SIZE]    with relay_cost.ko, bench-ringbuf
# and lib.sh in /extra.
#
# insmod relay_cost.ko times the kinds up to ftrace_event_off at load.
# Then the ftrace instance relay_cost is created, the module's event
# relay_cost:relay_cost_rec enabled in it and not in the top-level buffer,
# and the instance named to the module, which times the kinds that write
# into it (ftrace_event, trace_array_printk).  Then the event is disabled
# there too, bench-ringbuf's BPF program attached to the raw tracepoint
# relay_cost_rec (--no-check: it only counts; one shared ring buffer of
# RB_SIZE, default 64m, that nothing reads while the module writes, large
# enough for every record of the stage), awaited as the bpf-ringbuf peer
# awaits it (lib.sh's wait_line), and the module's parameter bpf written,
# which times bpf_ringbuf.  bench-ringbuf then reads and counts what the
# ring holds: every write must have reached the program and none been
# refused (its tally line, in bpf.out, printed with the prefix
# "bpf.out: ").
#
# It prints the guest's M line (lib.sh's emit_meta) and the module's R
# lines "R kind=K size=S writes=N total_ns=T" (results, instance_results,
# bpf_results: bench-user/report/runfmt.py, cost.py); its errors go to
# stderr (the console), and it exits 1 on the first.
set -u
# shellcheck source=/dev/null
. /extra/lib.sh
RB_SIZE=${1:-64m}
TR=/sys/kernel/tracing
I=$TR/instances/relay_cost
C=/sys/module/relay_cost/parameters
B=/tmp/bpf.out

insmod /extra/relay_cost.ko || exit 1
mkdir "$I" || exit 1
echo 0 >"$TR/events/relay_cost/relay_cost_rec/enable" || exit 1
echo 1 >"$I/events/relay_cost/relay_cost_rec/enable" || exit 1
echo relay_cost >"$C/instance" || exit 1
emit_meta
cat "$C/results" "$C/instance_results"
[ "$(bpf_jit)" = 1 ] || { echo "bpf_ringbuf: bpf_jit (net.core.bpf_jit_enable) is $(bpf_jit), not 1" >&2; exit 1; }
echo 0 >"$I/events/relay_cost/relay_cost_rec/enable" || exit 1
/extra/bench-ringbuf --no-check --tracepoint relay_cost_rec --layout shared \
	--size "$RB_SIZE" --no-consume --until-signal --out "$B" 2>/tmp/bpf.err &
pid=$!
wait_line '^attached' "$B" "$pid" 120 || { cat "$B" /tmp/bpf.err >&2; exit 1; }
echo 1 >"$C/bpf" || { kill -INT "$pid"; wait "$pid"; cat "$B" /tmp/bpf.err >&2; exit 1; }
kill -INT "$pid"
brc=0
wait "$pid" || brc=$?
sed "s/^/bpf.out: /" "$B" /tmp/bpf.err
n=0
for _ in $(tr , " " <"$C/sizes"); do n=$((n + 1)); done
want=$((n * ($(cat "$C/nr") + $(cat "$C/batch"))))
tally=$(grep "^tally attempts=" "$B")
case "$tally" in
"tally attempts=$want "*" refused=0 unsupported=0 faults=0 nomap=0 lost=0 result=ok") ;;
*) echo "bpf_ringbuf: want $want attempts, every one read, none refused: $tally (bench-ringbuf status $brc)" >&2; exit 1 ;;
esac
[ "$brc" = 0 ] || exit 1
cat "$C/bpf_results"
