#!/bin/bash
# step: 50 test debug kcsan rt
# Step: benchmark runs (tests/accounting.conf) in which buffers fill while a
# reader reads, every record checked by content and every writer's
# accounting closed (bench-user/report/accounting.py), as make bench does;
# their bench.txt parses under the Go benchmark format's grammar, with the
# keys of its names and its units.  Assertions read verdict.json's fields.
. "$(dirname "$0")/../lib/step.sh"
rc=0
MATRIX=tests/accounting.conf RESULTS_DIR="$OUT/bench" BENCH_NO_HISTORY=1 BENCH_SEED=1 \
	bench-user/host/bench >"$OUT/bench-host.txt" 2>&1 || rc=$?
V=$OUT/bench/verdict.json
if [ "$rc" = 0 ] && [ "$(field "$V" verdict)" = ok ] && [ "$(field "$V" failed_runs.all)" = 0 ]; then
	result ok "bench: $(field "$V" records_checked) records checked in $(field "$V" runs_checked) runs, none failed, $(field "$V" runs_flight_live) of them flight runs read live"
else
	mapfile -t lines < <(field "$V" errors | head -5)
	result fail "bench: every run verified" "status $rc; verdict $(field "$V" verdict), $(field "$V" failed_runs.all) runs failed" \
		"${lines[@]}" "$(grep -a '^  FAIL' "$OUT/bench/report.txt" 2>/dev/null | head -5)" "log: $OUT/bench-host.txt"
fi
benchfmt_check "$OUT/bench/bench.txt" "$(field "$V" runs.counted)" "q mode flight writers size" "ns/ok ok/s drop-frac"
# (b): every bisection ended with a bracket -- converged, or at a limit --
# and no step ran unlimited (rate 0), all from verdict.json's data.
b() { field "$V" "bisections.$1"; }
if [ "$(b count)" = 2 ] && [ "$(b by_status.not_converged)" = 0 ] && [ "$(b zero_rate_steps)" = 0 ] &&
	[ "$(b all_verified)" = True ]; then
	result ok "bench: 2 bisections (b) in $(b steps) steps ended: $(b by_status.converged) converged, $(b by_status.writers_limit) at the writers' limit, $(b by_status.no_lossless) with no lossless rate; no step at rate 0"
else
	result fail "bench: 2 bisections (b), each converged or at a limit, no step at rate 0" \
		"count $(b count), not converged $(b by_status.not_converged), steps at rate 0 $(b zero_rate_steps), all verified $(b all_verified)"
fi
