# shellcheck shell=sh disable=SC2154	# pcs, pv_rc, pn, pfail ...: common.sh's
# The peer lttng (variants.py: lttng, lttng-snapshot): an LTTng kernel
# session recording the tracepoint through LTTng's probe of it
# (bench-module/lttng/: lttng-probe-relay-bench.ko), one channel of
# BYTES_PER_CPU per CPU in SUBBUFS sub-buffers (variants.py's guest value,
# 8: relay's count in make bench's (b) and (c), and its flight buffers' in
# (a); accounting.py reads it too), read live by
# lttng-consumerd (discard mode; its default output, splice, from each
# CPU's buffer to a file in $PEER_DIR/lt) and woken by the channel's read
# timer at its shortest, one tick ($LT_READ_TIMER_US rounds up to it;
# HZ=250: 4 ms): LTTng's kernel client never wakes its consumer from the
# tracing path (RING_BUFFER_WAKEUP_BY_TIMER), and with the default 200 ms
# the consumer, not its speed, would set the lossless rate of a 128 KiB
# buffer -- about 15,000 records/s, measured.  Or, for question (a), a
# snapshot session: overwrite mode, nothing reading while the writers
# write (the read timer off), one snapshot taken once they stopped (lttng
# snapshot record; the consumer then copies the buffers, mmap output).  A discard-mode session
# whose consumer stays idle cannot be had: LTTng's consumer reads every
# packet as it is delivered, and only a snapshot session holds its
# buffers unread.  The contract (begin, end, files, what it prints) is
# common.sh's; sourced after it, and after lib.sh (lttng_sessiond,
# lttng_cmd, lttng_discarded).
#
# lttng-sessiond (vm/peers-root --lttng) is started once, at the first
# run, with --kmod-probes=relay_bench (lib.sh's lttng_sessiond): it loads
# LTTng's modules and the probe itself (libkmod; vm/lttng installed them
# in /lib/modules with depmod's index), and starts lttng-consumerd when a
# session first needs it.  Both stay up across runs: their CPU time in a run, peer_cpu_us, is
# what /proc/PID/stat of every lttng-* process (sessiond, consumerd, their
# run-as workers, with their reaped children's) counts between the
# session's start and the end of its recording (after: the snapshot
# written), not the shell's count of its reaped children.  The lttng
# command's own time (a client) is not in it.  Every lttng command runs
# with --no-sessiond (none spawns a daemon of its own) and, as
# babeltrace2, under timeout $PEER_TIMEOUT.
#
# Records are decoded by babeltrace2 (its text, the pretty sink) and
# checked by bench-verify --text, which also takes babeltrace2's warnings
# (stderr, appended to the text) as loss markers: "Tracer discarded C
# events ... within stream DIR/c0_N", the events_discarded count of CPU
# N's packet headers.  What closes the accounting, peer_lost, is those
# counts per CPU; in discard mode the channel's total (lttng list:
# "Discarded events") is printed beside them and must agree.  A marker
# without a count (packets discarded), one that names no CPU's stream,
# or a line of neither kind fails the run.  In overwrite mode LTTng counts no
# overwritten event (its ring buffer's records_overrun has no interface):
# a snapshot's loss is what its records' sequence numbers skip before the
# first one kept (accounting.py, a flight peer).
#
# The functions, and the keys each prints:
#
#   lt_sessiond                 lttng-sessiond running (started once),
#                               ready when it answers lttng list
#     lt_sessiond_ms (the first time)
#   lt_cpu                      the user and sys ticks of every lttng-*
#                               process, in $lt_u and $lt_s
#   lt_list                     the channel's "Discarded events" total
#     lt_discarded_total
#   lttng_begin (below)
#     lt_mode (discard, overwrite) lt_subbuf_size lt_num_subbuf lt_output
#     (splice, mmap) lt_read_timer_us
#   lttng_end (below)
#     lt_elapsed_ms lt_utime_us lt_stime_us lt_cpu_us peer_cpu_us
#     lt_discarded_total lt_decode_status verify_status decode_cpu_us, the
#     reader's summary (common.sh's peer_summary), peer_lost
LT_SESSION=relay_bench
LT_READ_TIMER_US=${LT_READ_TIMER_US:-1000}
lt_sd_pid='' lt_u=0 lt_s=0 lt_t0=0 lt_u0=0 lt_s0=0
# The recordings it leaves in $PEER_DIR (common.sh: P_files).
# shellcheck disable=SC2034
lttng_files=lt

