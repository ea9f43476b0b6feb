#!/bin/sh
# Guest fault-injection tests (KTAP), on the debug kernel, with
# trace_test.ko and failnth in /extra.  Writing 1 to trace_test's
# try_setup sets up, starts, writes to and cleans up a trace in the
# writer's context.  failnth arms /proc/self/fail-nth with N around that
# one write(2) and nothing else: the Nth fault-injection point it passes
# fails.  failslab (slab allocations) and fail_page_alloc (page
# allocations) are armed for every GFP mask.  N goes up from 1 until an
# attempt passes with the fault not injected: by then every allocation on
# the path -- the sysfs write's own, then relay_trace_setup()'s and
# relay_trace_start()'s -- has failed once.
set -u
. /extra/ktap.sh
D=/sys/kernel/debug
P=/sys/module/trace_test/parameters
ROOT=/sys/kernel/tracing/relay/relay_trace_test

fatal() { not_ok "set-up: $1"; ktap_done "fault injection"; exit 1; }

for f in failslab fail_page_alloc; do
	[ -d $D/$f ] || fatal "$D/$f is missing (CONFIG_FAILSLAB, CONFIG_FAIL_PAGE_ALLOC, CONFIG_FAULT_INJECTION_DEBUG_FS)"
	echo N >$D/$f/ignore-gfp-wait || fatal "cannot arm $f for GFP_KERNEL"
	echo 0 >$D/$f/verbose
done
echo N >$D/fail_page_alloc/ignore-gfp-highmem
echo 0 >$D/fail_page_alloc/min-order
[ -w /proc/self/fail-nth ] || fatal "/proc/self/fail-nth is missing (CONFIG_FAULT_INJECTION)"
out=$(insmod /extra/trace_test.ko 2>&1) || fatal "insmod trace_test.ko failed: $out"
# Where a trace's directory is: the checks for one left behind look there.
check "fault injection: trace_test's trace is at $ROOT/t, where the checks look" [ -d $ROOT/t ]

n=0 injected=0 enomem=0 passed=0 other=0 stray=0 bad=
while :; do
	n=$((n + 1))
	# "LEFT ok" or "LEFT fail MESSAGE": LEFT is what fail-nth held after
	# the write, 0 if the fault was injected in it.
	last=$(/extra/failnth $n $P/try_setup 1 2>&1) ||
		fatal "failnth $n: $last"
	left=${last%% *}
	what=${last#* }
	case "$left" in
	''|*[!0-9]*) fatal "failnth $n printed '$last'" ;;
	esac
	if [ "$left" != 0 ]; then
		# The Nth point was not reached by the write: every one on its
		# path has failed once.
		[ "$what" = ok ] || bad="$bad; attempt $n, no fault: $what"
		break
	fi
	injected=$((injected + 1))
	case "$what" in
	ok) passed=$((passed + 1)) ;;
	*"Cannot allocate memory"*|*"Out of memory"*) enomem=$((enomem + 1)) ;;
	*) other=$((other + 1)); bad="$bad; fault $n: $what" ;;
	esac
	if [ -e $ROOT/fi ]; then
		stray=$((stray + 1))
		bad="$bad; fault $n left $ROOT/fi behind"
	fi
	[ $n -lt 5000 ] || { bad="$bad; still injecting after 5000 attempts"; break; }
done
echo "# fault injection: $injected faults injected one at a time into the path of relay_trace_setup() and relay_trace_start(), $((n - 1)) allocation points;" \
	"$enomem calls failed with ENOMEM, $passed survived the fault, $other failed otherwise, $stray left a directory behind;" \
	"try_setup outcomes: $(cat $P/fi_setup_null) relay_trace_setup() NULL, $(cat $P/fi_ok) complete"
check "fault injection: faults were injected into relay_trace_setup() ($(cat $P/fi_setup_null) of them made it return NULL)" \
	[ "$(cat $P/fi_setup_null)" -gt 0 ]
check "fault injection: every failed call returned ENOMEM, the documented error" [ $other = 0 ]
check "fault injection: no failure left a directory behind in tracefs" [ $stray = 0 ]
check "fault injection: a call with no fault still works" [ "$left" != 0 -a "${what:-}" = ok ]
fi_ok=$(cat $P/fi_ok)
check "fault injection: trace_test completed exactly the calls that reported success ($fi_ok = $passed + 1)" \
	[ "$fi_ok" = $((passed + 1)) ]
[ -z "$bad" ] || echo "# problems:$bad" | cut -c1-600
out=$(rmmod trace_test 2>&1)
check "fault injection: trace_test unloads, leaving no root directory" [ -z "$out" -a ! -e $ROOT ]

kmemleak_check "after fault injection" || not_ok "fault injection: kmemleak is not in this kernel"
ktap_done "fault injection"
