# shellcheck shell=sh
# The guest side of a relay_bench run, shared by bench.sh (make bench),
# cost.sh (make bench-cost) and tests/guest/stress.sh: load the module,
# record the trace with relaytrace (the series' consumer), run, verify
# every record recorded with bench-verify, and print the run's R and D
# lines and the guest's M line (format: bench-user/report/runfmt.py): the
# one place each is printed.  Source it in the busybox guest, with
# relay_bench.ko, relaytrace and bench-verify in /extra.
P=/sys/module/relay_bench/parameters
N=relay_bench/run
# shellcheck disable=SC2034	# bench.sh's
T=/sys/kernel/tracing/relay/$N
REC=/tmp/rec
rpid=

# bench_load PARAM=VALUE...: insmod relay_bench.ko ($BENCH_KO, by default
# /extra/relay_bench.ko) with these parameters.
bench_load() {
	insmod "${BENCH_KO:-/extra/relay_bench.ko}" "$@"
}

bench_unload() {
	rmmod relay_bench
}

# param NAME: a module parameter's value.
param() {
	cat "$P/$1"
}

# reader_opt READER: relaytrace's option for READER (mmap, read; none for
# its own choice).
reader_opt() {
	case "$1" in
	mmap) echo --mmap ;;
	read) echo --read ;;
	esac
}

# reader_bg COMMAND...: start COMMAND, a recorder that writes $REC, in the
# background, and wait until it has every file open (its info file is
# written then).  Its summary goes to /tmp/rec.txt.
reader_bg() {
	rm -rf $REC /tmp/rec.txt
	"$@" >/tmp/rec.txt 2>&1 &
	rpid=$!
	while [ ! -s $REC/info ] && kill -0 $rpid 2>/dev/null; do usleep 2000; done
	[ -s $REC/info ]
}

# rec_start OPTION...: `relaytrace record OPTION... -o $REC` on the trace,
# started as reader_bg starts it.
rec_start() {
	reader_bg /extra/relaytrace record "$@" -o $REC $N
}

# reader_start READER [CPU]: start the live reader the run line asks for:
# relaytrace record through the mapping (mmap), with read(2) (read), or
# its own choice (empty); or readloop, a plain read(2) of 1 MiB at a time
# (plain) or of a random count up to 2 MiB (plain-rand), as cat or dd
# read a file, on CPU if given.
# shellcheck disable=SC2046	# reader_opt: no option, or one
reader_start() {
	case "$1" in
	plain) reader_bg /extra/readloop -c 1048576 ${2:+-C "$2"} -o $REC $N ;;
	plain-rand) reader_bg /extra/readloop -r -c 2097152 ${2:+-C "$2"} -o $REC $N ;;
	*) rec_start $(reader_opt "$1") ;;
	esac
}

# rec_wait: wait for the recording, which ends when the trace stops; fail,
# with its message, if relaytrace failed.
rec_wait() {
	[ -n "$rpid" ] || return 0
	wait "$rpid"
	rc=$?
	rpid=
	[ $rc = 0 ] || { echo "relaytrace record failed ($rc): $(grep "^relaytrace" /tmp/rec.txt | tr "\n" " ")"; return 1; }
}

# rec_dump OPTION...: what the trace's buffers hold now, to $REC.
rec_dump() {
	rm -rf $REC /tmp/rec.txt
	/extra/relaytrace dump "$@" -o $REC $N >/tmp/rec.txt 2>&1 ||
		{ echo "relaytrace dump failed: $(tail -3 /tmp/rec.txt | tr '\n' ' ')"; return 1; }
}

# verify RUN_ID [OTHER_RUN_IDS]: check the recording's records of RUN_ID
# (the others, comma-separated, are expected there too), with the drain
# line; the reader's lines go to /tmp/drain.txt.
verify() {
	/extra/bench-verify -i "$1" ${2:+-x "$2"} -r "$(param rec_size)" -d $REC >/tmp/drain.txt 2>/tmp/verify.err ||
		{ echo "bench-verify failed: $(cat /tmp/verify.err)"; return 1; }
}

# bench_run: one run of the loaded module.
bench_run() {
	echo 1 >$P/run
}

# r_line IDX DESCRIPTION...: the R line of the run just done (the one
# function that prints one) -- its index, its description (KEY=VALUE words:
# the harness's keys and the module's parameters, and a peer's
# peer_lost and peer_cpu_us), then the module's results: per writer, its
# attempts, successes and refused writes (refused for any reason); what
# the trace's dropped and refused counters grew by (trace_dropped,
# trace_refused); the latency histogram.
r_line() {
	rl_idx=$1
	shift
	echo "R idx=$rl_idx $* attempted=$(param res_attempted) ok=$(param res_ok)" \
		"refused=$(param res_failed) ns=$(param res_ns)" \
		"last_ts=$(param res_last_ts) trace_dropped=$(param res_dropped)" \
		"trace_refused=$(param res_refused) hist=$(param res_hist)"
}

# emit_run IDX DESCRIPTION...: print the R line of the run just done
# (r_line), then a D line for each line bench-verify printed, and for the
# module's own check of a ring buffer.
emit_run() {
	idx=$1
	shift
	r_line "$idx" "$@"
	emit_reader "$idx"
	param res_check | grep . | sed "s/^/D idx=$idx /"
	rm -f /tmp/drain.txt
}

# emit_reader IDX: the reader's lines (/tmp/drain.txt), as D lines of run IDX.
emit_reader() {
	[ -s /tmp/drain.txt ] && sed "s/^/D idx=$1 /" /tmp/drain.txt
	return 0
}

