#!/bin/bash
# Host checks of the patch series of $KERNEL: well formed, and applies with
# patch -p1 and with git am to the pristine tree, to the same result.
set -eu -o pipefail
. "$(dirname "$0")/../lib/host.sh"
. "$TOP/tests/lib/commits.sh"

cd "$PATCHES"
series=$(cat series)
total=$(echo "$series" | wc -l)

problems=$(i=0; for p in $series; do i=$((i + 1)); commit_problems "$p" "$i" "$total"; done)
if [ -z "$problems" ]; then
	ok "series $KERNEL: $total patches numbered, described and signed off"
else
	mapfile -t lines <<<"$problems"
	not_ok "series $KERNEL: $total patches numbered, described and signed off" "${lines[@]}"
fi

grep -q '^Subject: \[PATCH 0*/'"$total"'\] .' 0000-cover-letter.patch &&
	! grep -q '\*\*\* SUBJECT HERE \*\*\*\|\*\*\* BLURB HERE \*\*\*' 0000-cover-letter.patch &&
	ok "series $KERNEL: cover letter is written" || not_ok "series $KERNEL: cover letter is written"

# A pristine copy of the files the series modifies (not those it creates,
# which later patches of it may modify too).
created=$(cat $series | awk '/^--- \/dev\/null/ { getline; sub(/^\+\+\+ b\//, ""); print }' | sort -u)
files=$(cat $series | sed -n 's|^--- a/||p' | sort -u | comm -23 - <(echo "$created"))
members=$(for f in $files; do echo "$KPKG/$f"; done)
tar -C "$work" -xf "$KSRC_TARBALL" $members
mkdir -p "$work/am"
cp -r "$work/$KPKG/." "$work/am/"

out=$(cd "$work/$KPKG" && for p in $series; do
	patch -p1 -s -N --no-backup-if-mismatch <"$PATCHES/$p" || { echo "FAILED: $p"; exit 1; }
done 2>&1) && ok "series $KERNEL applies with patch -p1" || not_ok "series $KERNEL applies with patch -p1" "$out"

out=$(cd "$work/am" && git init -q && git add -f -A &&
	git -c user.name=t -c user.email=t@t commit -qm base &&
	git -c user.name=t -c user.email=t@t am -q $(printf "$PATCHES/%s " $series) 2>&1 &&
	git log --format=%s -n "$total" | tac) &&
	[ "$(echo "$out" | wc -l)" = "$total" ] &&
	ok "series $KERNEL applies with git am ($total commits)" || not_ok "series $KERNEL applies with git am" "$out"

if diff -r -x .git "$work/$KPKG" "$work/am" >/dev/null; then
	ok "series $KERNEL: patch -p1 and git am give identical trees"
else
	not_ok "series $KERNEL: patch -p1 and git am give identical trees"
fi

# The commit-message rule rejects a port note spliced into the message
# and tags with no blank line before them (6.12's patch 2 once had both).
printf 'Subject: [PATCH 1/1] relay: x\n\nOne.\nTwo.\nThree.\nFour.\nFive, with a port note:\nThe same change as for 6.1; it applies as it is.\nSigned-off-by: A B <a@b.c>\n---\n' >"$work/bad.patch"
out=$(commit_problems "$work/bad.patch" 1 1)
grep -q 'a port note in the commit message' <<<"$out" && grep -q 'no blank line before the tags' <<<"$out" &&
	ok "commit messages: a port note above the '---' and tags without a blank line are refused" ||
	not_ok "commit messages: a port note above the '---' and tags without a blank line are refused" "$out"
