#!/bin/bash
# step: 90 test
# Step: the deterministic cost (make bench-cost) twice: two -icount boots
# give the same figures (report.py same-cost), they hold against the
# committed baseline, LTTng's kind is timed where vm/lttng builds it (its
# writes all counted by cost.sh) and said why not elsewhere, the gate
# fails on a baseline shifted by one instruction either way (naming the kind, size and both figures), a
# baseline from other conditions is named as such, make compare reads the
# folders, and bench.txt parses as the Go benchmark format.  Every
# assertion reads a field of a verdict (verdict.json, --json).
. "$(dirname "$0")/../lib/step.sh"
BASE=bench-user/baselines/cost-$KERNEL.csv
for i in 1 2; do
	rc=0
	RESULTS_DIR="$OUT/cost$i" BENCH_NO_HISTORY=1 bench-user/host/bench-cost >"$OUT/cost$i-host.txt" 2>&1 || rc=$?
done
S=$OUT/same-cost.json
python3 "$REPORT" same-cost --json "$OUT/cost1" "$OUT/cost2" >"$S" 2>&1 || true
if [ "$(field "$S" same)" = True ]; then
	result ok "cost: two -icount boots give identical figures: $(field "$S" pairs) kind/size pairs, the largest difference $(field "$S" largest) instruction per write ($(field "$S" where))"
else
	result fail "cost: two -icount boots give identical figures (to 0.02)" "$(field "$S" why) $(head -3 "$S")" \
		"logs: $OUT/cost1-host.txt $OUT/cost2-host.txt"
fi
V=$OUT/cost2/verdict.json
if [ "$rc" = 0 ] && [ "$(field "$V" gate)" = pass ]; then
	result ok "cost: every trace kind within $(field "$V" gate_instructions) instruction of $BASE"
else
	mapfile -t lines < <(grep -a 'REGRESSION\|baseline' "$OUT/cost2/report.txt" 2>/dev/null | head -8)
	result fail "cost: every trace kind within 0.5 instruction of $BASE (status $rc, gate $(field "$V" gate))" \
		"${lines[@]}" "log: $OUT/cost2-host.txt"
fi
grep -a '^  MET\|^  MISSED' "$OUT/cost2/report.txt" 2>/dev/null | sed 's/^  /        /' || true
# LTTng's kind: timed, every write recorded, where vm/lttng can build it;
# elsewhere not measured, and the report says why.
lt_why=
lttng_can || lt_why=$LTTNG_WHY
nm=$(field "$OUT/cost2/meta.json" not_measured)
lt_rows=$(grep -c '^lttng,' "$OUT/cost2/cost.csv" 2>/dev/null) || true
if [ -z "$lt_why" ] && [ "$lt_rows" -gt 0 ] 2>/dev/null && [ -z "$nm" ]; then
	result ok "cost: lttng timed, $lt_rows sizes: $(sed -n 's/^lttng: \(.* as many as written.*\)/\1/p' "$OUT/cost2/guest.out")"
elif [ -n "$lt_why" ] && [ "${lt_rows:-0}" = 0 ] && [ "$nm" = "lttng: $lt_why" ] &&
     grep -qF "not measured: lttng: $lt_why" "$OUT/cost2/report.txt"; then
	result ok "cost: lttng not measured on $KNAME, and the report says why: ${lt_why:0:90}..."
else
	result fail "cost: lttng timed where vm/lttng builds it, else said why not" \
		"vm/lttng --why-not: ${lt_why:-(it can)}" "not_measured: $nm; lttng rows in cost.csv: ${lt_rows:-0}"
fi
# The gate must catch a change of one instruction either way: a baseline
# one instruction dearer (the code got cheaper) and one cheaper.
for d in +1 -1; do
	want=$([ "$d" = +1 ] && echo -1.0 || echo 1.0)
	awk -F, -v OFS=, -v d="$d" '$1 == "relay_trace_write" && $2 == 64 { $4 = sprintf("%.2f", $4 + d) } { print }' \
		"$BASE" >"$OUT/baseline$d.csv"
	grc=0
	python3 "$REPORT" cost "$OUT/cost2" --baseline "$OUT/baseline$d.csv" --no-history >/dev/null 2>&1 || grc=$?
	got="$(field "$V" changes.0.kind) $(field "$V" changes.0.size) $(field "$V" changes.0.change)"
	if [ "$grc" = 1 ] && [ "$(field "$V" gate)" = changed ] && [ "$got" = "relay_trace_write 64 $want" ] &&
	   [ "$(field "$V" changes.1.kind)" = "?" ]; then
		result ok "cost: a relay_trace_write baseline shifted by $d instruction fails the gate, naming kind, size and figures ($got: $(field "$V" changes.0.baseline) -> $(field "$V" changes.0.now))"
	else
		result fail "cost: a relay_trace_write baseline shifted by $d instruction fails the gate" \
			"status $grc, gate $(field "$V" gate), first change: $got" "$(grep -a REGRESSION "$OUT/cost2/report.txt" | head -3)"
	fi
done
# ... and a baseline from other conditions is named as such, not as a regression.
sed 's/^# qemu: .*/# qemu: QEMU emulator version 0.0.1/' "$BASE" >"$OUT/baseline-other.csv"
grc=0
python3 "$REPORT" cost "$OUT/cost2" --baseline "$OUT/baseline-other.csv" --no-history >/dev/null 2>&1 || grc=$?
if [ "$grc" = 3 ] && [ "$(field "$V" gate)" = other-conditions ] &&
   [ "$(field "$V" conditions_differ.0.condition) $(field "$V" conditions_differ.0.baseline)" = "qemu QEMU emulator version 0.0.1" ] &&
   [ "$(field "$V" changes)" = "" ]; then
	result ok "cost: a baseline from another QEMU is named as other conditions (make bench-baseline), not a regression"
else
	result fail "cost: a baseline from another QEMU asks for make bench-baseline" "status $grc, gate $(field "$V" gate)"
fi
# Leave cost2's report and verdict as the real baseline made them.
python3 "$REPORT" cost "$OUT/cost2" --baseline "$BASE" --no-history >/dev/null 2>&1 || true
C=$OUT/compare-cost.json
python3 "$REPORT" compare --json "$OUT/cost1" "$OUT/cost2" >"$C" 2>&1 || true
if [ "$(field "$C" kind)" = cost ] && [ "$(field "$C" called)" = 0 ] && [ "$(field "$C" total)" -gt 0 ] 2>/dev/null; then
	result ok "compare: two bench-cost folders, figure by figure: 0 of $(field "$C" total) changed"
else
	result fail "compare: two bench-cost folders, figure by figure" "$(head -8 "$C")"
fi
benchfmt_check "$OUT/cost2/bench.txt" "$(grep -c '^[a-z_]*,[0-9]' "$OUT/cost2/cost.csv")" "kind size" \
	"instructions/write overhead-instructions/write"
[ "$(field "$OUT/cost2-benchfmt.json" units.instructions/write.assume)" = exact ] &&
	result ok "benchfmt: bench-cost's figures are marked exact (assume=exact): benchstat reads them without a test" ||
	result fail "benchfmt: bench-cost's unit is marked assume=exact"
