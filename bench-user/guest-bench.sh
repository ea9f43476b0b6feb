#!/bin/sh
# Runs in the guest: one relay_bench run per line of /extra/runs.txt, with
# relay-drain reading the trace.  Prints "R ..." lines with the module's
# figures, "D ..." lines with the drainer's, and a progress line per run.
set -u
P=/sys/module/relay_bench/parameters
T=/sys/kernel/debug/relay_bench/run

echo "M clocksource=$(cat /sys/devices/system/clocksource/clocksource0/current_clocksource) cpus=$(grep -c ^processor /proc/cpuinfo) kernel=$(uname -r)"
fail=0
while read -r idx total mode flight writers size rep reps dur sub nsub; do
	case "$idx" in ''|\#*) continue ;; esac
	if ! insmod /extra/relay_bench.ko mode="$mode" flight="$flight" \
		writers="$writers" rec_size="$size" subbuf_size="$sub" \
		n_subbufs="$nsub" duration_ms="$dur"; then
		echo "E idx=$idx insmod failed"
		fail=1
		continue
	fi
	rm -f /tmp/ready
	/extra/relay-drain -r "$size" -R /tmp/ready -t 120 $T >/tmp/drain.txt 2>/tmp/drain.err &
	dpid=$!
	while [ ! -e /tmp/ready ] && kill -0 $dpid 2>/dev/null; do usleep 2000; done
	echo 1 >$P/run || { echo "E idx=$idx run failed"; fail=1; }
	wait $dpid || { echo "E idx=$idx relay-drain failed: $(cat /tmp/drain.err)"; fail=1; }
	echo "R idx=$idx mode=$mode flight=$flight writers=$writers size=$size rep=$rep" \
		"attempted=$(cat $P/res_attempted) written=$(cat $P/res_written)" \
		"failed=$(cat $P/res_failed) ns=$(cat $P/res_ns) dropped=$(cat $P/res_dropped)"
	sed "s/^/D idx=$idx /" /tmp/drain.txt
	# Progress: total records written per second of the slowest writer.
	fl=nonflight
	[ "$flight" = 1 ] && fl=flight
	awk -v w="$(cat $P/res_written)" -v ns="$(cat $P/res_ns)" -v d="$(cat $P/res_dropped)" \
	    -v tag="[$idx/$total] $mode $fl w=$writers ${size}B rep $rep/$reps" 'BEGIN {
		n = split(w, a, ","); split(ns, b, ",")
		for (i = 1; i <= n; i++) { s += a[i]; if (b[i] > m) m = b[i] }
		printf "%s ... %.2f M rec/s, %d dropped\n", tag, m ? s / m * 1000 : 0, d }'
	rmmod relay_bench || { echo "E idx=$idx rmmod failed"; fail=1; }
done </extra/runs.txt
exit $fail
