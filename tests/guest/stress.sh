#!/bin/sh
# Guest stress and fault tests (KTAP), with relay_bench.ko, relaytrace,
# bench-verify, lib.sh, ctlfuzz and trace_test.ko in /extra.  Benchmark-style runs also
# print R and D lines (bench-user/report/runfmt.py), which the host
# checks with the accounting checker (report.py check), as make bench does.
# A set-up step that fails ends its group with one message, instead of
# failing every check after it.
#
# Usage: sh /extra/stress.sh [GROUP...]: the groups to run, in that order,
# repeats allowed (e.g. "slow slow slow"); by default all of them (ALL_GROUPS).
set -u
. /extra/ktap.sh
. /extra/lib.sh
TRACEFS=/sys/kernel/tracing
D=$TRACEFS/relay
idx=0
RUN=$$
ALL_GROUPS="fuzz concurrent hotplug slow flight live_flight permissions leaks"

# setup GROUP DESC COMMAND...: run a set-up step in this shell (it may
# start a reader whose pid the group needs); on failure report it once
# for the group and return 1 (the group then returns).
setup() {
	grp=$1 desc=$2
	shift 2
	if ! "$@" >/tmp/setup.out 2>&1; then
		not_ok "$grp: set-up: $desc" "failed: $* -- $(cat /tmp/setup.out)"
		return 1
	fi
}

# run_bench GROUP DRAIN -- PARAM=VALUE...: load, start the reader, run in
# the background (its pid in brun).  DRAIN is after (relaytrace dump once
# the writers stopped), live (relaytrace record while they write), or slow
# (relaytrace record started only once the trace's dropped file counts
# drops: the buffers overflow by construction, whatever the speeds).
run_bench() {
	grp=$1 drain=$2
	shift 2
	idx=$((idx + 1))
	setup "$grp" "insmod relay_bench $*" bench_load "$@" run_id=$((RUN + idx)) || return 1
	if [ "$drain" = live ]; then
		setup "$grp" "relaytrace record" rec_start || { bench_unload; return 1; }
	fi
	bench_run &
	brun=$!
	if [ "$drain" = slow ]; then
		while [ "$(cat $T/dropped)" = 0 ] && [ "$(cat $T/state)" != stopped ]; do usleep 1000; done
		# The trace may stop before relaytrace first looks at it, and a
		# stopped trace is waited for until it starts again: -w bounds
		# that wait (what is left is copied either way).
		setup "$grp" "relaytrace record, once $(cat $T/dropped) records were dropped" rec_start -w 20 ||
			{ wait $brun; bench_unload; return 1; }
	fi
}

# end_run DESC: wait for the run and its reader, verify what it read,
# print its R and D lines.
end_run() {
	wait $brun
	rrc=$?
	if [ "$drain" = after ]; then
		rec_dump >/tmp/rec.msg || echo "# $(cat /tmp/rec.msg)"
	else
		rec_wait >/tmp/rec.msg || echo "# $(cat /tmp/rec.msg)"
	fi
	verify "$(param run_id)" >/tmp/verify.msg || echo "# $(cat /tmp/verify.msg)"
	d=after
	[ "$drain" = after ] || d=live
	emit_run "$idx" q=s rep=1 drain=$d dcpu=- "$(param_line)"
	echo "# run $idx: $1"
	return $rrc
}

param_line() {
	echo "mode=$(param mode) flight=$(param flight | tr YN 10) writers=$(param writers)" \
		"rec_size=$(param rec_size) subbuf_size=$(param subbuf_size)" \
		"n_subbufs=$(param n_subbufs) duration_ms=$(param duration_ms)" \
		"rate=$(param rate) stop_on_drop=$(param stop_on_drop | tr YN 10) run_id=$(param run_id)"
}

# --- 1. control-file fuzzing ------------------------------------------------
fuzz() {
	F=$D/relay_trace_test/t
	setup fuzz "insmod trace_test flags=2" insmod /extra/trace_test.ko flags=2 || return
	setup fuzz "start the trace" sh -c "printf start >$F/state" || { rmmod trace_test; return; }
	/extra/ctlfuzz -p 4 -n 1500 $F >/tmp/fuzz.txt 2>&1
	rc=$?
	sed 's/^/# /' /tmp/fuzz.txt | tail -5
	check "fuzz: 6000 hostile writes from 4 processes: to state refused, to rewind rewound" [ $rc = 0 ]
	check "fuzz: state still reads running" [ "$(cat $F/state)" = running ]
	printf stop >$F/state
	check "fuzz: a valid stop still works afterwards" [ "$(cat $F/state)" = stopped ]
	rmmod trace_test
}

# --- 2. concurrent control while writers and the drainer run ----------------
ctl() {
	i=0
	while [ -e /tmp/ctl.run ]; do
		printf start >$T/state 2>/dev/null
		printf 1 >$T/rewind 2>/dev/null
		cat $T/state $T/nr_sub $T/sub_size $T/refused >/dev/null 2>&1
		printf stop >$T/state 2>/dev/null
		i=$((i + 1))
	done
	echo $i >/tmp/ctl.$1
}

