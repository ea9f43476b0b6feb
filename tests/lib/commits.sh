# shellcheck shell=bash
# The rule for the series' commit messages, used by tests/host/series.sh
# (make test) and tests/check (make check): print one line per problem.
#   - the subject is numbered "[PATCH i/N]" (i padded as N is wide);
#   - the message says what and why: at least 5 lines besides tags;
#   - Signed-off-by with a name and an address, after a blank line;
#   - notes that are not part of the commit (a port's "Differences from
#     the 6.1 version", "The same change as for 6.1") below the "---".
commit_problems() {	# commit_problems PATCH INDEX TOTAL
	local p=$1 i=$2 total=$3 body msg
	# git format-patch pads the number to the width of the total.
	i=$(printf '%0*d' ${#total} "$i")
	grep -q "^Subject: \[PATCH $i/$total\] " "$p" || echo "$(basename "$p"): subject not numbered $i/$total"
	body=$(sed -n '/^Subject:/,/^---$/p' "$p" | sed '1,/^$/d' |
		grep -vc '^\(---\|[A-Za-z-]*: .*\|\)$' || true)
	[ "$body" -ge 5 ] || echo "$(basename "$p"): the commit message has $body lines; say what and why"
	grep -q '^Signed-off-by: .* <.*@.*>$' "$p" || echo "$(basename "$p"): no Signed-off-by"
	# The message: from the subject to the first "---" line.
	msg=$(sed -n '/^Subject:/,/^---$/p' "$p")
	grep -q 'Differences from the 6\.1 version\|The same change as for 6\.1' <<<"$msg" &&
		echo "$(basename "$p"): a port note in the commit message; it goes below the \"---\" line"
	# The tags end the message, after a blank line.
	awk -v tag='^(Signed-off-by|Fixes|Cc|Link|Reported-by|Suggested-by|Reviewed-by|Acked-by|Tested-by|Co-developed-by): ' '
	     { line[NR] = $0 }
	     END { n = NR; while (n > 0 && line[n] ~ tag) n--; exit !(n < NR && line[n] != "") }' \
		<<<"$(sed '1,/^$/d' <<<"$msg" | sed '$d')" &&
		echo "$(basename "$p"): no blank line before the tags (Signed-off-by, Fixes...)"
	return 0
}
