# shellcheck shell=bash
# Step: the deterministic cost (make bench-cost) twice: two -icount boots
# give the same figures, they hold against the committed baseline, the
# gate fails on a baseline shifted by one instruction either way (naming
# the kind, size and both figures), and make compare reads the folders.
BASE=bench-user/baselines/cost-$KERNEL.csv
for i in 1 2; do
	rc=0
	RESULTS_DIR="$OUT/cost$i" BENCH_NO_HISTORY=1 bench-user/host/bench-cost >"$OUT/cost$i.log" 2>&1 || rc=$?
	console "$OUT/cost$i/console.log"
done
# Identical, to the rounding of a 100,000-write total (a 1 ns difference
# in a total moves a figure by 0.01): at most 0.02 instruction per write.
same=$(python3 - "$OUT/cost1/cost.csv" "$OUT/cost2/cost.csv" <<'PY' 2>&1
import csv, sys
a, b = ({(r["kind"], r["size"]): (float(r["total"]), float(r["overhead"])) for r in csv.DictReader(open(p))}
        for p in sys.argv[1:])
if a.keys() != b.keys() or not a:
    print(f"different figures: {sorted(a.keys() ^ b.keys())[:4]}")
    sys.exit(1)
worst = max((abs(x - y), k) for k in a for x, y in zip(a[k], b[k]))
print(f"{len(a)} kind/size pairs, the largest difference {worst[0]:.2f} instruction per write ({worst[1][0]} {worst[1][1]}B)")
sys.exit(worst[0] > 0.02)
PY
) && crc=0 || crc=$?
if [ "$crc" = 0 ]; then
	result ok "cost: two -icount boots give identical figures: $same"
else
	result fail "cost: two -icount boots give identical figures (to 0.02)" "$same" "logs: $OUT/cost1.log $OUT/cost2.log"
fi
if [ "$rc" = 0 ]; then
	result ok "cost: every trace kind within 0.5 instruction of $BASE"
else
	mapfile -t lines < <(grep -a 'REGRESSION\|baseline\|: baseline' "$OUT/cost2/report.txt" 2>/dev/null | head -8)
	result fail "cost: every trace kind within 0.5 instruction of $BASE (status $rc)" "${lines[@]}" "log: $OUT/cost2.log"
fi
grep -a '^  MET\|^  MISSED' "$OUT/cost2/report.txt" 2>/dev/null | sed 's/^  /        /' || true
# The gate must catch a change of one instruction either way: a baseline
# one instruction dearer (the code got cheaper) and one cheaper.
for d in +1 -1; do
	want=$([ "$d" = +1 ] && echo -1.00 || echo +1.00)
	awk -F, -v OFS=, -v d="$d" '$1 == "trace_write" && $2 == 64 { $4 = sprintf("%.2f", $4 + d) } { print }' \
		"$BASE" >"$OUT/baseline$d.csv"
	grc=0
	python3 bench-user/report/report.py cost "$OUT/cost2" --baseline "$OUT/baseline$d.csv" --no-history \
		>/dev/null 2>&1 || grc=$?
	if [ "$grc" = 1 ] && grep -q "^REGRESSION: trace_write 64B: overhead .* -> .* instructions per write ($want)" "$OUT/cost2/report.txt"; then
		result ok "cost: a trace_write baseline shifted by $d instruction fails the gate, naming kind, size and figures"
	else
		result fail "cost: a trace_write baseline shifted by $d instruction fails the gate" "status $grc" \
			"$(grep -a REGRESSION "$OUT/cost2/report.txt" | head -3)"
	fi
done
# ... and a baseline from other conditions is named as such, not as a regression.
sed 's/^# qemu: .*/# qemu: QEMU emulator version 0.0.1/' "$BASE" >"$OUT/baseline-other.csv"
grc=0
python3 bench-user/report/report.py cost "$OUT/cost2" --baseline "$OUT/baseline-other.csv" --no-history >/dev/null 2>&1 || grc=$?
if [ "$grc" = 3 ] && grep -q '^baseline from other conditions: run `make bench-baseline`' "$OUT/cost2/report.txt" &&
   ! grep -q REGRESSION "$OUT/cost2/report.txt"; then
	result ok "cost: a baseline from another QEMU asks for make bench-baseline, not a regression"
else
	result fail "cost: a baseline from another QEMU asks for make bench-baseline" "status $grc"
fi
# Leave cost2's report as the real baseline made it.
python3 bench-user/report/report.py cost "$OUT/cost2" --baseline "$BASE" --no-history >/dev/null 2>&1 || true
out=$(python3 bench-user/report/report.py compare "$OUT/cost1" "$OUT/cost2" 2>&1) || true
if grep -q '^trace_write 64B .* same$' <<<"$out" && grep -q '^0 of [0-9]* figures changed' <<<"$out"; then
	result ok "compare: two bench-cost folders, figure by figure"
else
	result fail "compare: two bench-cost folders, figure by figure" "$(head -8 <<<"$out")"
fi
