# shellcheck shell=sh
# The guest side of a relay_bench run, shared by bench.sh (make bench) and
# tests/guest/stress.sh: load the module, drain the trace, run, and print
# the run's R and D lines (format: bench-user/report/runfmt.py).
# Source it in the busybox guest, with relay_bench.ko and relay-drain in
# /extra.
P=/sys/module/relay_bench/parameters
T=/sys/kernel/debug/relay_bench/run
dpid=

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

# drain_start ARGS...: start relay-drain on the trace, with the run
# identifier and record size of the loaded module, and wait until it has
# every file open.  Its output goes to /tmp/drain.txt.
drain_start() {
	rm -f /tmp/ready /tmp/drain.txt /tmp/drain.err
	/extra/relay-drain -i "$(param run_id)" -r "$(param rec_size)" \
		-R /tmp/ready -t 120 "$@" $T >/tmp/drain.txt 2>/tmp/drain.err &
	dpid=$!
	while [ ! -e /tmp/ready ] && kill -0 $dpid 2>/dev/null; do usleep 2000; done
	[ -e /tmp/ready ]
}

# drain_wait: wait for relay-drain; fail, with its message, if it failed.
drain_wait() {
	[ -n "$dpid" ] || return 0
	wait $dpid
	rc=$?
	dpid=
	[ $rc = 0 ] || { echo "relay-drain failed ($rc): $(cat /tmp/drain.err)"; return 1; }
}

# bench_run: one run of the loaded module.
bench_run() {
	echo 1 >$P/run
}

# emit_run IDX DESCRIPTION...: print the R line of the run just done -- its
# description (KEY=VALUE words: the harness's keys and the module's
# parameters), then the module's results: per writer, its attempts,
# successes and refused writes (refused for any reason); the trace's
# dropped and refused counters (trace_dropped, trace_refused) -- and a D
# line for each line the drainer printed, and for the module's own check
# of a ring buffer.
emit_run() {
	idx=$1
	shift
	echo "R idx=$idx $* attempted=$(param res_attempted) ok=$(param res_ok)" \
		"refused=$(param res_failed) ns=$(param res_ns)" \
		"last_ts=$(param res_last_ts) trace_dropped=$(param res_dropped)" \
		"trace_refused=$(param res_refused) hist=$(param res_hist)"
	[ -s /tmp/drain.txt ] && sed "s/^/D idx=$idx /" /tmp/drain.txt
	param res_check | grep . | sed "s/^/D idx=$idx /"
	rm -f /tmp/drain.txt
}

# emit_meta: the guest's facts, as an M line.
emit_meta() {
	echo "M clocksource=$(cat /sys/devices/system/clocksource/clocksource0/current_clocksource)" \
		"cpus=$(grep -c ^processor /proc/cpuinfo) kernel=$(uname -r)" \
		"mem_kb=$(awk '/^MemTotal:/ { print $2 }' /proc/meminfo)"
}
