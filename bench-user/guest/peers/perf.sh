# shellcheck shell=sh disable=SC2154	# pcs, pt_u, pw_rc, pn ...: common.sh's
# The peer perf (variants.py: perf): perf record of the tracepoint on all
# CPUs, its consumer always (no run without it: question (a) has none).
# The contract (begin, end, files, what it prints) is common.sh's; sourced
# after it.
#
# A run (writers on CPUs 0..W-1, run identifier RUN, records of SIZE
# bytes, BYTES of buffer per CPU):
#
#   perf_start BYTES; <the writers' run>; perf_stop W; perf_verify RUN SIZE W
#
# What closes the accounting, peer_lost: the counts of the
# PERF_RECORD_LOST records of each CPU's buffer (perf script
# --show-lost-events).  The kernel writes one only before the next record
# that fits in that buffer: perf_stop makes one (a process on each CPU)
# once perf has read the buffer.  It counts every record lost in that
# buffer, a task's COMM, FORK or EXIT as well as a sample: in a busy
# system it can exceed the tracepoint's loss.  Their sum is also the
# event's own count, which perf record reads at its end
# (PERF_RECORD_LOST_SAMPLES, all CPUs: perf_stat_lost_samples).  Under
# overload, perf.data (perf 6.1) holds a few samples twice: perf report
# counts them, perf script prints them (and warns of "out of order
# events"); bench-verify counts them as dups, and relay_bench_check_rec()
# as backwards.  peer_cpu_us: perf record's CPU time.
#
# The functions, and the keys each prints:
#
#   perf_start BYTES             perf record -e the event -a -m PAGES
#                                (BYTES per CPU, rounded up to a power of
#                                two pages) --no-buildid -o
#                                $PEER_DIR/perf.data, events disabled (-D
#                                -1) until enabled through its control
#                                fifo, whose "ack" says it is ready
#     perf_pid perf_pages perf_buffer_bytes perf_ready_ms
#   perf_stop NCPUS              first runs a process on each CPU, which
#                                makes the kernel write the PERF_RECORD_LOST
#                                still pending in a CPU's buffer (it writes
#                                one before the next record of that buffer
#                                only); then SIGINT, and waits for perf.data
#     perf_status perf_elapsed_ms perf_utime_us perf_stime_us perf_cpu_us
#     peer_cpu_us
#   perf_verify RUN SIZE NCPUS   perf script --show-lost-events |
#                                bench-verify --text (D lines to
#                                $PEER_DRAIN); perf report --stats
#     script_status verify_status perf_stat_samples perf_stat_lost_records
#     (PERF_RECORD_LOST records) perf_stat_lost_samples (the event's loss,
#     all CPUs, from the PERF_RECORD_LOST_SAMPLES perf record writes at its
#     end) perf_out_of_order (perf script's warning) peer_lost (the counts
#     of the PERF_RECORD_LOSTs of each CPU) decode_cpu_us and the reader's
#     summary (common.sh's peer_summary)
perf_pid='' perf_t0=0 perf_elapsed_ms=0 perf_utime_us=0 perf_stime_us=0
# The recordings it leaves in $PEER_DIR (common.sh: P_files).
# shellcheck disable=SC2034
perf_files=perf.data

# perf_start BYTES
perf_start() {
	mkdir -p "$PEER_DIR"
	rm -f "$PEER_DIR/perf.data" "$PEER_DIR/perf.ctl" "$PEER_DIR/perf.ack"
	pages=1
	while [ $((pages * 4096)) -lt "$1" ]; do pages=$((pages * 2)); done
	mkfifo "$PEER_DIR/perf.ctl" "$PEER_DIR/perf.ack" || { echo "E mkfifo failed"; return 1; }
	# Both ends held open here: neither open blocks, and an early
	# "enable" waits in the fifo until perf reads it.
	exec 8<>"$PEER_DIR/perf.ctl" 9<>"$PEER_DIR/perf.ack"
	peer_cs
	perf_t0=$pcs
	perf record -e "$PEER_EVENT" -a -m "$pages" --no-buildid --no-buildid-cache -D -1 \
		--control "fifo:$PEER_DIR/perf.ctl,$PEER_DIR/perf.ack" -o "$PEER_DIR/perf.data" \
		</dev/null >"$PEER_DIR/perf-record.txt" 2>&1 8>&- 9>&- &
	perf_pid=$!
	echo enable >&8
	ack=
	# shellcheck disable=SC3045	# busybox ash has read -t
	read -r -t "$PEER_TIMEOUT" ack <&9
	peer_cs
	echo "perf_pid=$perf_pid"
	echo "perf_pages=$pages"
	echo "perf_buffer_bytes=$((pages * 4096))"
	echo "perf_ready_ms=$(( (pcs - perf_t0) * 10 ))"
	if [ "$ack" != ack ]; then
		echo "E perf record did not acknowledge 'enable': $(tail -3 "$PEER_DIR/perf-record.txt" | tr '\n' ' ')"
		kill -KILL "$perf_pid" 2>/dev/null
		wait "$perf_pid" 2>/dev/null
		exec 8>&- 9>&-
		perf_pid=
		return 1
	fi
}

