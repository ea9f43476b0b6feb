# shellcheck shell=bash
# Step: a boot (-smp 4) of stress and fault tests (tests/guest/stress.sh),
# with the KUnit suite at boot too, so that the debug kernel's kmemleak
# scan at the end also covers its setup-abuse cases.  Its benchmark-style
# runs print R and D lines, which the accounting checker verifies here.
vm_test stress --kunit --smp 4 \
	--add tests/module/trace_test.ko --add bench-module/relay_bench.ko \
	--add bench-user/guest/relay-drain --add bench-user/guest/lib.sh \
	--add tests/guest/ctlfuzz --add tests/guest/stress.sh --add tests/guest/ktap.sh \
	-- sh /extra/stress.sh
ktap stress "$OUT/stress.out" "$rc"
checked=$(python3 bench-user/report/report.py check "$OUT/stress.out" 2>&1) && crc=0 || crc=$?
nruns=$(grep -c '^run ' <<<"$checked" || true)
if [ "$crc" = 0 ] && [ "$nruns" -ge 4 ]; then
	result ok "stress: the accounting of its $nruns runs closes ($(grep -o '[0-9]* records checked' <<<"$checked" |
		awk '{ s += $1 } END { print s + 0 }') records checked)"
else
	mapfile -t lines < <(grep -v ': ok,\|: figures,' <<<"$checked" | head -12)
	result fail "stress: the accounting of its runs closes ($nruns runs)" "${lines[@]}"
fi
