#!/bin/sh
# The read side under every call a reader can make (KTAP): relayfuzz
# (tests/guest/relayfuzz.c) against trace_test.ko's writers, on traces of
# each kind, then its flush stress.  On per-CPU traces every fifth batch
# of a writer begins with a write made inside a switch of its buffer
# (trace_test's nest), which must be refused and counted.  Runs in the
# test VM (-smp 4), as root, from /extra.
#
# Usage: sh /extra/fuzz.sh [SECS [SEED]]: each hostile run lasts SECS
# seconds (default 12), each stress run half of that; SEED (default 1)
# seeds the first, SEED + 1 the next, ...: a failing run is replayed by
# its seed, which its line prints.
set -u
. /extra/ktap.sh
SECS=${1:-12}
SEED=${2:-1}
T=/sys/kernel/tracing/relay/relay_trace_test/t
P=/sys/module/trace_test/parameters

# one DESC RELAYFUZZ-ARGS -- INSMOD-ARGS: a trace, its writers, relayfuzz.
one() {
	desc=$1
	shift
	args=
	while [ "$1" != -- ]; do
		args="$args $1"
		shift
	done
	shift
	if ! out=$(insmod /extra/trace_test.ko writers=1 "$@" 2>&1); then
		not_ok "$desc" "insmod trace_test.ko writers=1 $* failed: $out"
		return
	fi
	# shellcheck disable=SC2086 # args are words
	/extra/relayfuzz --seed "$SEED" $args $T >/tmp/fz.out 2>&1
	rc=$?
	sed 's/^/# /' /tmp/fz.out
	if [ $rc = 0 ]; then
		ok "$desc: $(sed -n 's/.* \([0-9]* records delivered whole\).*/\1/p' /tmp/fz.out), 0 violations (seed $SEED)"
	else
		not_ok "$desc (seed $SEED)" "relayfuzz exited $rc: $(grep 'first violation' /tmp/fz.out)"
	fi
	echo "# relay_flush() calls: $(cat $P/flushes)"
	rmmod trace_test || not_ok "$desc: rmmod trace_test"
	SEED=$((SEED + 1))
}

HALF=$(( (SECS + 1) / 2 ))
one "fuzz: per-CPU trace" --secs "$SECS" --procs 4 -- flags=8 subbuf_size=512 n_subbufs=4 nest=5
one "fuzz: per-CPU flight trace" --secs "$SECS" --procs 4 -- flags=10 subbuf_size=512 n_subbufs=4 nest=5
one "fuzz: global flight trace" --secs "$SECS" --procs 4 -- flags=11 subbuf_size=1024 n_subbufs=4
one "fuzz: global trace" --secs "$HALF" --procs 4 -- flags=9 subbuf_size=1024 n_subbufs=4
one "flush stress: per-CPU trace, relay_flush() every 100 us, stop and start" \
	--secs "$HALF" --stress -- flags=8 subbuf_size=512 n_subbufs=8 rate=5000 flush_us=100 nest=5
one "flush stress: global trace, relay_flush() every 100 us, stop and start" \
	--secs "$HALF" --stress -- flags=9 subbuf_size=1024 n_subbufs=8 rate=5000 flush_us=100
ktap_done "fuzz"
