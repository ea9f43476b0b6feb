#!/bin/bash
# Host checks of make compare's statistics (bench-user/report/stats.py).
set -eu -o pipefail
. "$(dirname "$0")/../lib/host.sh"
if out=$(python3 "$TOP/tests/host/test_stats.py" 2>&1); then
	ok "stats: exact U test, Hodges-Lehmann, Holm, Benjamini-Hochberg, boot spread ($(tail -1 <<<"$out"))"
else
	mapfile -t lines < <(tail -15 <<<"$out")
	not_ok "stats: make compare's statistics" "${lines[@]}"
fi
