# shellcheck shell=sh
# The guest side of the benchmark's peers, the systems that record
# relay_bench.ko's tracepoint relay_bench:relay_bench_rec (mode=event):
# an ftrace instance read by trace-cmd, and perf.  Sourced by bench.sh
# (busybox sh, set -u), after lib.sh; its functions set global variables
# (sh has no locals), none of which bench.sh uses (pn, pfail, c, ...).  Per peer: set up the system, start
# its consumer and wait until it is ready (before the writers start),
# stop it once they are done, and check what it recorded, record by
# record, with bench-verify --text, whose lines go to $PEER_DRAIN
# (/tmp/drain.txt: lib.sh's emit_run prints them as D lines).
#
# A run of each peer (writers on CPUs 0..W-1, run identifier RUN, records
# of SIZE bytes):
#
#   trace-cmd: ftrace_setup KB 0; tc_start; ftrace_stats before W;
#              <the writers' run>; ftrace_stats after W; tc_stop W;
#              tc_verify RUN SIZE W; ftrace_teardown
#   perf:      perf_start BYTES; <the writers' run>; perf_stop W;
#              perf_verify RUN SIZE W
#
# (ftrace_stats before after tc_start: trace-cmd record resets the buffer,
# and its counters, when it starts; after before tc_stop: trace-cmd
# removes the instance when it ends.)  Call the start and stop functions
# in the shell that runs the benchmark, not in $(...): stop waits for the
# consumer, which must be that shell's child, and counts its CPU time from
# that shell's own.  Redirect their output instead.
#
# What closes the accounting (attempts = records read + loss, per writer,
# and the loss = the sequence numbers the records skip), peer_lost:
#   ftrace   the instance's per-CPU counters: "dropped events" (no
#            overwrite: the ring buffer refuses the event) + "overrun"
#            (overwrite: older events overwritten) + "commit overrun";
#            trace-cmd saves them when it stops (report --stat).
#            trace-cmd report's markers "CPU:N [C EVENTS DROPPED]" count
#            the overrun only (pages the writer lapped), "[EVENTS
#            DROPPED]" without a count when the page had no room for it;
#            trace-cmd record's "CPU N: C events lost" is the overrun too.
#            Events written while the instance's tracing_on is 0 are
#            counted nowhere: start the consumer first.
#   perf     the counts of the PERF_RECORD_LOST records of each CPU's
#            buffer (perf script --show-lost-events).  The kernel writes
#            one only before the next record that fits in that buffer:
#            perf_stop makes one (a process on each CPU) once perf has
#            read the buffer.  It counts every record lost in that buffer,
#            a task's COMM, FORK or EXIT as well as a sample: in a busy
#            system it can exceed the tracepoint's loss.  Their sum is
#            also the event's own count, which perf record reads at its
#            end (PERF_RECORD_LOST_SAMPLES, all CPUs: perf_stat_lost_samples).
#            Under overload, perf.data (perf 6.1) holds a few samples
#            twice: perf report counts them, perf script prints them (and
#            warns of "out of order events"); bench-verify counts them as
#            dups, and relay_bench_check_rec() as backwards.
#
# Each function prints what it found as KEY=VALUE lines on stdout (no
# blanks in a value; per-CPU values are comma-separated lists, CPU 0
# first, over the CPUs named, or all CPUs), and its errors as lines that
# start with "E "; it returns non-zero after an error.
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
#     summary below
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
#     of the PERF_RECORD_LOSTs of each CPU) decode_cpu_us and the summary
#     below
#
#   The reader's summary (tc_verify, perf_verify), from bench-verify:
#     records (per writer, whole records of the run), torn stale partial
#     backwards ts_back (all streams and writers), text_events text_unparsed text_badlen text_dups
#     text_markers text_lost text_lost_unknown (its "text" line of all
#     streams)
#
# The consumer's CPU time is the CPU time of the process tree that records
# (trace-cmd record with its recorders; perf record), from the shell's
# count of its reaped children's time across the wait for it: all of its
# life, its writing of the output file at the end included.  Decoding the
# file afterwards (trace-cmd report, perf script) and bench-verify are
# decode_cpu_us, not the consumer's.
PEER_DIR=${PEER_DIR:-/tmp/peer}
PEER_INST=${PEER_INST:-relay_bench}
PEER_EVENT=relay_bench:relay_bench_rec
PEER_VERIFY=${PEER_VERIFY:-/extra/bench-verify}
PEER_DRAIN=${PEER_DRAIN:-/tmp/drain.txt}
PEER_TIMEOUT=${PEER_TIMEOUT:-120}	# s for a consumer to start or stop
PEER_TR=/sys/kernel/tracing
PEER_I=$PEER_TR/instances/$PEER_INST
tc_pid='' tc_t0=0 tc_elapsed_ms=0 tc_utime_us=0 tc_stime_us=0
perf_pid='' perf_t0=0 perf_elapsed_ms=0 perf_utime_us=0 perf_stime_us=0
pt_u=0 pt_s=0

