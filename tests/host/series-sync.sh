#!/bin/bash
# The 6.1 and 6.12 series stay in step (tests/series-sync), and the check
# catches a change made to one of them only.
set -eu -o pipefail
. "$(dirname "$0")/../lib/host.sh"
cd "$TOP"
out=$(tests/series-sync 2>&1) && ok "series in step: $(tail -1 <<<"$out")" ||
	{ mapfile -t lines < <(head -20 <<<"$out"); not_ok "series in step" "${lines[@]}"; }
cp -r patches "$work/patches"
# The patch that defines it, wherever the series puts it.
f=$(grep -l '^+#define RELAY_TRACE_PRINTF_MAX	512' "$work/patches/6.1/"*.patch | head -1)
[ -n "$f" ] || not_ok "series in step: a patch of 6.1 defines RELAY_TRACE_PRINTF_MAX as 512, for the check below"
sed -i 's/^+#define RELAY_TRACE_PRINTF_MAX	512/+#define RELAY_TRACE_PRINTF_MAX	256/' "${f:-/dev/null}"
rc=0
out=$(tests/series-sync --patches "$work/patches" 2>&1) || rc=$?
[ "$rc" = 1 ] && grep -q 'RELAY_TRACE_PRINTF_MAX' <<<"$out" &&
	ok "series in step: a line changed in the 6.1 series only is caught, and shown" ||
	not_ok "series in step: a line changed in the 6.1 series only is caught" "status $rc: $out"