# lt_sessiond: lttng-sessiond started (lib.sh's lttng_sessiond), if it
# is not, with the probe loaded.
lt_sessiond() {
	if [ -n "$lt_sd_pid" ] && kill -0 "$lt_sd_pid" 2>/dev/null; then
		return 0
	fi
	peer_cs
	lt_st0=$pcs
	if ! lttng_sessiond relay_bench "$PEER_DIR/sessiond.txt" "$PEER_TIMEOUT"; then
		echo "E $sd_why"
		lt_sd_pid=
		return 1
	fi
	lt_sd_pid=$sd_pid
	peer_cs
	echo "lt_sessiond_ms=$(( (pcs - lt_st0) * 10 ))"
}

# lt_cpu: the user and sys ticks of every lttng-* process, in $lt_u and
# $lt_s: its own and its reaped children's (the run-as workers).
lt_cpu() {
	# shellcheck disable=SC2046
	set -- $(cat /proc/[0-9]*/stat 2>/dev/null | awk '
		{ sub(/^[0-9]+ /, "") }
		/^\(lttng-/ { sub(/^\([^)]*\) /, ""); u += $12 + $14; s += $13 + $15 }
		END { print u + 0, s + 0 }')
	lt_u=$1 lt_s=$2
}

# lt_do WHAT...: an lttng command (lib.sh's lttng_cmd), killed after
# $PEER_TIMEOUT s; its output in $PEER_DIR/lttng.txt, an E line if it
# fails.
lt_do() {
	lttng_cmd "$PEER_TIMEOUT" "$PEER_DIR/lttng.txt" "$@" && return 0
	echo "E $lc_why"
	return 1
}

# lt_list: the channel's discarded events, as lttng list counts them
# (lib.sh's lttng_discarded: discard mode; empty if it does not say).
lt_list() {
	echo "lt_discarded_total=$(lttng_discarded "$LT_SESSION" "$PEER_TIMEOUT")"
}

# --- the contract (common.sh) --------------------------------------------

# lttng_begin HOW RUN SIZE WRITERS BYTES_PER_CPU [SUBBUFS]: a session, its
# channel BYTES_PER_CPU per CPU in SUBBUFS sub-buffers (variants.py's
# guest value), the event enabled, started.  live: discard mode,
# lttng-consumerd reading; after: a snapshot session, overwrite mode,
# nothing reading (the read timer off).
lttng_begin() {
	mkdir -p "$PEER_DIR"
	lt_sessiond || return 1
	timeout "$PEER_TIMEOUT" lttng --no-sessiond destroy "$LT_SESSION" >/dev/null 2>&1
	rm -rf "${PEER_DIR:?}/lt" "$PEER_DIR/lttng.txt"
	lt_n=${6:-8}
	lt_sub=$(($5 / lt_n))
	case "$lt_sub" in
	4096|8192|16384|32768|65536|131072|262144|524288|1048576|2097152|4194304) ;;
	*) echo "E $5 bytes per CPU: LTTng wants $lt_n sub-buffers of a power of two, at least 4096 bytes"; return 1 ;;
	esac
	if [ "$1" = live ]; then
		lt_do create "$LT_SESSION" --output="$PEER_DIR/lt" || return 1
		lt_mode=discard lt_timer=$LT_READ_TIMER_US
	else
		lt_do create "$LT_SESSION" --snapshot --output="$PEER_DIR/lt" || return 1
		lt_mode=overwrite lt_timer=0
	fi
	lt_do enable-channel -k c0 --subbuf-size="$lt_sub" --num-subbuf="$lt_n" --"$lt_mode" \
		--read-timer="$lt_timer" --session="$LT_SESSION" &&
		lt_do enable-event -k -c c0 relay_bench_rec --session="$LT_SESSION" || return 1
	echo "lt_mode=$lt_mode"
	echo "lt_subbuf_size=$lt_sub"
	echo "lt_num_subbuf=$lt_n"
	timeout "$PEER_TIMEOUT" lttng --no-sessiond list "$LT_SESSION" -k 2>/dev/null | awk '
		/Output mode:/ { print "lt_output=" $NF }
		/Read timer:/ { print "lt_read_timer_us=" ($NF == "us" ? $(NF - 1) : 0) }'
	lt_cpu
	lt_u0=$lt_u lt_s0=$lt_s
	peer_cs
	lt_t0=$pcs
	lt_do start "$LT_SESSION"
}

