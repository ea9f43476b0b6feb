# shellcheck shell=bash
# Step: benchmark runs (tests/accounting.conf) in which buffers fill while a
# reader reads, every record checked by content and every writer's
# accounting closed (bench-user/report/accounting.py), as make bench does.
rc=0
MATRIX=tests/accounting.conf RESULTS_DIR="$OUT/bench" BENCH_NO_HISTORY=1 BENCH_SEED=1 \
	bench-user/host/bench >"$OUT/bench-host.txt" 2>&1 || rc=$?
console "$OUT/bench/console.log"
verdict=$(grep -a '^verdict:' "$OUT/bench/report.txt" 2>/dev/null || true)
if [ "$rc" = 0 ] && grep -q 'violations: non-flight 0 runs, flight read after stop 0 runs' <<<"$verdict"; then
	result ok "bench: ${verdict#verdict: }"
else
	result fail "bench: every run verified" "status $rc; $verdict" \
		"$(grep -a 'FAIL\|ERROR' "$OUT/bench/report.txt" 2>/dev/null | head -5)" "log: $OUT/bench-host.txt"
fi