# peer_cs: centiseconds since boot, in $pcs (no fork).
peer_cs() {
	read -r pcs _ </proc/uptime
	pcs=${pcs%.*}${pcs#*.}
	pcs=${pcs#"${pcs%%[!0]*}"}
	pcs=${pcs:-0}
}

# peer_ticks: the CPU time, user and sys in clock ticks (USER_HZ, 100 on
# x86), of this shell's children it has waited for, in $pt_u and $pt_s.
# Read without a fork: a subshell has its own children.
peer_ticks() {
	read -r pst </proc/self/stat
	pst=${pst##*) }
	# shellcheck disable=SC2086
	set -- $pst
	pt_u=${14} pt_s=${15}
}

# peer_ncpus [N]: N, or the CPUs the kernel has.
peer_ncpus() {
	if [ -n "${1:-}" ]; then echo "$1"; else grep -c ^processor /proc/cpuinfo; fi
}

# peer_wait PID WHAT: wait for PID (a child), killed after $PEER_TIMEOUT s;
# its status in $pw_rc.
peer_wait() {
	(sleep "$PEER_TIMEOUT"; kill -KILL "$1" 2>/dev/null) </dev/null >/dev/null 2>&1 &
	pw_dog=$!
	wait "$1"
	pw_rc=$?
	kill "$pw_dog" 2>/dev/null
	if [ "$pw_rc" = 137 ]; then
		echo "E $2 did not end within $PEER_TIMEOUT s: killed"
	fi
}

# peer_summary NCPUS: the reader's summary of $PEER_DRAIN.
peer_summary() {
	awk -v n="$1" '
		BEGIN { split("events unparsed badlen dups markers lost lost_unknown", k, " ") }
		function val(k,   i, a) { for (i = 2; i <= NF; i++) { split($i, a, "="); if (a[1] == k) return a[2] } return 0 }
		$1 == "writer" { rec[val("cpu")] += val("records"); back += val("backwards"); tsb += val("ts_back") }
		$1 == "stream" { torn += val("torn"); stale += val("stale"); partial += val("partial") }
		$1 == "text" && val("stream") == -1 { for (i = 1; i <= 7; i++) t[k[i]] = val(k[i]) }
		END {
			s = ""; for (c = 0; c < n; c++) s = s (c ? "," : "") (rec[c] + 0)
			print "records=" s
			print "torn=" torn + 0; print "stale=" stale + 0; print "partial=" partial + 0
			print "backwards=" back + 0; print "ts_back=" tsb + 0
			for (i = 1; i <= 7; i++) print "text_" k[i] "=" t[k[i]] + 0
		}' "$PEER_DRAIN"
}

# peer_verify_text TOOL RUN SIZE CMD...: CMD's output through bench-verify
# --text into $PEER_DRAIN, with the consumer's times ($pv_times); CMD's
# status in $pv_rc, bench-verify's in $pv_vrc, their CPU time in $pv_cpu.
peer_verify_text() {
	tool=$1 run=$2 size=$3
	shift 3
	peer_ticks
	pv_u=$pt_u pv_s=$pt_s
	rm -f "$PEER_DIR/$tool.rc"
	{ "$@" 2>"$PEER_DIR/$tool.err"; echo $? >"$PEER_DIR/$tool.rc"; } |
		"$PEER_VERIFY" -i "$run" -r "$size" -d -c "$pv_times" --text - >"$PEER_DRAIN" 2>"$PEER_DIR/verify.err"
	pv_vrc=$?
	peer_ticks
	pv_cpu=$(( (pt_u - pv_u + pt_s - pv_s) * 10000 ))
	pv_rc=$(cat "$PEER_DIR/$tool.rc" 2>/dev/null || echo 255)
}

# peer_decode TOOL KEY WHAT RUN SIZE NCPUS CMD...: a consumer's recording
# decoded by CMD (WHAT, in errors) and verified record by record
# (peer_verify_text, with the consumer's times in $pv_times): CMD's status
# as KEY, bench-verify's as verify_status, their CPU time as
# decode_cpu_us, then the reader's summary (peer_summary NCPUS).  Sets pn
# (the CPUs) and pfail (1 after an error).
peer_decode() {
	pd_tool=$1 pd_key=$2 pd_what=$3 pd_run=$4 pd_size=$5
	pn=$(peer_ncpus "$6")
	shift 6
	pfail=0
	peer_verify_text "$pd_tool" "$pd_run" "$pd_size" "$@"
	echo "$pd_key=$pv_rc"
	echo "verify_status=$pv_vrc"
	echo "decode_cpu_us=$pv_cpu"
	[ "$pv_rc" = 0 ] || { echo "E $pd_what failed ($pv_rc): $(tail -3 "$PEER_DIR/$pd_tool.err" | tr '\n' ' ')"; pfail=1; }
	[ "$pv_vrc" = 0 ] || { echo "E bench-verify --text failed ($pv_vrc): $(cat "$PEER_DIR/verify.err")"; pfail=1; }
	peer_summary "$pn"
}

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
	while [ "$(cat "$PEER_I/tracing_on")" != 1 ] && kill -0 "$tc_pid" 2>/dev/null; do
		peer_cs
		[ $((pcs - tc_t0)) -lt $((PEER_TIMEOUT * 100)) ] || break
		usleep 20000
	done
	peer_cs
	echo "tc_pid=$tc_pid"
	echo "tc_ready_ms=$(( (pcs - tc_t0) * 10 ))"
	if [ "$(cat "$PEER_I/tracing_on")" != 1 ]; then
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
	return $pfail
}

# --- perf ----------------------------------------------------------------

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
	return $pfail
}

# --- the BPF ring buffer (bench-ringbuf) ---------------------------------

bpf_pid='' bpf_t0=0

# bpf_start LAYOUT BYTES_PER_CPU RUN SIZE WRITERS CONSUME: bench-ringbuf
# attached to the tracepoint, its ring buffer(s) BYTES_PER_CPU per CPU
# (LAYOUT=percpu: one each; shared: one of BYTES_PER_CPU times the CPUs),
# consuming (CONSUME=1) or not until it is stopped; ready once it says
# "attached".
#     bpf_ready_ms bpf_size
bpf_start() {
	mkdir -p "$PEER_DIR"
	rm -rf "$PEER_DIR/bpf" "$PEER_DIR/bpf.out"
	bsize=$2
	[ "$1" = shared ] && bsize=$(($2 * $(peer_ncpus)))
	consume=--no-consume
	[ "$6" = 1 ] && consume=--consume
	peer_cs
	bpf_t0=$pcs
	/extra/bench-ringbuf --layout "$1" --size "$bsize" --rec-size "$4" --run "$3" --writers "$5" \
		$consume --until-signal --record "$PEER_DIR/bpf" --out "$PEER_DIR/bpf.out" \
		</dev/null >"$PEER_DIR/bpf.err" 2>&1 &
	bpf_pid=$!
	while ! grep -q '^attached' "$PEER_DIR/bpf.out" 2>/dev/null && kill -0 "$bpf_pid" 2>/dev/null; do
		peer_cs
		[ $((pcs - bpf_t0)) -lt $((PEER_TIMEOUT * 100)) ] || { kill -INT "$bpf_pid"; break; }
		usleep 10000
	done
	peer_cs
	echo "bpf_ready_ms=$(( (pcs - bpf_t0) * 10 ))"
	echo "bpf_size=$bsize"
	if ! grep -q '^attached' "$PEER_DIR/bpf.out" 2>/dev/null; then
		wait "$bpf_pid"
		echo "E bench-ringbuf did not attach ($?): $(tail -3 "$PEER_DIR/bpf.err" | tr '\n' ' ')"
		bpf_pid=
		return 1
	fi
}

# bpf_stop: SIGINT; bench-ringbuf drains what is left, writes its
# recording, then verifies it: its reader lines to $PEER_DRAIN.
#     peer_lost (refused reservations and the program's errors, per
#     writer's CPU) peer_cpu_us (its CPU time up to the end of its
#     recording, before the verification) bpf_status
bpf_stop() {
	if [ -z "$bpf_pid" ]; then
		echo "E bench-ringbuf is not running"
		return 1
	fi
	kill -INT "$bpf_pid"
	peer_wait "$bpf_pid" "bench-ringbuf"
	bpf_pid=
	echo "bpf_status=$pw_rc"
	grep -E '^(stream|writer|drain) ' "$PEER_DIR/bpf.out" >"$PEER_DRAIN"
	awk '$1 == "peer" { for (i = 2; i <= NF; i++) { split($i, a, "="); print (a[1] == "lost" ? "peer_lost" : "peer_" a[1]) "=" a[2] } }' \
		"$PEER_DIR/bpf.out"
	if [ "$pw_rc" != 0 ]; then
		echo "E bench-ringbuf failed ($pw_rc): $(grep -h -E '^(check|E |bench-ringbuf)' "$PEER_DIR/bpf.out" "$PEER_DIR/bpf.err" | tail -3 | tr '\n' ' ')"
		return 1
	fi
}

# --- an ftrace instance read after the writers stopped ((a)) -------------

# ftrace_read RUN SIZE NCPUS: the instance's records (its trace file, as
# the kernel prints them) through bench-verify --text into $PEER_DRAIN,
# and its loss, from its per-CPU stats.
#     peer_lost (overrun + commit overrun + dropped events, per CPU)
ftrace_read() {
	pn=$(peer_ncpus "${3:-}")
	pfail=0
	echo 0 >"$PEER_I/tracing_on"
	ftrace_stats fa "$pn" >"$PEER_DIR/fa.txt"
	pv_times=0,0,0
	peer_verify_text ftrace "$1" "$2" cat "$PEER_I/trace"
	[ "$pv_rc" = 0 ] || { echo "E reading $PEER_I/trace failed ($pv_rc)"; pfail=1; }
	[ "$pv_vrc" = 0 ] || { echo "E bench-verify --text failed ($pv_vrc): $(cat "$PEER_DIR/verify.err")"; pfail=1; }
	ftrace_lost fa "$PEER_DIR/fa.txt"
	return $pfail
}

# --- one run of a peer, as bench.sh runs it ------------------------------

# peer_begin SYSTEM[:LAYOUT] HOW RUN SIZE WRITERS BYTES_PER_CPU: the system
# set up around the tracepoint; HOW=live starts its consumer (trace-cmd,
# bench-ringbuf, perf), HOW=after only enables recording (nothing reads
# until peer_end).
peer_begin() {
	mkdir -p "$PEER_DIR"
	case "$1" in
	ftrace)
		ftrace_setup $(($6 / 1024)) 0 || return 1
		if [ "$2" = live ]; then
			tc_start $(($6 / 1024))
		else
			echo 1 >"$PEER_I/tracing_on"
		fi ;;
	bpf:*)	bpf_start "${1#bpf:}" "$6" "$3" "$4" "$5" "$([ "$2" = live ] && echo 1 || echo 0)" ;;
	perf)	[ "$2" = live ] || { echo "E perf has no run without its consumer"; return 1; }
		perf_start "$6" ;;
	*)	echo "E no peer system '$1' (peers.sh knows ftrace, bpf:shared, bpf:percpu, perf)"; return 1 ;;
	esac
}

# peer_end SYSTEM[:LAYOUT] HOW RUN SIZE WRITERS: stop the consumer, verify
# what it recorded (D lines to $PEER_DRAIN), and print the run's
# peer_lost and peer_cpu_us among its facts.
peer_end() {
	case "$1" in
	ftrace)
		if [ "$2" = live ]; then
			tc_stop "$5" && tc_verify "$3" "$4" "$5"
		else
			ftrace_read "$3" "$4" "$5" && echo peer_cpu_us=0
		fi
		pe_rc=$?
		ftrace_teardown || pe_rc=1
		return $pe_rc ;;
	bpf:*)	bpf_stop ;;
	perf)	perf_stop "$5" && perf_verify "$3" "$4" "$5" ;;
	esac
}
