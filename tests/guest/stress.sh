#!/bin/sh
# Guest stress and fault tests (KTAP), with relay_bench.ko, relay-drain,
# lib.sh, ctlfuzz and trace_test.ko in /extra.  Benchmark-style runs also
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
D=/sys/kernel/debug
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

# run_bench GROUP DRAIN_ARGS -- PARAM=VALUE...: load, drain, run, emit.
# DRAIN is after (read once stopped), live, or slow (nothing read until
# records were dropped, then live with 3 ms pauses).
run_bench() {
	grp=$1 drain=$2
	shift 2
	idx=$((idx + 1))
	setup "$grp" "insmod relay_bench $*" bench_load "$@" run_id=$((RUN + idx)) || return 1
	case "$drain" in
	after) setup "$grp" "relay-drain -a" drain_start -a || { bench_unload; return 1; } ;;
	live) setup "$grp" "relay-drain" drain_start || { bench_unload; return 1; } ;;
	slow) setup "$grp" "relay-drain -w -s 3000" drain_start -w -s 3000 || { bench_unload; return 1; } ;;
	esac
	bench_run &
	rpid=$!
}

# end_run DESC: wait for the run and its reader, print its R and D lines.
end_run() {
	wait $rpid
	rrc=$?
	drain_wait >/tmp/drain.msg || echo "# $(cat /tmp/drain.msg)"
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
	wait $rpid
	rrc=$?
	rm -f /tmp/ctl.run
	wait $c1 $c2
	iters=$(( $(cat /tmp/ctl.a) + $(cat /tmp/ctl.b) ))
	kill $dpid 2>/dev/null
	wait $dpid 2>/dev/null
	dpid=
	echo "# concurrent control: $iters start/rewind/read/stop iterations from 2 processes"
	check "concurrent control: the run completes ($iters control iterations)" [ $rrc = 0 -a $iters -gt 0 ]
	printf start >$T/state 2>/dev/null
	exec 3<$T/state 4<$T/trace0
	bench_unload
	check "cleanup with trace0 and state held open: module unloaded" [ ! -e $D/relay_bench ]
	refused "cleanup with files held open: reading trace0 fails" sh -c 'cat <&4 >/dev/null'
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

# --- 4. a drainer too slow on purpose --------------------------------------
# It reads nothing until the trace's dropped file counts drops (-w), so the
# buffers overflow by construction, not because the host is fast enough.
slow() {
	for mode in percpu global; do
		run_bench "slow $mode" slow mode=$mode flight=0 writers=4 rec_size=16 subbuf_size=4096 \
			n_subbufs=4 duration_ms=500 || continue
		end_run "$mode non-flight, slow drainer (reads once records were dropped, 3 ms pause after each read)"
		check "slow drainer, $mode: records were dropped (the drainer lagged)" [ "$(param res_dropped)" -gt 0 ]
		bench_unload
	done
}

# --- 5. flight recorder read after stop: the newest records; rewind --------
flight() {
	for mode in global percpu; do
		rm -f /tmp/dump1.* /tmp/dump2.*
		run_bench "flight $mode" after mode=$mode flight=1 writers=4 rec_size=64 subbuf_size=4096 \
			n_subbufs=4 duration_ms=300 || continue
		end_run "$mode flight, read after stop (strict: the host checks each writer's newest records)"
		# Rewind twice, keeping what is read each time: the same bytes.
		for k in 1 2; do
			setup "flight $mode" "rewind $k" sh -c "printf 1 >$T/rewind" || break
			setup "flight $mode" "relay-drain -a -o /tmp/dump$k." drain_start -a -o /tmp/dump$k. || break
			drain_wait >/dev/null
		done
		same=1
		for f in /tmp/dump1.*; do cmp -s "$f" "/tmp/dump2.${f#/tmp/dump1.}" || same=0; done
		bytes=$(cat /tmp/dump1.* | wc -c)
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

# --- 7. permissions for the drainer ------------------------------------------
permissions() {
	setup permissions "insmod relay_bench" bench_load || return
	mount -o remount,mode=755 $D
	su -s /bin/sh nobody -c "/extra/relay-drain -i 1 $T" >/dev/null 2>/tmp/nobody.err
	check "relay-drain as user nobody fails, saying why" grep -q 'Permission denied' /tmp/nobody.err
	mount -o remount,mode=700 $D
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
