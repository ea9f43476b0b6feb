#!/bin/bash
# step: 70 test
# Step: the benchmark's peers (bench-user/report/variants.py: an ftrace
# instance with trace-cmd, a BPF ringbuf, one shared and one per CPU,
# perf, and LTTng, live and as a snapshot, each recording relay_bench.ko's
# tracepoint), each run once
# (tests/peers.conf) through make bench's harness: every run's accounting
# closed by the system's own loss counters, its records verified by
# content.  Assertions read verdict.json's fields.  The test kernel only:
# the others have no vm/config/peers.fragment.
. "$(dirname "$0")/../lib/step.sh"
rc=0
MATRIX=tests/peers.conf RESULTS_DIR="$OUT/peers" BENCH_NO_HISTORY=1 BENCH_SEED=1 \
	bench-user/host/bench >"$OUT/peers-host.txt" 2>&1 || rc=$?
V=$OUT/peers/verdict.json
if [ "$rc" = 0 ] && [ "$(field "$V" verdict)" = ok ]; then
	result ok "peers: $(field "$V" records_checked) records checked in $(field "$V" runs_checked) runs, none failed"
else
	mapfile -t lines < <(field "$V" errors | head -5)
	result fail "peers: every run verified" "status $rc; verdict $(field "$V" verdict)" \
		"${lines[@]}" "$(grep -a '^  FAIL' "$OUT/peers/report.txt" 2>/dev/null | head -5)" "log: $OUT/peers-host.txt"
fi
while read -r peer need; do
	pv() { field "$V" "by_variant.$peer.$1"; }
	# A variant this kernel cannot have (variants.py's needs; vm/lttng
	# --why-not, vm/NEED in general): the report must say so, and why.
	if [ -n "$need" ] && ! why=$(vm/"$need" --why-not </dev/null); then
		if grep -q "^not measured: .*$need: " "$OUT/peers/report.txt" 2>/dev/null; then
			result ok "peers: $peer: not measured on the $KNAME kernel, and the report says why ($why)"
		else
			result fail "peers: $peer: the report says why it is not measured" \
				"no 'not measured: ... $need: ...' line in $OUT/peers/report.txt"
		fi
		continue
	fi
	if [ "$(pv runs)" -ge 1 ] 2>/dev/null && [ "$(pv failed)" = 0 ] && [ "$(pv records)" -gt 0 ] 2>/dev/null; then
		result ok "peers: $peer: $(pv runs) runs, accounting closed by its own counters, $(pv records) records verified by content"
	else
		result fail "peers: $peer: runs whose accounting closes, records verified" \
			"runs $(pv runs), failed $(pv failed), records $(pv records)" \
			"$(grep -a "^  FAIL.*/$peer/" "$OUT/peers/report.txt" 2>/dev/null | head -3)"
	fi
done < <(python3 -c 'import sys; sys.path.insert(0, "bench-user/report"); import variants
print("\n".join(f"{v.name} {v.needs}" for v in variants.peers()))')
