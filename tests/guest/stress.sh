#!/bin/sh
# Guest stress and fault tests (KTAP), with relay_bench.ko, relay-drain,
# ctlfuzz and trace_test.ko in /extra.  Benchmark-style runs also print
# "R ..." and "D ..." lines, whose accounting the host checks with
# bench-user/summarize.py.
set -u
. /extra/ktap.sh
D=/sys/kernel/debug
B=$D/relay_bench/run
P=/sys/module/relay_bench/parameters
idx=0

bench_load() { insmod /extra/relay_bench.ko "$@" || echo "# insmod relay_bench $* failed"; }

# drain_start ARGS...: start relay-drain on the bench trace, wait until ready.
drain_start() {
	rm -f /tmp/ready
	/extra/relay-drain -R /tmp/ready -t 120 "$@" $B >/tmp/drain.txt 2>/tmp/drain.err &
	dpid=$!
	while [ ! -e /tmp/ready ] && kill -0 $dpid 2>/dev/null; do usleep 2000; done
}

# emit_run DESC: print the R and D lines of the run just finished.
emit_run() {
	idx=$((idx + 1))
	echo "R idx=$idx mode=$(cat $P/mode) flight=$(cat $P/flight | tr YN 10)" \
		"writers=$(cat $P/writers) size=$(cat $P/rec_size) rep=1" \
		"attempted=$(cat $P/res_attempted) written=$(cat $P/res_written)" \
		"failed=$(cat $P/res_failed) ns=$(cat $P/res_ns) dropped=$(cat $P/res_dropped)"
	sed "s/^/D idx=$idx /" /tmp/drain.txt
	echo "# run $idx: $1"
}

# --- 1. control-file fuzzing ------------------------------------------------
insmod /extra/trace_test.ko flags=2
T=$D/relay_trace_test/t
printf start >$T/state
/extra/ctlfuzz -p 4 -n 1500 $T >/tmp/fuzz.txt 2>&1
rc=$?
sed 's/^/# /' /tmp/fuzz.txt | tail -5
check "fuzz: 6000 malformed writes to state and rewind from 4 processes all refused" [ $rc = 0 ]
check "fuzz: state still reads running" [ "$(cat $T/state)" = running ]
printf stop >$T/state
check "fuzz: a valid stop still works afterwards" [ "$(cat $T/state)" = stopped ]
rmmod trace_test

# --- 2. concurrent control while writers and the drainer run -------------------
bench_load mode=percpu flight=1 writers=4 rec_size=64 duration_ms=5000
drain_start -r 64
echo 1 >$P/run &
rpid=$!
ctl() {
	i=0
	while [ -e /tmp/ctl.run ]; do
		printf start >$B/state 2>/dev/null
		printf 1 >$B/rewind 2>/dev/null
		cat $B/state $B/nr_sub $B/sub_size >/dev/null 2>&1
		printf stop >$B/state 2>/dev/null
		i=$((i + 1))
	done
	echo $i >/tmp/ctl.$1
}
touch /tmp/ctl.run
ctl a & c1=$!
ctl b & c2=$!
wait $rpid
rrc=$?
rm -f /tmp/ctl.run
wait $c1 $c2
iters=$(( $(cat /tmp/ctl.a) + $(cat /tmp/ctl.b) ))
kill $dpid 2>/dev/null; wait $dpid 2>/dev/null
echo "# concurrent control: $iters start/rewind/read/stop iterations from 2 processes"
check "concurrent control: the run completes ($iters control iterations)" [ $rrc = 0 -a $iters -gt 0 ]
printf start >$B/state 2>/dev/null
exec 3<$B/state 4<$B/trace0
rmmod relay_bench
check "cleanup with trace0 and state held open: module unloaded" [ ! -e $D/relay_bench ]
refused "cleanup with files held open: reading trace0 fails" sh -c 'cat <&4 >/dev/null'
refused "cleanup with files held open: reading state fails" sh -c 'cat <&3 >/dev/null'
exec 3<&- 4<&-

# --- 3. CPU hotplug during a per-CPU run ------------------------------------
if [ -w /sys/devices/system/cpu/cpu3/online ]; then
	bench_load mode=percpu flight=0 writers=2 rec_size=64 subbuf_size=4096 n_subbufs=4 duration_ms=2000
	drain_start -r 64
	echo 1 >$P/run &
	rpid=$!
	cycles=0
	for c in 1 2 3; do
		usleep 200000
		echo 0 >/sys/devices/system/cpu/cpu3/online && cycles=$((cycles + 1))
		usleep 200000
		echo 1 >/sys/devices/system/cpu/cpu3/online
	done
	wait $rpid
	rrc=$?
	wait $dpid
	emit_run "per-CPU, CPU 3 offlined and onlined $cycles times"
	check "hotplug: CPU 3 went offline and online $cycles times during the run" [ $cycles = 3 -a $rrc = 0 ]
	check "hotplug: all CPUs online again" [ "$(cat /sys/devices/system/cpu/online)" = 0-3 ]
	rmmod relay_bench
