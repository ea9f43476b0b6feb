# shellcheck shell=bash
# The rule for the series' commit messages, used by tests/host/series.sh
# (make test) and tests/check (make check): print one line per problem.
#   - the subject is numbered "[PATCH i/N]";
#   - the message says what and why: at least 5 lines besides tags;
#   - Signed-off-by with a name and an address.
commit_problems() {	# commit_problems PATCH INDEX TOTAL
	local p=$1 i=$2 total=$3 body
	grep -q "^Subject: \[PATCH $i/$total\] " "$p" || echo "$(basename "$p"): subject not numbered $i/$total"
	body=$(sed -n '/^Subject:/,/^---$/p' "$p" | sed '1,/^$/d' |
		grep -vc '^\(---\|[A-Za-z-]*: .*\|\)$' || true)
	[ "$body" -ge 5 ] || echo "$(basename "$p"): the commit message has $body lines; say what and why"
	grep -q '^Signed-off-by: .* <.*@.*>$' "$p" || echo "$(basename "$p"): no Signed-off-by"
	return 0
}
