# shellcheck shell=bash
# Step: kernel splats on every console of this run.  (On the KCSAN kernel,
# KCSAN's own reports are the kcsan step's.)
pat='BUG:|WARNING:|Oops|general protection fault|Kernel panic|KASAN|UBSAN|possible recursive locking|possible circular locking|inconsistent lock state|sleeping function called from invalid context|INFO: task .* blocked|rcu_.*detected stall|Call Trace:'
splats=$(grep -anE "$pat" "$OUT/console.txt" | { [ "$KVARIANT" = kcsan ] && grep -v 'BUG: KCSAN' || cat; } | head -20 || true)
if [ "$KVARIANT" = kcsan ]; then
	# A KCSAN report prints a stack without "Call Trace:"; other splats still count.
	splats=$(grep -v 'Call Trace:' <<<"$splats" || true)
fi
if [ -n "$splats" ]; then
	mapfile -t lines <<<"$splats"
	result fail "console: no kernel splats ($KNAME kernel)" "${lines[@]}"
else
	result ok "console: no kernel splats ($KNAME kernel, $(grep -c . "$OUT/console.txt") console lines)"
fi
