#!/bin/bash
# step: 60 test
# Step: the read side's promise under the readers users have, through make
# bench's harness (tests/read/*.conf), each record checked by content:
# scenario 1, a global flight trace read live by relaytrace (read(2) and
# the mapping), where nothing torn, repeated, out of order or unwritten
# may be read; scenario 2, a per-CPU buffer kept full by a writer while a
# plain reader on another CPU reads it with read(2) of 1 MiB and of random
# counts, where every record must be read once.  20 runs each (scenario
# 1: 20 of each reader; 2: 10 of each); the count of bad records must be 0.  Assertions read verdict.json's fields.
. "$(dirname "$0")/../lib/step.sh"
for s in 1 2; do
	rc=0
	MATRIX=tests/read/scenario$s.conf RESULTS_DIR="$OUT/read$s" BENCH_NO_HISTORY=1 BENCH_SEED=$s \
		bench-user/host/bench >"$OUT/read$s-host.txt" 2>&1 || rc=$?
	V=$OUT/read$s/verdict.json
	bad=$(python3 -c 'import json, sys
v = json.load(open(sys.argv[1]))
print(sum(x["count"] or 1 for r in v["by_run"] for x in r["violations"]))' "$V" 2>/dev/null || echo "?")
	runs=$(field "$V" runs_checked)
	if [ "$rc" = 0 ] && [ "$(field "$V" verdict)" = ok ] && [ "$bad" = 0 ] && [ "$runs" -ge 20 ] 2>/dev/null; then
		result ok "read, scenario $s: $runs runs, $(field "$V" records_checked) records checked by content, 0 bad"
	else
		mapfile -t lines < <(field "$V" errors | head -5)
		result fail "read, scenario $s: 20 runs or more, 0 bad records" \
			"status $rc; verdict $(field "$V" verdict), $runs runs, $bad bad records" "${lines[@]}" \
			"$(grep -a '^  FAIL' "$OUT/read$s/report.txt" 2>/dev/null | head -5)" "log: $OUT/read$s-host.txt"
	fi
done
