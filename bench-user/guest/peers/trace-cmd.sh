# shellcheck shell=sh disable=SC2154	# pcs, pt_u, pw_rc, pv_rc ...: common.sh's
# The peer trace-cmd (variants.py: ftrace-event): an ftrace instance
# ($PEER_INST) with the tracepoint's event enabled in it, read live by
# trace-cmd record, or, once the writers stopped (question (a)), through
# the instance's trace file.  The contract (begin, end, files, what it
# prints) is common.sh's; sourced after it, and after lib.sh (poll_until).
#
# A run (writers on CPUs 0..W-1, run identifier RUN, records of SIZE
# bytes, KB of buffer per CPU):
#
#   live:  ftrace_setup KB 0; tc_start KB; <the writers' run>; tc_stop W;
#          tc_verify RUN SIZE W; ftrace_teardown
#   after: ftrace_setup KB 0; tracing on; <the writers' run>;
#          ftrace_read RUN SIZE W; ftrace_teardown
#
# (trace-cmd record resets the buffer, and its counters, when it starts;
# trace-cmd 3.1.6 removes the instance when it ends: tc_verify takes the
# instance's stats from what trace-cmd saved of them when it stopped.)
#
# What closes the accounting, peer_lost: the instance's per-CPU counters,
# "dropped events" (no overwrite: the ring buffer refuses the event) +
# "overrun" (overwrite: older events overwritten) + "commit overrun";
# trace-cmd saves them when it stops (report --stat).  trace-cmd report's
# markers "CPU:N [C EVENTS DROPPED]" count the overrun only (pages the
# writer lapped), "[EVENTS DROPPED]" without a count when the page had no
# room for it; trace-cmd record's "CPU N: C events lost" is the overrun
# too.  Events written while the instance's tracing_on is 0 are counted
# nowhere: start the consumer first.  peer_cpu_us: trace-cmd record and
# its recorders (live), 0 (after: no consumer).
#
# The functions, and the keys each prints:
#
#   ftrace_setup KB OVERWRITE    an instance $PEER_INST with the event
#                                enabled, KB of buffer per CPU, overwrite
#                                0 or 1, tracing off (a consumer turns it on)
#     ftrace_instance ftrace_buffer_kb ftrace_overwrite
#   ftrace_stats PREFIX [NCPUS]  per_cpu/cpuN/stats of the instance
#     PREFIX_entries PREFIX_overrun PREFIX_commit_overrun PREFIX_bytes
#     PREFIX_dropped (dropped events) PREFIX_read (read events)
#   ftrace_teardown              the instance removed (if still there)
#
#   tc_start [KB]                trace-cmd record -B $PEER_INST -e the
#                                event [-b KB] -o $PEER_DIR/tc.dat, ready
#                                once the instance's tracing_on is 1
#                                (trace-cmd turns it on after forking its
#                                per-CPU recorders, which splice()
#                                per_cpu/cpuN/trace_pipe_raw)
#     tc_pid tc_ready_ms
#   tc_stop [NCPUS]              SIGINT; waits for trace.dat.  trace-cmd
#                                3.1.6 then removes the instance (it takes
#                                an existing one for its own): take the
#                                instance's stats before
#     tc_status tc_elapsed_ms tc_utime_us tc_stime_us tc_cpu_us (trace-cmd
#     record and its recorders, user + sys, 10 ms ticks) tc_said_lost (its
#     "CPU N: C events lost" lines: overrun only) peer_cpu_us (= tc_cpu_us)
#   tc_verify RUN SIZE NCPUS     trace-cmd report | bench-verify --text
#                                (D lines to $PEER_DRAIN); trace-cmd's
#                                saved stats (trace-cmd report --stat),
#                                taken when it stopped tracing
#     tc_report_status verify_status tc_stat_overrun tc_stat_commit_overrun
#     tc_stat_dropped tc_stat_entries tc_stat_read peer_lost (= overrun +
#     commit overrun + dropped events, per CPU: the system's loss)
#     decode_cpu_us (trace-cmd report and bench-verify) and the reader's
#     summary (common.sh's peer_summary)
#
#   ftrace_read RUN SIZE NCPUS   (after) the instance's trace file, as the
#                                kernel prints it, | bench-verify --text
#                                (D lines to $PEER_DRAIN); its loss from
#                                its per-CPU stats
#     peer_lost (overrun + commit overrun + dropped events, per CPU)
PEER_INST=${PEER_INST:-relay_bench}
PEER_TR=/sys/kernel/tracing
PEER_I=$PEER_TR/instances/$PEER_INST
tc_pid='' tc_t0=0 tc_elapsed_ms=0 tc_utime_us=0 tc_stime_us=0
# The recordings it leaves in $PEER_DIR (common.sh: P_files).
# shellcheck disable=SC2034
trace_cmd_files='tc.dat*'

# --- the ftrace instance -------------------------------------------------

