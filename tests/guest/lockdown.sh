#!/bin/sh
# Guest tests of the traces under the kernel lockdown (KTAP).  Runs in the
# test VM, as root, from /extra with trace_test.ko and relaytrace beside it.
#
#   integrity        the kernel was booted with lockdown=integrity (as
#                    distribution kernels booted with Secure Boot are):
#                    signed modules load, debugfs refuses what it refuses,
#                    and the traces' tracefs files work (the functional
#                    tests then run in the same boot)
#   confidentiality  raises the level at run time, with a trace set up
#                    before: its files are refused on open, a descriptor
#                    opened before still reads, a CPU cannot come online
#                    while the trace exists, and no trace can be set up
#                    afterwards.  The level cannot be lowered: run it last.
set -u
. /extra/ktap.sh
ALL_GROUPS="integrity confidentiality"

L=/sys/kernel/security/lockdown
D=/sys/kernel/tracing/relay
T=$D/relay_trace_test/t
P=/sys/module/trace_test/parameters
RT=/extra/relaytrace

level() { sed 's/.*\[\(.*\)\].*/\1/' $L; }
# opens FILE: 0 if it can be opened for reading, else the errno's text.
opens() { if (: <"$1") 2>/tmp/open.err; then echo 0; else sed 's/.*: //' /tmp/open.err; fi; }

integrity() {
	check "booted locked down: $L says integrity" eq "$(level)" integrity
	check "a signed module loads" insmod /extra/trace_test.ko
	# Why the files are not in debugfs any more: at this level debugfs
	# refuses every file that can be written (or mapped).
	check "debugfs refuses a writable file (kprobes/enabled)" \
		eq "$(opens /sys/kernel/debug/kprobes/enabled)" "Operation not permitted"
	check "the trace's state file opens" eq "$(opens $T/state)" 0
	check "the trace's data file opens" eq "$(opens $T/trace0)" 0
	check "relaytrace starts the trace" $RT start relay_trace_test/t
	echo 5 >$P/emit
	$RT stop relay_trace_test/t
	check "relaytrace dumps it through the mapping" \
		sh -c "$RT dump --mmap -s 9 -o /tmp/lk relay_trace_test/t | grep -q 'Total: .* 5 records'"
	rmmod trace_test
}

confidentiality() {
	cpu=$(($(grep -c ^processor /proc/cpuinfo) - 1))
	check "not locked down yet" eq "$(level)" none
	# A CPU offline when the trace is set up gets its buffer, and file,
	# only when it comes online.
	echo 0 >/sys/devices/system/cpu/cpu$cpu/online
	insmod /extra/trace_test.ko
	echo start >$T/state
	exec 3<$T/trace0
	check "raised to confidentiality" sh -c "echo confidentiality >$L && [ \$(sed 's/.*\\[\\(.*\\)\\].*/\\1/' $L) = confidentiality ]"
	check "a file made before: state refused on open" eq "$(opens $T/state)" "Operation not permitted"
	check "a file made before: trace0 refused on open" eq "$(opens $T/trace0)" "Operation not permitted"
	refused "relaytrace cannot read the state" $RT status relay_trace_test/t
	taskset -c 0 sh -c "echo 4 >$P/emit"
	check "the trace still takes records" eq "$(cat $P/written)" 4
	check "a descriptor opened before still reads" \
		eq "$(head -c 36 <&3 | tr -d '\0' | grep -c '^[0-9]')" 4
	refused "CPU $cpu cannot come online while a per-CPU trace exists" \
		sh -c "echo 1 >/sys/devices/system/cpu/cpu$cpu/online"
	check "... and the trace has no file for it" [ ! -e $T/trace$cpu ]
	dmesg | grep -q "cannot create trace$cpu: tracefs is locked down" &&
		ok "... the kernel log says why" || not_ok "... the kernel log says why"
	exec 3<&-
	check "the trace is cleaned up" rmmod trace_test
	check "CPU $cpu comes online once it is gone" sh -c "echo 1 >/sys/devices/system/cpu/cpu$cpu/online"
	refused "no trace can be set up now" insmod /extra/trace_test.ko
	dmesg | grep -q "the kernel is locked down (confidentiality), and tracefs makes no files" &&
		ok "... the kernel log says why" || not_ok "... the kernel log says why"
	check "... and nothing is left behind" [ ! -e $D/relay_trace_test ]
}

# shellcheck disable=SC2048 # the groups are words
for g in ${*:-$ALL_GROUPS}; do
	case " $ALL_GROUPS " in
	*" $g "*) "$g" ;;
	*) not_ok "unknown group '$g' (groups: $ALL_GROUPS)" ;;
	esac
done
ktap_done "lockdown tests"