# bpf_jit: the BPF JIT setting, net.core.bpf_jit_enable (1: on; none
# without BPF).
bpf_jit() {
	cat /proc/sys/net/core/bpf_jit_enable 2>/dev/null || echo none
}

# emit_meta: the guest's facts, as an M line (the one function that
# prints them).
emit_meta() {
	echo "M clocksource=$(cat /sys/devices/system/clocksource/clocksource0/current_clocksource)" \
		"cpus=$(grep -c ^processor /proc/cpuinfo) kernel=$(uname -r)" \
		"mem_kb=$(awk '/^MemTotal:/ { print $2 }' /proc/meminfo)" \
		"bpf_jit=$(bpf_jit)"
}

# poll_until SECONDS PID COMMAND...: run COMMAND every 10 ms until it
# succeeds, while PID (what COMMAND waits for) runs, for SECONDS at most
# (whole seconds of /proc/uptime); COMMAND's status at the end.  How
# wait_line, the peers (lttng_sessiond, trace-cmd.sh's tc_start) and
# cost.sh wait for something to be ready.
poll_until() {
	pu_s=$1 pu_pid=$2
	shift 2
	read -r pu_t0 _ </proc/uptime
	while ! "$@"; do
		kill -0 "$pu_pid" 2>/dev/null || { "$@"; return; }
		read -r pu_t _ </proc/uptime
		[ $(( ${pu_t%.*} - ${pu_t0%.*} )) -lt "$pu_s" ] || { "$@"; return; }
		usleep 10000
	done
}

# has_line PATTERN FILE: FILE has a line that matches PATTERN (grep).
has_line() {
	grep -q "$1" "$2" 2>/dev/null
}

# wait_line PATTERN FILE PID SECONDS: wait until FILE has a line that
# matches PATTERN, while PID (which writes FILE) runs, for SECONDS at
# most; fails if FILE has no such line then.  How a BPF program's attach
# is awaited (bench-ringbuf's "attached").
wait_line() {
	poll_until "$4" "$3" has_line "$1" "$2"
}

# lttng_answers: a session daemon answers the lttng client (within 10 s).
lttng_answers() {
	timeout 10 lttng --no-sessiond list >/dev/null 2>&1
}

# lttng_cmd SECONDS LOG WHAT...: lttng WHAT, never spawning a session
# daemon of its own, killed after SECONDS; its output appended to LOG.
# Fails with why in $lc_why.
# shellcheck disable=SC2034	# lc_why: the callers'
lttng_cmd() {
	lc_s=$1 lc_log=$2
	shift 2
	timeout "$lc_s" lttng --no-sessiond "$@" >>"$lc_log" 2>&1
	lc_rc=$?
	case "$lc_rc" in
	0) return 0 ;;
	124|143) lc_why="lttng $* did not end within $lc_s s: killed" ;;
	*) lc_why="lttng $* failed ($lc_rc): $(tail -2 "$lc_log" | tr '\n' ' ')" ;;
	esac
	return 1
}

# lttng_discarded SESSION SECONDS: the events a session's kernel channels
# discarded, as lttng list counts them (a discard-mode channel's
# "Discarded events"); nothing if it does not say.
lttng_discarded() {
	timeout "$2" lttng --no-sessiond list "$1" -k 2>&1 | awk '
		/Discarded events:/ { d += $NF; seen = 1 }
		END { if (seen) print d }'
}

# lttng_sessiond PROBE LOG SECONDS: lttng-sessiond started, with LTTng's
# modules and lttng-probe-PROBE.ko loaded (--kmod-probes: by libkmod, from
# /lib/modules, vm/lttng's tree), its output in LOG, ready once it
# answers the lttng client, within SECONDS; its pid in $sd_pid.  It
# needs a tmpfs on /dev/shm (its shared memory is POSIX shm).  Fails
# with why in $sd_why, and no daemon left.  The LTTng peer's
# (peers/lttng.sh) and make bench-cost's (cost.sh).
# shellcheck disable=SC2034	# sd_why, sd_pid: the callers'
lttng_sessiond() {
	sd_why='' sd_pid=''
	export HOME="${HOME:-/root}"
	mkdir -p "$HOME" /var/run/lttng /dev/shm
	grep -q ' /dev/shm ' /proc/mounts || mount -t tmpfs shm /dev/shm ||
		{ sd_why="cannot mount a tmpfs on /dev/shm"; return 1; }
	# A socket left by a daemon that died would pass for this one's.
	rm -f /var/run/lttng/client-lttng-sessiond
	lttng-sessiond --kmod-probes="$1" </dev/null >"$2" 2>&1 &
	sd_pid=$!
	if ! poll_until "$3" "$sd_pid" lttng_answers || ! kill -0 "$sd_pid" 2>/dev/null; then
		sd_why="lttng-sessiond did not start within $3 s: $(grep -iv '^DBG\|^Warning: No tracing group' "$2" | tail -3 | tr '\n' ' ')"
	elif ! grep -q "^lttng_probe_$1 " /proc/modules; then
		sd_why="lttng-sessiond did not load lttng_probe_$1: $(tail -3 "$2" | tr '\n' ' ')"
	else
		return 0
	fi
	# SIGKILL: a daemon that did not start may not answer SIGTERM.
	kill -KILL "$sd_pid" 2>/dev/null
	wait "$sd_pid" 2>/dev/null
	sd_pid=''
	return 1
}