concurrent() {
	run_bench concurrent live mode=percpu flight=1 writers=4 rec_size=64 duration_ms=4000 || return
	touch /tmp/ctl.run
	ctl a &
	c1=$!
	ctl b &
	c2=$!
	wait $brun
	rrc=$?
	rm -f /tmp/ctl.run
	wait $c1 $c2
	iters=$(( $(cat /tmp/ctl.a) + $(cat /tmp/ctl.b) ))
	# relaytrace ended when it first saw the trace stopped; or ends now.
	kill $rpid 2>/dev/null
	wait $rpid 2>/dev/null
	rpid=
	echo "# concurrent control: $iters start/rewind/read/stop iterations from 2 processes"
	check "concurrent control: the run completes ($iters control iterations)" [ $rrc = 0 -a $iters -gt 0 ]
	# Rewound, the flight buffers give again all they hold, whatever
	# relaytrace had consumed.
	printf 1 >$T/rewind 2>/dev/null
	printf start >$T/state 2>/dev/null
	exec 3<$T/state 4<$T/trace0
	bench_unload
	check "cleanup with trace0 and state held open: module unloaded" [ ! -e $D/relay_bench ]
	check "cleanup with files held open: trace0 reads the rest of its buffer (tracefs keeps it)" \
		sh -c '[ $(cat <&4 | wc -c) -gt 0 ]'
	refused "cleanup with files held open: reading state fails" sh -c 'cat <&3 >/dev/null'
	exec 3<&- 4<&-
}

# --- 3. CPU hotplug during a per-CPU run ---------------------------------
hotplug() {
	if [ ! -w /sys/devices/system/cpu/cpu3/online ]; then
		not_ok "hotplug: set-up: CPU 3 cannot go offline here (no /sys/devices/system/cpu/cpu3/online)"
		return
	fi
	run_bench hotplug live mode=percpu flight=0 writers=2 rec_size=64 subbuf_size=4096 \
		n_subbufs=4 duration_ms=2000 || return
	cycles=0
	for c in 1 2 3; do
		usleep 200000
		echo 0 >/sys/devices/system/cpu/cpu3/online && cycles=$((cycles + 1))
		usleep 200000
		echo 1 >/sys/devices/system/cpu/cpu3/online
	done
	end_run "per-CPU, CPU 3 offlined and onlined $cycles times"
	rrc=$?
	check "hotplug: CPU 3 went offline and online $cycles times during the run" [ $cycles = 3 -a $rrc = 0 ]
	check "hotplug: all CPUs online again" [ "$(cat /sys/devices/system/cpu/online)" = 0-3 ]
	bench_unload
}

# --- 4. a reader too late on purpose ----------------------------------------
# It starts only once the trace's dropped file counts drops, so the buffers
# overflow by construction, not because the host is fast enough: each
# writer has the module's longest run (4 s) to write 128 records of 64
# bytes, a buffer of 2 sub-buffers of 4 KiB (the slowest seen, a 6.12-rt
# global trace on a host building another kernel, wrote 64 in 500 ms), at
# 2000 a second at most, which bounds what the reader then copies.
slow() {
	for mode in percpu global; do
		run_bench "slow $mode" slow mode=$mode flight=0 writers=4 rec_size=64 subbuf_size=4096 \
			n_subbufs=2 duration_ms=4000 rate=2000 || continue
		end_run "$mode non-flight, late reader (starts once records were dropped)"
		check "late reader, $mode: records were dropped (the reader lagged)" [ "$(param res_dropped)" -gt 0 ]
		bench_unload
	done
}

# --- 5. flight recorder read after stop: the newest records; rewind --------
flight() {
	for mode in global percpu; do
		rm -rf /tmp/dump1 /tmp/dump2
		run_bench "flight $mode" after mode=$mode flight=1 writers=4 rec_size=64 subbuf_size=4096 \
			n_subbufs=4 duration_ms=300 || continue
		end_run "$mode flight, read after stop (strict: the host checks each writer's newest records)"
		# Rewind twice, keeping what is read each time: the same bytes.
		for k in 1 2; do
			setup "flight $mode" "relaytrace dump --rewind $k" \
				/extra/relaytrace dump --rewind -o /tmp/dump$k $N || break
		done
		same=1
		for f in /tmp/dump1/trace*; do cmp -s "$f" "/tmp/dump2/${f#/tmp/dump1/}" || same=0; done
		bytes=$(cat /tmp/dump1/trace* | wc -c)
		check "flight $mode: rewound twice, the same $bytes bytes are read again, file by file" [ $same = 1 -a $bytes -gt 0 ]
		bench_unload
	done
}

# --- 6. flight recorder read while the writers overwrite it ----------------
live_flight() {
	run_bench "live flight" live mode=percpu flight=1 writers=3 rec_size=64 subbuf_size=4096 \
		n_subbufs=4 duration_ms=500 || return
	end_run "per-CPU flight read live (figures: what a reader of an overwriting buffer sees)"
	check "live flight: the run completes" [ $? = 0 ]
	bench_unload
}

# --- 7. permissions for the reader --------------------------------------------
permissions() {
	setup permissions "insmod relay_bench" bench_load || return
	mount -o remount,mode=755 $TRACEFS
	su -s /bin/sh nobody -c "/extra/relaytrace record -w 1 -o /tmp/nobody $N" >/dev/null 2>/tmp/nobody.err
	check "relaytrace as user nobody fails, saying why" grep -q 'needs root' /tmp/nobody.err
	mount -o remount,mode=700 $TRACEFS
	bench_unload
}

# --- 8. leaks -----------------------------------------------------------------
leaks() {
	kmemleak_check "after KUnit's setup abuse and all of the above" || true
}

[ $# -gt 0 ] || set -- $ALL_GROUPS
for g in "$@"; do
	case " $ALL_GROUPS " in
	*" $g "*) "$g" ;;
	*) not_ok "unknown group '$g' (groups: $ALL_GROUPS)" ;;
	esac
done
ktap_done "stress tests"
