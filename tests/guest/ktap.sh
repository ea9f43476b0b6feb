# shellcheck shell=sh
# KTAP helpers for the guest test scripts: source it, then call ok, not_ok,
# check, refused and eq, and end with ktap_done NAME.
ktap_n=0
ktap_failed=0
echo "TAP version 13"

ok() { ktap_n=$((ktap_n + 1)); echo "ok $ktap_n - $1"; }
not_ok() { ktap_n=$((ktap_n + 1)); ktap_failed=$((ktap_failed + 1)); echo "not ok $ktap_n - $1"; shift; for l in "$@"; do echo "# $l"; done; }
# check DESC COMMAND...: passes if COMMAND succeeds.
check() { desc=$1; shift; if "$@"; then ok "$desc"; else not_ok "$desc" "failed: $*"; fi; }
# refused DESC COMMAND...: passes if COMMAND fails.
refused() { desc=$1; shift; if "$@"; then not_ok "$desc" "succeeded: $*"; else ok "$desc"; fi; }
eq() { [ "$1" = "$2" ] || { echo "# expected '$2', got '$1'"; return 1; }; }

# ktap_done NAME: print the plan and a summary; the status is the verdict.
ktap_done() {
	echo "1..$ktap_n"
	echo "# $1: $ktap_n run, $ktap_failed failed"
	[ $ktap_failed = 0 ]
}

# kmemleak_check WHEN: scan for leaks (twice, as kmemleak wants, a second
# apart) and check that none of the objects it reports was allocated by
# relay, the trace layer, its test and bench modules or the file systems
# they create files in (KMEMLEAK_OURS); print the counts as "# kmemleak
# WHEN: ...".  Not a check where kmemleak is not in the kernel (only make
# test-debug has it): says so, and returns 1.
KMEMLEAK_OURS='relay|relay_trace_setup|trace_test|relay_bench|debugfs|tracefs'
kmemleak_check() {
	kml=/sys/kernel/debug/kmemleak
	[ -w $kml ] || { echo "# kmemleak not in this kernel (make test-debug has it)"; return 1; }
	echo scan >$kml
	sleep 1
	echo scan >$kml
	ours=$(grep -cE "$KMEMLEAK_OURS" $kml)
	echo "# kmemleak $1: $(grep -c unreferenced $kml) unreferenced objects, $ours in relay/trace code"
	[ "$ours" = 0 ] || head -60 $kml | sed 's/^/# /'
	check "kmemleak: no leak in relay or trace code ($1)" [ "$ours" = 0 ]
}