# perf_stop NCPUS
perf_stop() {
	if [ -z "$perf_pid" ]; then
		echo "E perf record is not running"
		return 1
	fi
	pn=$(peer_ncpus "${1:-}")
	# A record on each CPU's buffer, once perf has read what it holds: the
	# kernel writes the loss it has pending there first.
	if [ "${PEER_PERF_FLUSH:-1}" = 1 ]; then
		usleep 200000
		c=0
		while [ $c -lt "$pn" ]; do
			taskset -c $c true
			c=$((c + 1))
		done
		usleep 200000
	fi
	peer_ticks
	u0=$pt_u s0=$pt_s
	kill -INT "$perf_pid"
	peer_wait "$perf_pid" "perf record"
	peer_ticks
	peer_cs
	exec 8>&- 9>&-
	perf_pid=
	perf_elapsed_ms=$(( (pcs - perf_t0) * 10 ))
	perf_utime_us=$(( (pt_u - u0) * 10000 )) perf_stime_us=$(( (pt_s - s0) * 10000 ))
	# perf record ends with SIGINT raised again at itself: 130.
	[ "$pw_rc" = 130 ] && pw_rc=0
	echo "perf_status=$pw_rc"
	echo "perf_elapsed_ms=$perf_elapsed_ms"
	echo "perf_utime_us=$perf_utime_us"
	echo "perf_stime_us=$perf_stime_us"
	echo "perf_cpu_us=$((perf_utime_us + perf_stime_us))"
	echo "peer_cpu_us=$((perf_utime_us + perf_stime_us))"
	if [ "$pw_rc" != 0 ]; then
		echo "E perf record failed ($pw_rc): $(tail -3 "$PEER_DIR/perf-record.txt" | tr '\n' ' ')"
		return 1
	fi
}

# perf_verify RUN SIZE NCPUS
perf_verify() {
	# shellcheck disable=SC2034	# peer_verify_text's
	pv_times="$((perf_elapsed_ms * 1000000)),$perf_utime_us,$perf_stime_us"
	peer_decode perf script_status "perf script" "$1" "$2" "${3:-}" \
		perf script --show-lost-events -i "$PEER_DIR/perf.data"
	awk -v n="$pn" '$1 == "text" { split($2, a, "="); for (i = 3; i <= NF; i++) { split($i, b, "="); if (b[1] == "lost") l[a[2] + 0] = b[2] } }
		END { s = ""; for (c = 0; c < n; c++) { s = s (c ? "," : "") (l[c] + 0); t += l[c] }
		      print "peer_lost=" s
		      if (l[-1] != t) print "E " l[-1] - t " events counted lost on no CPU of 0-" n - 1 }' "$PEER_DRAIN"
	echo "perf_out_of_order=$(sed -n 's/^\([0-9]*\) out of order events recorded.*/\1/p' "$PEER_DIR/perf.err" | tail -1)"
	# The aggregated counts (records of each type), then the event's own:
	# its samples and the sum of its PERF_RECORD_LOST_SAMPLES, which perf
	# record writes at its end from each CPU's count (PERF_FORMAT_LOST).
	if perf report --stats -i "$PEER_DIR/perf.data" >"$PEER_DIR/perf-stat.txt" 2>&1; then
		awk '$1 != "Aggregated" && / stats:$/ { ev = 1; next }
			!ev && $1 == "SAMPLE" && $2 == "events:" { s = $3 }
			!ev && $1 == "LOST" && $2 == "events:" { l = $3 }
			ev && $1 == "LOST_SAMPLES" && $2 == "events:" { ls = $3 }
			END { print "perf_stat_samples=" s + 0; print "perf_stat_lost_records=" l + 0
			      print "perf_stat_lost_samples=" ls + 0 }' "$PEER_DIR/perf-stat.txt"
	else
		echo "E perf report --stats failed: $(tail -3 "$PEER_DIR/perf-stat.txt" | tr '\n' ' ')"
		pfail=1
	fi
	return "$pfail"
}

# --- the contract (common.sh) --------------------------------------------

# perf_begin HOW RUN SIZE WRITERS BYTES_PER_CPU: live only: perf record
# started, enabled and ready.
perf_begin() {
	[ "$1" = live ] || { echo "E perf has no run without its consumer"; return 1; }
	perf_start "$5"
}

# perf_end HOW RUN SIZE WRITERS: perf record stopped, its recording
# verified.
perf_end() {
	perf_stop "$4" && perf_verify "$2" "$3" "$4"
}
