#!/bin/bash
# step: 20 test
# Step: the host checks, tests/host/*.sh, each printing "ok - ..." and
# "not ok - ..." lines (tests/lib/host.sh).
. "$(dirname "$0")/../lib/step.sh"
for s in tests/host/*.sh; do
	while IFS= read -r line; do
		case "$line" in
		"ok "*) result ok "host: ${line#ok - }" ;;
		"not ok "*) result fail "host: ${line#not ok - }" ;;
		"# "*) echo "        ${line#\# }" ;;
		esac
	done < <("$s" 2>&1 || echo "not ok - $(basename "$s") exited with an error")
done
