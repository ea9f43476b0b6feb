#!/bin/sh
# make bench-cost, in the guest (bench-user/host/bench-cost, under QEMU
# -icount, one CPU): relay_cost.ko's figures, printed as they come.
#
# Usage: sh /extra/cost.sh [RB_SIZE [lttng]]    with relay_cost.ko,
# bench-ringbuf and lib.sh in /extra; with lttng, LTTng's tools
# (vm/peers-root --lttng) and modules (vm/lttng) in the root.
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
# With lttng: lttng-sessiond started with --kmod-probes=relay_cost (it
# loads LTTng's modules and lttng-probe-relay-cost.ko: lib.sh's
# lttng_sessiond), a kernel session recording relay_cost_rec in one
# discard-mode channel of LT_NSUB sub-buffers of LT_SUB bytes (64 MiB for
# the one CPU: every record of the stage, about 40 MB with LTTng's
# headers, fits, so that whether lttng-consumerd reads during it or not
# nothing is discarded), started, and the module's parameter lttng
# written, which times lttng.  Then the session stopped (lttng stop waits
# for the consumer to have every packet): lttng list must count no
# discarded event, and babeltrace2's counter
# (sink.utils.counter) as many events as the module wrote, none
# discarded (printed with the prefix "lttng: ").
#
# It prints the guest's M line (lib.sh's emit_meta) and the module's R
# lines "R kind=K size=S writes=N total_ns=T" (results, instance_results,
# bpf_results, lttng_results: bench-user/report/runfmt.py, cost.py); its
# errors go to stderr (the console), and it exits 1 on the first.
set -u
# shellcheck source=/dev/null
. /extra/lib.sh
RB_SIZE=${1:-64m}
LTTNG=${2:-}
case "$LTTNG" in
''|lttng) ;;
*) echo "cost.sh: the second argument is lttng or nothing, not '$LTTNG'" >&2; exit 1 ;;
esac
LT_SUB=4194304 LT_NSUB=16
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
# Every write of the stage: each size's untimed batch and its timed ones.
want=$((n * ($(cat "$C/nr") + $(cat "$C/batch"))))
tally=$(grep "^tally attempts=" "$B")
case "$tally" in
"tally attempts=$want "*" refused=0 unsupported=0 faults=0 nomap=0 lost=0 result=ok") ;;
*) echo "bpf_ringbuf: want $want attempts, every one read, none refused: $tally (bench-ringbuf status $brc)" >&2; exit 1 ;;
esac
[ "$brc" = 0 ] || exit 1
cat "$C/bpf_results"

[ "$LTTNG" = lttng ] || exit 0
L=/tmp/lttng.txt
# lt WHAT...: an lttng command (lib.sh's lttng_cmd), its output in $L.
lt() {
	lttng_cmd 120 "$L" "$@" && return 0
	# shellcheck disable=SC2154	# lc_why: lttng_cmd's
	echo "lttng: $lc_why" >&2
	exit 1
}
# shellcheck disable=SC2154	# sd_why: lib.sh's lttng_sessiond sets it
lttng_sessiond relay_cost /tmp/sessiond.txt 120 || { echo "lttng: $sd_why" >&2; exit 1; }
lt create relay_cost --output=/tmp/lt
lt enable-channel -k c0 --subbuf-size="$LT_SUB" --num-subbuf="$LT_NSUB" --discard --session=relay_cost
lt enable-event -k -c c0 relay_cost_rec --session=relay_cost
lt start relay_cost
echo 1 >"$C/lttng" || { echo "lttng: the module's lttng stage failed (above)" >&2; exit 1; }
lt stop relay_cost
# lttng list's count of the channel (a discard-mode channel's
# "Discarded events"; nothing if it does not say).
lt_disc=$(lttng_discarded relay_cost 120)
lt destroy relay_cost
timeout 300 babeltrace2 /tmp/lt -c sink.utils.counter -p step=+0 >/tmp/lt-count.txt 2>&1 || {
	sed "s/^/lttng: /" /tmp/lt-count.txt >&2
	echo "lttng: babeltrace2's counter failed" >&2
	exit 1
}
sed -n "s/^/lttng: /p" /tmp/lt-count.txt
lt_list="lttng list: ${lt_disc:-nothing said of} events discarded"
if [ "$lt_disc" != 0 ]; then
	echo "lttng: want every write recorded, none discarded: $lt_list" >&2
	exit 1
fi
# shellcheck disable=SC2046	# the counts, split
set -- $(tr -d ",'" </tmp/lt-count.txt | awk '
	$2 == "Event" && $3 == "messages" { e = $1 }
	$2 == "Discarded" && $3 == "event" { de = $1 }
	$2 == "Discarded" && $3 == "packet" { dp = $1 }
	END { print (e == "" ? "none" : e), (de == "" ? "none" : de), (dp == "" ? "none" : dp) }')
if [ "$1" != "$want" ] || [ "$2" != 0 ] || [ "$3" != 0 ]; then
	echo "lttng: want $want events, none discarded: babeltrace2 counts $1 events, $2 discarded-event and $3 discarded-packet messages" >&2
	exit 1
fi
echo "lttng: $want events recorded, as many as written; $lt_list"
cat "$C/lttng_results"
