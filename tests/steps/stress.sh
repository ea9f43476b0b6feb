#!/bin/bash
# step: 80 test debug kcsan rt
# Step: a boot (-smp 4) of stress and fault tests (tests/guest/stress.sh),
# with the KUnit suite at boot too, so that the debug kernel's kmemleak
# scan at the end also covers its setup-abuse cases.  Its benchmark-style
# runs print R and D lines, which the accounting checker verifies here
# (report.py check --json: the assertion reads its fields).
. "$(dirname "$0")/../lib/step.sh"
guest_boot stress --kunit --smp 4 -- stress
ktap stress "$OUT/stress.out" "$rc"
V=$OUT/stress-verdict.json
python3 "$REPORT" check --json "$OUT/stress.out" >"$V" 2>&1 || true
nruns=$(field "$V" runs.counted)
if [ "$(field "$V" verdict)" = ok ] && [ "$nruns" -ge 4 ] 2>/dev/null; then
	result ok "stress: the accounting of its $nruns runs closes ($(field "$V" records_checked) records checked)"
else
	mapfile -t lines < <(python3 "$REPORT" check "$OUT/stress.out" 2>&1 | grep -v ': ok,\|: figures,' | head -12)
	result fail "stress: the accounting of its runs closes ($nruns runs, verdict $(field "$V" verdict))" "${lines[@]}"
fi
