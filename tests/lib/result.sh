# shellcheck shell=bash
# The PASS/FAIL printer of tests/run, its steps and tests/check: source
# it, call result for each check, and end with summary, whose last line
# is "N passed, N failed" and whose status is the verdict.  With
# RESULT_LOG set (tests/run sets it for its steps, each a process of its
# own), every result is also appended to that file, "ok|fail<TAB>NAME",
# from which tests/run's summary counts.
pass=0 fail=0
failures=()

result() {	# result ok|fail NAME [DETAIL...]
	local st=$1 name=$2 l
	shift 2
	if [ "$st" = ok ]; then
		pass=$((pass + 1))
		echo "  PASS  $name"
	else
		fail=$((fail + 1))
		failures+=("$name")
		echo "  FAIL  $name"
		for l in "$@"; do [ -n "$l" ] && echo "        $l"; done
	fi
	[ -z "${RESULT_LOG:-}" ] || printf '%s\t%s\n' "$st" "$name" >>"$RESULT_LOG"
	return 0
}

# tally LOG: the counters of summary, from a RESULT_LOG.
tally() {
	local st name
	pass=0 fail=0 failures=()
	while IFS=$'\t' read -r st name; do
		if [ "$st" = ok ]; then pass=$((pass + 1)); else fail=$((fail + 1)); failures+=("$name"); fi
	done <"$1"
}

# check NAME COMMAND...: result ok if COMMAND succeeds, with its output
# as the detail if it fails.
check() {
	local name=$1 out
	shift
	if out=$("$@" 2>&1); then
		result ok "$name"
	else
		mapfile -t lines <<<"$out"
		result fail "$name" "${lines[@]: -12}"
	fi
}

summary() {	# summary [TAIL LINE...]
	local l
	echo
	for l in "$@"; do echo "$l"; done
	if [ "$fail" -gt 0 ]; then
		echo "failed:"
		printf '  %s\n' "${failures[@]}"
	fi
	echo "$pass passed, $fail failed"
	[ "$fail" = 0 ]
}