else
	echo "# CPU hotplug not available"
fi

# --- 4. a drainer too slow on purpose -----------------------------------------
for mode in percpu global; do
	bench_load mode=$mode flight=0 writers=4 rec_size=16 subbuf_size=4096 n_subbufs=4 duration_ms=500
	drain_start -r 16 -s 3000
	echo 1 >$P/run
	wait $dpid
	emit_run "$mode non-flight, slow drainer (3 ms pause after each read)"
	check "slow drainer, $mode: records were dropped (the drainer lagged)" [ "$(cat $P/res_dropped)" -gt 0 ]
	rmmod relay_bench
done

# --- 5. flight recorder: the newest records, in order; rewind ---------------------
for mode in global percpu; do
	bench_load mode=$mode flight=1 writers=4 rec_size=64 subbuf_size=4096 n_subbufs=4 duration_ms=300
	rm -f /tmp/dump1.* /tmp/dump2.*
	drain_start -r 64 -a -o /tmp/dump1.
	echo 1 >$P/run
	wait $dpid
	att=$(cat $P/res_attempted)
	# Per writer present: no record torn or out of order, no gap after
	# the first record read, and the last record read is the last written.
	res=$(awk -v att="$att" -v mode=$mode '
		BEGIN { n = split(att, a, ",") }
		$1 == "writer" { for (i = 2; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] }
			w = v["cpu"] + 1; seen[w] = 1
			if (v["backwards"] != 0) bad = bad " w" v["cpu"] ":backwards"
			if (v["gaps"] != v["last_seq"] + 1 - v["records"]) bad = bad " w" v["cpu"] ":gap"
			if (v["last_seq"] != a[w] - 1) bad = bad " w" v["cpu"] ":last=" v["last_seq"] "/" a[w] - 1
			recs += v["records"] }
		$1 == "drain" { for (i = 2; i <= NF; i++) { split($i, kv, "="); if (kv[1] == "bad" && kv[2] != 0) bad = bad " bad=" kv[2] } }
		END {	# A global buffer keeps the newest records of all writers:
			# an early finisher may be gone.  A per-CPU one keeps each.
			for (i = 1; i <= n; i++) if (!seen[i] && (mode == "percpu" || recs == 0)) bad = bad " w" i - 1 ":none"
			print recs + 0, (bad == "" ? "ok" : bad) }' /tmp/drain.txt)
	echo "# flight $mode: $res (records checked, verdict)"
	check "flight $mode: after stop, the newest records of each writer, in order, none torn" [ "${res#* }" = ok ]
	printf 1 >$B/rewind
	drain_start -r 64 -a -o /tmp/dump2.
	wait $dpid
	same=1
	for f in /tmp/dump1.*; do cmp -s "$f" "/tmp/dump2.${f#/tmp/dump1.}" || same=0; done
	check "flight $mode: after rewind, the same $(cat /tmp/dump1.* | wc -c) bytes are read again, file by file" [ $same = 1 ]
	rmmod relay_bench
done

# --- 6. permissions for the drainer ------------------------------------------------
bench_load
mount -o remount,mode=755 $D
msg=$(su -s /bin/sh nobody -c "/extra/relay-drain $B" 2>&1 >/dev/null)
check "relay-drain as user nobody fails, saying why" sh -c "echo '$msg' | grep -q 'Permission denied'"
mount -o remount,mode=700 $D
rmmod relay_bench

# --- 7. leaks ---------------------------------------------------------------------
if [ -w $D/kmemleak ]; then
	echo scan >$D/kmemleak
	sleep 1
	echo scan >$D/kmemleak
	leaks=$(grep -c unreferenced $D/kmemleak)
	ours=$(grep -cE 'relay|trace_setup|trace_test|relay_bench' $D/kmemleak)
	echo "# kmemleak (after KUnit's setup abuse and all of the above): $leaks unreferenced objects, $ours in relay/trace code"
	[ "$ours" = 0 ] || head -40 $D/kmemleak | sed 's/^/# /'
	check "kmemleak: no leak in relay or trace code" [ "$ours" = 0 ]
else
	echo "# kmemleak not in this kernel (make test-debug has it)"
fi

ktap_done "stress tests"
