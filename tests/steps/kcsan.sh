#!/bin/bash
# step: 92 kcsan
# Step (KCSAN kernel): the data races KCSAN reported in every boot of this
# run, by file.  None may come from relay or the trace layer -- and KCSAN
# must have been on in every boot, or none would be reported anyway.
. "$(dirname "$0")/../lib/step.sh"
mapfile -t logs < <(consoles)
boots=${#logs[@]}
on=$(grep -l 'kcsan: enabled' "${logs[@]}" /dev/null 2>/dev/null | wc -l || true)
[ "$boots" -gt 0 ] && [ "$on" = "$boots" ] &&
	result ok "kcsan: KCSAN was on in all $boots boots of this run" ||
	result fail "kcsan: KCSAN was on in every boot" "$on of $boots consoles say 'kcsan: enabled'"
# Strict mode and weak-memory modelling, as the fragment asks (a fragment
# line that does not stick already fails the build): checked in the
# kernel that booted.
missing=$(for o in CONFIG_KCSAN_STRICT CONFIG_KCSAN_WEAK_MEMORY; do grep -qx "$o=y" "$KOBJ/.config" || echo "$o"; done)
[ -z "$missing" ] &&
	result ok "kcsan: strict mode and weak-memory modelling on (CONFIG_KCSAN_STRICT, CONFIG_KCSAN_WEAK_MEMORY)" ||
	result fail "kcsan: strict mode and weak-memory modelling on" "not set in $KOBJ/.config: $missing"
reports=$(python3 tests/lib/kcsan.py "$OUT" "$KSRC" "$TOP")
echo "$reports" | sed 's/^/        /'
echo "# kcsan: $(head -1 <<<"$reports")" >"$OUT/kcsan.out"
ours=$(grep -c '^ *OURS ' <<<"$reports" || true)
if [ "$ours" = 0 ]; then
	result ok "kcsan: no data race reported in kernel/relay.c, kernel/relay_trace*.c or include/linux/relay*.h"
else
	mapfile -t lines < <(grep '^ *OURS ' <<<"$reports")
	result fail "kcsan: $ours data races reported in relay or trace code" "${lines[@]}"
fi