# ftrace_setup KB OVERWRITE
ftrace_setup() {
	[ -d "$PEER_I" ] && ftrace_teardown
	if ! mkdir "$PEER_I" 2>/dev/null; then
		echo "E cannot create the ftrace instance $PEER_I"
		return 1
	fi
	echo 0 >"$PEER_I/tracing_on"
	if ! echo "$1" >"$PEER_I/buffer_size_kb" 2>/dev/null; then
		echo "E buffer_size_kb=$1 refused"
		return 1
	fi
	echo "$2" >"$PEER_I/options/overwrite"
	if ! echo 1 >"$PEER_I/events/relay_bench/relay_bench_rec/enable" 2>/dev/null; then
		echo "E no event $PEER_EVENT (is relay_bench.ko loaded?)"
		return 1
	fi
	: >"$PEER_I/trace"
	echo "ftrace_instance=$PEER_INST"
	echo "ftrace_buffer_kb=$(cat "$PEER_I/buffer_size_kb")"
	echo "ftrace_overwrite=$(cat "$PEER_I/options/overwrite")"
}

# ftrace_stats PREFIX [NCPUS]
ftrace_stats() {
	pn=$(peer_ncpus "${2:-}")
	files='' c=0
	while [ $c -lt "$pn" ]; do
		files="$files $PEER_I/per_cpu/cpu$c/stats"
		c=$((c + 1))
	done
	# shellcheck disable=SC2086
	awk -v p="$1" '
		FNR == 1 { f++ }
		{ k = $0; sub(/:.*/, "", k); gsub(/ /, "_", k); v[f, k] = $NF }
		END {
			split("entries overrun commit_overrun bytes dropped_events read_events", k, " ")
			split("entries overrun commit_overrun bytes dropped read", name, " ")
			for (i = 1; i <= 6; i++) {
				s = ""; for (c = 1; c <= f; c++) s = s (c > 1 ? "," : "") (v[c, k[i]] + 0)
				print p "_" name[i] "=" s
			}
		}' $files
}

# ftrace_lost PREFIX FILE: an ftrace buffer's loss per CPU, peer_lost:
# overrun + commit overrun + dropped events, from FILE's PREFIX_overrun,
# PREFIX_commit_overrun and PREFIX_dropped lines (as ftrace_stats prints
# them).
ftrace_lost() {
	awk -F= -v p="$1" '
		$1 == p "_overrun" || $1 == p "_commit_overrun" || $1 == p "_dropped" {
			n = split($2, a, ","); for (i = 1; i <= n; i++) v[i] += a[i]; if (n > m) m = n }
		END { s = ""; for (i = 1; i <= m; i++) s = s (i > 1 ? "," : "") v[i] + 0; print "peer_lost=" s }' "$2"
}

# ftrace_teardown: the instance removed, if trace-cmd left it.
ftrace_teardown() {
	[ -d "$PEER_I" ] || return 0
	echo 0 >"$PEER_I/tracing_on"
	echo 0 >"$PEER_I/events/relay_bench/relay_bench_rec/enable"
	rmdir "$PEER_I" 2>/dev/null || { echo "E cannot remove the ftrace instance $PEER_I"; return 1; }
}

# --- trace-cmd -----------------------------------------------------------

# tc_start [KB]
tc_start() {
	mkdir -p "$PEER_DIR"
	rm -f "$PEER_DIR"/tc.dat*
	if [ ! -d "$PEER_I" ]; then
		echo "E no ftrace instance $PEER_INST: ftrace_setup first"
		return 1
	fi
	echo 0 >"$PEER_I/tracing_on"
	peer_cs
	tc_t0=$pcs
	trace-cmd record -B "$PEER_INST" -e "$PEER_EVENT" ${1:+-b "$1"} -o "$PEER_DIR/tc.dat" \
		</dev/null >"$PEER_DIR/tc-record.txt" 2>&1 &
	tc_pid=$!
	tc_on=0
	poll_until "$PEER_TIMEOUT" "$tc_pid" has_line '^1$' "$PEER_I/tracing_on" && tc_on=1
	peer_cs
	echo "tc_pid=$tc_pid"
	echo "tc_ready_ms=$(( (pcs - tc_t0) * 10 ))"
	if [ "$tc_on" != 1 ]; then
		echo "E trace-cmd record did not start tracing: $(tail -3 "$PEER_DIR/tc-record.txt" | tr '\n' ' ')"
		# SIGINT first: trace-cmd then stops the recorders it forked,
		# which hold the instance's files open.
		kill -INT "$tc_pid" 2>/dev/null
		peer_wait "$tc_pid" "trace-cmd record"
		tc_pid=
		return 1
	fi
}

