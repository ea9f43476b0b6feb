#!/bin/bash
# Host checks of the patch series: well formed, applies with patch -p1 and
# with git am to the pristine tree.  Prints "ok - ..." / "not ok - ...".
set -eu
. "$(dirname "$0")/lib.sh"


cd "$TOP/patches"
series=$(cat series)
total=$(echo "$series" | wc -l)

# Each patch: subject numbered n/total, a commit message, Signed-off-by.
i=0
bad=
for p in $series; do
	i=$((i + 1))
	grep -q "^Subject: \[PATCH $i/$total\] " "$p" || bad="$bad $p(subject)"
	grep -q '^Signed-off-by: .* <.*@.*>$' "$p" || bad="$bad $p(signed-off-by)"
	body=$(sed -n '/^Subject:/,/^---$/p' "$p" | sed '1,/^$/d' | grep -vc '^\(---\|Signed-off-by:.*\|\)$' || true)
	[ "$body" -ge 3 ] || bad="$bad $p(commit message)"
done
if [ -z "$bad" ]; then ok "series: $total patches numbered, described and signed off"
else not_ok "series: $total patches numbered, described and signed off" "problems:$bad"; fi

grep -q '^Subject: \[PATCH 0/'"$total"'\]' 0000-cover-letter.patch &&
	! grep -q '\*\*\* SUBJECT HERE \*\*\*\|\*\*\* BLURB HERE \*\*\*' 0000-cover-letter.patch &&
	ok "series: cover letter is written" || not_ok "series: cover letter is written"

# A pristine copy of the files the series modifies.
files=$(cat $series | sed -n 's|^--- a/||p' | sort -u)
members=$(for f in $files; do echo "linux-source-6.1/$f"; done)
tar -C "$work" -xf "$KSRC_TARBALL" $members
mkdir -p "$work/am"
cp -r "$work/linux-source-6.1/." "$work/am/"

out=$(cd "$work/linux-source-6.1" && for p in $series; do
	patch -p1 -s -N --no-backup-if-mismatch <"$TOP/patches/$p" || { echo "FAILED: $p"; exit 1; }
done 2>&1) && ok "series applies with patch -p1" || not_ok "series applies with patch -p1" "$out"

out=$(cd "$work/am" && git init -q && git add -A &&
	git -c user.name=t -c user.email=t@t commit -qm base &&
	git -c user.name=t -c user.email=t@t am -q $(printf "$TOP/patches/%s " $series) 2>&1 &&
	git log --format=%s | head -n "$total" | tac) &&
	[ "$(echo "$out" | wc -l)" = "$total" ] &&
	ok "series applies with git am ($total commits)" || not_ok "series applies with git am" "$out"

# Both ways give the same tree.
if diff -r -x .git "$work/linux-source-6.1" "$work/am" >/dev/null; then
	ok "patch -p1 and git am give identical trees"
else
	not_ok "patch -p1 and git am give identical trees"
fi
