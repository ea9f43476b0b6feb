#!/bin/bash
# The parsers of make test's logs, on saved logs (tests/fixtures/): the
# kernel tree's own KTAP parser through tests/lib/ktap.py (a KUnit console
# at boot, a guest script's output, each passing and failing), and the
# KCSAN report counter tests/lib/kcsan.py.
set -eu -o pipefail
. "$(dirname "$0")/../lib/host.sh"
cd "$TOP"
F=tests/fixtures
KPY=$KSRC/tools/testing/kunit/kunit.py

expect() {	# expect DESC LOG SUITE PASS FAIL PLAN [FAILING_CASE]
	local desc=$1 log=$2 suite=$3 npass=$4 nfail=$5 plan=$6 case=${7:-} out p f pl
	out=$(python3 tests/lib/ktap.py "$KPY" "$log" $suite 2>&1) || true
	p=$(grep -c '^PASS \|^SKIP ' <<<"$out" || true)
	f=$(grep -c '^FAIL ' <<<"$out" || true)
	pl=$(sed -n 's/^plan \(-*[0-9]*\) results.*/\1/p' <<<"$out")
	if [ "$p" = "$npass" ] && [ "$f" = "$nfail" ] && [ "$pl" = "$plan" ] &&
	   { [ -z "$case" ] || grep -qx "FAIL $case" <<<"$out"; }; then
		ok "ktap ($KERNEL's kunit.py): $desc: $p passed, $f failed${case:+ ($case)}"
	else
		not_ok "ktap ($KERNEL's kunit.py): $desc" "want $npass/$nfail/plan $plan, got $p/$f/plan $pl" "$(tail -3 <<<"$out")"
	fi
}
expect "a passing guest log" $F/ktap/guest-pass.out "" 73 0 73
expect "a guest log with one failure" $F/ktap/guest-one-failure.out "" 72 1 73 "bad write 'startx' to state is refused, state unchanged"
expect "a KUnit console with one failure" $F/ktap/kunit-one-failure.log relay_trace 19 1 -1 flush_drops_nothing_test
grep -q '^# expected' <(python3 tests/lib/ktap.py "$KPY" $F/ktap/guest-one-failure.out) &&
	ok "ktap: a failure's diagnostic lines are shown under it" ||
	not_ok "ktap: a failure's diagnostic lines are shown under it"

out=$(python3 tests/lib/kcsan.py $F/kcsan "$KSRC" "$TOP")
# The last report of the fixture is planted in the trace layer's file.
if grep -q '^4 KCSAN reports' <<<"$out" && [ "$(grep -c '^ *OURS ' <<<"$out")" = 2 ] &&
   grep -q 'relay_buf_full (kernel/relay.c)' <<<"$out" &&
   grep -q '^ *OURS .*relay_trace_rewind (kernel/relay_trace.c)' <<<"$out"; then
	ok "kcsan: reports counted by file, relay's named: $(head -1 <<<"$out")"
else
	not_ok "kcsan: reports counted by file" "$out"
fi