# tc_stop [NCPUS]
tc_stop() {
	if [ -z "$tc_pid" ]; then
		echo "E trace-cmd record is not running"
		return 1
	fi
	peer_ticks
	u0=$pt_u s0=$pt_s
	kill -INT "$tc_pid"
	peer_wait "$tc_pid" "trace-cmd record"
	peer_ticks
	peer_cs
	tc_pid=
	tc_elapsed_ms=$(( (pcs - tc_t0) * 10 ))
	tc_utime_us=$(( (pt_u - u0) * 10000 )) tc_stime_us=$(( (pt_s - s0) * 10000 ))
	echo "tc_status=$pw_rc"
	echo "tc_elapsed_ms=$tc_elapsed_ms"
	echo "tc_utime_us=$tc_utime_us"
	echo "tc_stime_us=$tc_stime_us"
	echo "tc_cpu_us=$((tc_utime_us + tc_stime_us))"
	echo "peer_cpu_us=$((tc_utime_us + tc_stime_us))"
	# "CPU 2: 1234 events lost" (after "Buffer: NAME"), overrun only.
	awk -v n="$(peer_ncpus "${1:-}")" '$1 == "CPU" && $3 ~ /^[0-9]+$/ && $4 == "events" && $5 == "lost" { l[$2 + 0] += $3 }
		END { s = ""; for (c = 0; c < n; c++) s = s (c ? "," : "") (l[c] + 0); print "tc_said_lost=" s }' \
		"$PEER_DIR/tc-record.txt"
	if [ "$pw_rc" != 0 ]; then
		echo "E trace-cmd record failed ($pw_rc): $(grep -v "^CPU" "$PEER_DIR/tc-record.txt" | tail -3 | tr '\n' ' ')"
		return 1
	fi
}

# tc_verify RUN SIZE NCPUS
tc_verify() {
	# shellcheck disable=SC2034	# peer_verify_text's
	pv_times="$((tc_elapsed_ms * 1000000)),$tc_utime_us,$tc_stime_us"
	peer_decode tc tc_report_status "trace-cmd report" "$1" "$2" "${3:-}" \
		trace-cmd report -i "$PEER_DIR/tc.dat"
	# The stats trace-cmd saved of the instance's buffer when it stopped.
	if trace-cmd report --stat -i "$PEER_DIR/tc.dat" >"$PEER_DIR/tc-stat.txt" 2>&1; then
		awk -v n="$pn" -v b="$PEER_INST" '
			$1 == "Buffer:" { mine = ($2 == b); next }
			mine && $1 == "CPU:" { c = $2 + 0; next }
			mine && c >= 0 && /^[a-z ]+: *[0-9]+$/ { k = $0; sub(/:.*/, "", k); gsub(/ /, "_", k); v[c, k] = $NF; seen = 1 }
			BEGIN { c = -1 }
			END {
				split("overrun commit_overrun dropped_events entries read_events", k, " ")
				split("overrun commit_overrun dropped entries read", name, " ")
				for (i = 1; i <= 5; i++) {
					s = ""; for (x = 0; x < n; x++) s = s (x ? "," : "") (v[x, k[i]] + 0)
					print "tc_stat_" name[i] "=" s
				}
				if (!seen) print "E trace-cmd report --stat has no stats of buffer " b
			}' "$PEER_DIR/tc-stat.txt" >"$PEER_DIR/tc-stat.kv"
		cat "$PEER_DIR/tc-stat.kv"
		ftrace_lost tc_stat "$PEER_DIR/tc-stat.kv"
	else
		echo "E trace-cmd report --stat failed: $(tail -3 "$PEER_DIR/tc-stat.txt" | tr '\n' ' ')"
		pfail=1
	fi
	return "$pfail"
}

# --- the instance read after the writers stopped ((a)) -------------------

# ftrace_read RUN SIZE NCPUS
ftrace_read() {
	pn=$(peer_ncpus "${3:-}")
	pfail=0
	echo 0 >"$PEER_I/tracing_on"
	ftrace_stats fa "$pn" >"$PEER_DIR/fa.txt"
	# shellcheck disable=SC2034	# peer_verify_text's
	pv_times=0,0,0
	peer_verify_text ftrace "$1" "$2" cat "$PEER_I/trace"
	[ "$pv_rc" = 0 ] || { echo "E reading $PEER_I/trace failed ($pv_rc)"; pfail=1; }
	[ "$pv_vrc" = 0 ] || { echo "E bench-verify --text failed ($pv_vrc): $(cat "$PEER_DIR/verify.err")"; pfail=1; }
	ftrace_lost fa "$PEER_DIR/fa.txt"
	return "$pfail"
}

# --- the contract (common.sh) --------------------------------------------

# trace_cmd_begin HOW RUN SIZE WRITERS BYTES_PER_CPU: the instance, with
# BYTES_PER_CPU of buffer per CPU; live: trace-cmd record started, after:
# tracing on.
trace_cmd_begin() {
	ftrace_setup $(($5 / 1024)) 0 || return 1
	if [ "$1" = live ]; then
		tc_start $(($5 / 1024))
	else
		echo 1 >"$PEER_I/tracing_on"
	fi
}

# trace_cmd_end HOW RUN SIZE WRITERS: live: trace-cmd stopped and its
# recording verified; after: the instance's trace file verified; then the
# instance removed.
trace_cmd_end() {
	if [ "$1" = live ]; then
		tc_stop "$4" && tc_verify "$2" "$3" "$4"
	else
		ftrace_read "$2" "$3" "$4" && echo peer_cpu_us=0
	fi
	te_rc=$?
	ftrace_teardown || te_rc=1
	return "$te_rc"
}
