#!/bin/bash
# step: 99 test debug kcsan rt
# Step: kernel splats on every console of this run (the boots of the steps
# before it, their logs in OUT).  (On the KCSAN kernel, KCSAN's own
# reports are the kcsan step's.)
. "$(dirname "$0")/../lib/step.sh"
mapfile -t logs < <(consoles)
[ ${#logs[@]} -gt 0 ] || { result fail "console: no kernel splats ($KNAME kernel)" "no console in $OUT: run the steps that boot first"; exit 0; }
sed -e 's/^\[ *[0-9.]*\] //' -e 's/\r$//' "${logs[@]}" >"$OUT/console.txt"
pat='BUG:|WARNING:|Oops|general protection fault|Kernel panic|KASAN|UBSAN|possible recursive locking|possible circular locking|inconsistent lock state|sleeping function called from invalid context|INFO: task .* blocked|rcu_.*detected stall|Call Trace:'
splats=$(grep -anE "$pat" "$OUT/console.txt" | { [ "$KVARIANT" = kcsan ] && grep -v 'BUG: KCSAN' || cat; } | head -20 || true)
if [ "$KVARIANT" = kcsan ]; then
	# A KCSAN report prints a stack without "Call Trace:"; other splats still count.
	splats=$(grep -v 'Call Trace:' <<<"$splats" || true)
fi
if [ -n "$splats" ]; then
	mapfile -t lines <<<"$splats"
	# The first splat as the console printed it -- which CPU, what it ran,
	# its stack -- so that a log cut to its tail still shows the cause.
	first=${lines[0]%%:*}
	mapfile -t ctx < <(sed -n "${first},$((first + 29))p" "$OUT/console.txt" | sed 's/^/  | /')
	result fail "console: no kernel splats ($KNAME kernel)" "${lines[@]}" \
		"the first, console.txt lines $first-$((first + ${#ctx[@]} - 1)):" "${ctx[@]}"
else
	result ok "console: no kernel splats ($KNAME kernel, ${#logs[@]} consoles, $(grep -c . "$OUT/console.txt") lines)"
fi