# lttng_end HOW RUN SIZE WRITERS: tracing stopped (lttng stop waits until
# the consumer has every packet), the snapshot taken (after), the
# session's discarded total taken, the session destroyed, its recording
# decoded by babeltrace2 and verified.
lttng_end() {
	pfail=0
	lt_do stop "$LT_SESSION" || pfail=1
	[ "$1" = live ] || lt_do snapshot record --session="$LT_SESSION" || pfail=1
	lt_cpu
	peer_cs
	lt_ms=$(( (pcs - lt_t0) * 10 ))
	lt_uus=$(( (lt_u - lt_u0) * 10000 )) lt_sus=$(( (lt_s - lt_s0) * 10000 ))
	lt_disc=$(lt_list)
	lt_do destroy "$LT_SESSION" || pfail=1
	echo "$lt_disc"
	echo "lt_elapsed_ms=$lt_ms"
	echo "lt_utime_us=$lt_uus"
	echo "lt_stime_us=$lt_sus"
	echo "lt_cpu_us=$((lt_uus + lt_sus))"
	echo "peer_cpu_us=$((lt_uus + lt_sus))"
	[ "$pfail" = 0 ] || return 1
	# shellcheck disable=SC2034	# peer_verify_text's
	pv_times="$((lt_ms * 1000000)),$lt_uus,$lt_sus"
	# babeltrace2's warnings are the loss markers: after its text, whole
	# (stderr, written as it goes, would cut stdout's buffered lines).
	# shellcheck disable=SC2016	# the inner shell's
	peer_decode lt lt_decode_status babeltrace2 "$2" "$3" "$4" \
		sh -c 'timeout "$3" babeltrace2 "$1" 2>"$2"; rc=$?; cat "$2"; exit $rc' \
		babeltrace2 "$PEER_DIR/lt" "$PEER_DIR/lt-warn.txt" "$PEER_TIMEOUT" >"$PEER_DIR/lt-decode.txt"
	cat "$PEER_DIR/lt-decode.txt"
	# Every line of babeltrace2's is an event or a loss marker.
	lt_unparsed=$(sed -n 's/^text_unparsed=//p' "$PEER_DIR/lt-decode.txt")
	if [ "${lt_unparsed:-0}" != 0 ]; then
		echo "E babeltrace2 printed $lt_unparsed lines that are neither events nor loss markers: $(grep -v 'relay_bench_rec:' "$PEER_DIR/lt-warn.txt" | head -2 | tr '\n' ' ')"
		pfail=1
	fi
	# peer_lost: the events discarded per CPU, from the markers of each
	# CPU's stream (bench-verify's text lines); every marker on a CPU's
	# stream, and with a count.
	awk -v n="$pn" '
		$1 == "text" { for (i = 2; i <= NF; i++) { split($i, a, "="); v[a[1]] = a[2] }
			if (v["stream"] >= 0) { l[v["stream"]] = v["lost"]; per += v["markers"]; u += v["lost_unknown"] }
			else all = v["markers"] }
		END {
			s = ""; for (c = 0; c < n; c++) s = s (c ? "," : "") (l[c] + 0)
			print "peer_lost=" s
			if (u) print "E babeltrace2 reported " u " losses without a count (lost packets, or discarded events it could not count)"
			if (all != per) print "E " all - per " of babeltrace2'"'"'s loss markers name no CPU'"'"'s stream"
		}' "$PEER_DRAIN" >"$PEER_DIR/lt-lost.txt"
	cat "$PEER_DIR/lt-lost.txt"
	grep -q '^E ' "$PEER_DIR/lt-lost.txt" && pfail=1
	# The packet headers' count against the session's (discard mode).
	if [ "$1" = live ]; then
		lt_total=${lt_disc#lt_discarded_total=}
		lt_sum=$(sed -n 's/^peer_lost=//p' "$PEER_DIR/lt-lost.txt" | tr ',' '\n' | awk '{ s += $1 } END { print s + 0 }')
		if [ "$lt_total" != "$lt_sum" ]; then
			echo "E the packet headers count $lt_sum events discarded, lttng list ${lt_total:-nothing}"
			pfail=1
		fi
	fi
	return "$pfail"
}
