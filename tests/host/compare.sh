#!/bin/bash
# make compare on recorded folders: two make bench boots of identical code
# (tests/fixtures/compare/boot-a, boot-b: raw.csv cut to the columns
# compare reads, and meta.json) must come out as noise in all but a few
# comparisons; the same boot with a real change added must come out as a
# change where it was added and nowhere else; a change smaller than the
# between-boot spread must not; too few runs must say so; and differing
# conditions must be printed.
set -eu -o pipefail
. "$(dirname "$0")/../lib/host.sh"
cd "$TOP"
F=tests/fixtures/compare
R=bench-user/report/report.py

called() { grep -Eo '^[0-9]+ of [0-9]+ comparisons called a change' <<<"$1" || echo "none"; }

out=$(python3 $R compare $F/boot-a $F/boot-b 2>&1) || true
read -r n _ total _ <<<"$(called "$out")"
if [ "$n" != none ] && [ $((n * 100)) -le $((total * 5)) ]; then
	ok "compare: two boots of identical code: $n of $total comparisons called a change (at most 5 %)"
else
	not_ok "compare: two boots of identical code call at most 5 % of comparisons a change" "$(called "$out")" \
		"$(grep -E 'better|WORSE' <<<"$out" | head -5)"
fi

# scale DIR OUT PATTERN FACTOR: a copy of DIR whose ns_per_ok of the
# configurations matching PATTERN is multiplied by FACTOR.
scale() {
	mkdir -p "$2"
	cp "$1/meta.json" "$2/"
	python3 - "$1/raw.csv" "$2/raw.csv" "$3" "$4" <<'PY'
import csv, re, sys
src, dst, pat, f = sys.argv[1], sys.argv[2], sys.argv[3], float(sys.argv[4])
rows = list(csv.DictReader(open(src)))
for r in rows:
    if re.search(pat, r["config"]) and r["ns_per_ok"] not in ("", "nan"):
        r["ns_per_ok"] = str(float(r["ns_per_ok"]) * f)
w = csv.DictWriter(open(dst, "w", newline=""), fieldnames=list(rows[0].keys()))
w.writeheader()
w.writerows(rows)
PY
}

# A per-CPU write path 4 times cheaper (the between-boot spread is about
# +-48 %): every (a) per-CPU configuration is better, nothing else is.
scale $F/boot-a "$work/faster" '^a/percpu/' 0.25
out=$(python3 $R compare $F/boot-a "$work/faster" 2>&1) || true
want=$(grep -c '^a/percpu/' <<<"$out" || true)
better=$(grep -E '^a/percpu/.* better ' <<<"$out" | grep -c . || true)
others=$(grep -E ' (better|WORSE) \(' <<<"$out" | grep -vc '^a/percpu/' || true)
[ "$want" -gt 0 ] && [ "$better" = "$want" ] && [ "$others" = 0 ] &&
	ok "compare: a per-CPU path 4 times cheaper is called better in all $want per-CPU configurations, and nothing else" ||
	not_ok "compare: a 4 times cheaper per-CPU path is called better, alone" "$better of $want better, $others others" \
		"$(grep '^a/percpu/' <<<"$out" | head -3)"

# 4 times dearer: WORSE.
scale $F/boot-a "$work/slower" '^a/global/' 4
out=$(python3 $R compare $F/boot-a "$work/slower" 2>&1) || true
want=$(grep -c '^a/global/' <<<"$out" || true)
worse=$(grep -E '^a/global/.* WORSE ' <<<"$out" | grep -c . || true)
[ "$want" -gt 0 ] && [ "$worse" = "$want" ] &&
	ok "compare: a global path 4 times dearer is called WORSE in all $want global configurations" ||
	not_ok "compare: a 4 times dearer global path is called WORSE" "$worse of $want" "$(grep '^a/global/' <<<"$out" | head -3)"

# A 3 % change everywhere is within the between-boot spread: noise.
scale $F/boot-a "$work/small" '.' 1.03
out=$(python3 $R compare $F/boot-a "$work/small" 2>&1) || true
read -r n _ total _ <<<"$(called "$out")"
[ "$n" = 0 ] && grep -q 'within the noise' <<<"$out" &&
	ok "compare: a 3 % change in every configuration stays within the between-boot spread: 0 of $total called" ||
	not_ok "compare: a 3 % change in every configuration is not called" "$(called "$out")"

# Two runs a side can never reach p < 0.05: say so.
python3 - $F/boot-a "$work/two" <<'PY'
import csv, os, shutil, sys
src, dst = sys.argv[1], sys.argv[2]
os.makedirs(dst, exist_ok=True)
shutil.copy(os.path.join(src, "meta.json"), dst)
rows, seen = [], {}
for r in csv.DictReader(open(os.path.join(src, "raw.csv"))):
    seen[r["config"]] = seen.get(r["config"], 0) + 1
    if seen[r["config"]] <= 2:
        rows.append(r)
w = csv.DictWriter(open(os.path.join(dst, "raw.csv"), "w", newline=""), fieldnames=list(rows[0].keys()))
w.writeheader()
w.writerows(rows)
PY
out=$(python3 $R compare "$work/two" "$work/two" 2>&1) || true
grep -q 'n=2+2 cannot reach p<0.05' <<<"$out" &&
	ok "compare: two runs a side are said to be too few to reach p < 0.05" ||
	not_ok "compare: two runs a side are said to be too few" "$(grep '^a/' <<<"$out" | head -2)"

# Conditions first: a different QEMU is printed.
mkdir -p "$work/otherqemu"
cp $F/boot-b/raw.csv "$work/otherqemu/"
sed 's/"qemu": "[^"]*"/"qemu": "QEMU emulator version 0.0.1"/' $F/boot-b/meta.json >"$work/otherqemu/meta.json"
out=$(python3 $R compare $F/boot-a "$work/otherqemu" 2>&1) || true
grep -q "QEMU: old '.*', new 'QEMU emulator version 0.0.1'" <<<"$out" &&
	ok "compare: differing conditions are printed before the figures" ||
	not_ok "compare: differing conditions are printed" "$(head -5 <<<"$out")"

# make bench-ab: one boot, the two builds' runs interleaved, no between-boot
# margin.  Two identical builds (A/A) call at most 5 % a change.  A build
# with ndelay(1000) before trace_write() is called WORSE where the write
# goes through trace_write() at 1 and 2 writers (3 and 4 are host-bound and
# need not be), and the changes called elsewhere -- ftrace or the floor,
# which the delay does not touch, or a relay configuration called better --
# are at most the 5 % of the calls that Benjamini-Hochberg lets be false.
out=$(python3 $R compare --same-boot $F/ab-aa/a $F/ab-aa/b 2>&1) || true
read -r n _ total _ <<<"$(called "$out")"
if [ "$n" != none ] && [ $((n * 100)) -le $((total * 5)) ] && grep -q 'no between-boot spread' <<<"$out"; then
	ok "compare --same-boot: two identical builds in one boot: $n of $total comparisons called a change (at most 5 %)"
else
	not_ok "compare --same-boot: two identical builds call at most 5 % a change" "$(called "$out")" \
		"$(grep -E ' (better|WORSE) \(' <<<"$out" | head -5)"
fi
# delay_seen OLD NEW: the delay is called where it is, and (almost) only
# there; prints what it found.
delay_seen() {
	local out n total want worse wrong
	out=$(python3 $R compare --same-boot "$1" "$2" 2>&1) || true
	read -r n _ total _ <<<"$(called "$out")"
	want=$(grep -Ec '^a/(percpu|global)/[a-z]+/w[12]/' <<<"$out" || true)
	worse=$(grep -E '^a/(percpu|global)/[a-z]+/w[12]/.* WORSE \(' <<<"$out" | grep -c . || true)
	wrong=$(grep -E '^a/(ftrace|none)/.* (better|WORSE) \(|^a/.* better \(' <<<"$out" | grep -c . || true)
	echo "WORSE in $worse of $want trace configurations at 1-2 writers; $n of $total called, $wrong of them where the delay is not"
	[ "$n" != none ] && [ "$want" -gt 0 ] && [ "$worse" = "$want" ] && [ $((wrong * 20)) -le "$n" ]
}
if res=$(delay_seen $F/ab-delay/a $F/ab-delay/b); then
	ok "compare --same-boot: ndelay(1000) before trace_write(): $res (at most 5 %)"
else
	not_ok "compare --same-boot: a delay in trace_write()'s caller is called WORSE there, and (almost) only there" "$res"
fi
# The check itself fails on the A/A pair (no delay to find) and on the
# delay pair with the floor made 3 times dearer too (calls where the
# delay is not).
mkdir -p "$work/floor"
cp $F/ab-delay/b/meta.json "$work/floor/"
scale $F/ab-delay/b "$work/floor" '^a/none/' 3
delay_seen $F/ab-aa/a $F/ab-aa/b >/dev/null && bad1=passed || bad1=rejected
delay_seen $F/ab-delay/a "$work/floor" >/dev/null && bad2=passed || bad2=rejected
[ "$bad1 $bad2" = "rejected rejected" ] &&
	ok "compare --same-boot: that check rejects a pair without the delay and a pair with calls outside it" ||
	not_ok "compare --same-boot: that check rejects broken pairs" "A/A: $bad1, floor dearer too: $bad2"
# The same delay read as two boots: the between-boot margin (+-48 %)
# applies, and these changes (+150 % and more at 1-2 writers) exceed it.
out=$(python3 $R compare $F/ab-delay/a $F/ab-delay/b 2>&1) || true
want=$(grep -Ec '^a/(percpu|global)/[a-z]+/w[12]/' <<<"$out" || true)
worse=$(grep -E '^a/(percpu|global)/[a-z]+/w[12]/.* WORSE \(.*beyond the' <<<"$out" | grep -c . || true)
[ "$worse" = "$want" ] && grep -q 'between-boot spread +-' <<<"$out" &&
	ok "compare: without --same-boot the between-boot margin applies, and the delay exceeds it ($worse of $want)" ||
	not_ok "compare: without --same-boot the between-boot margin applies" "$worse of $want" "$(called "$out")"

# --same-boot drops the margin only for the two sides of one boot.
out=$(python3 $R compare --same-boot $F/boot-a $F/boot-b 2>&1) && rc=0 || rc=$?
[ "$rc" = 2 ] && grep -q 'not the two sides of one boot.*date, seed' <<<"$out" &&
	ok "compare --same-boot: refuses folders of two boots: $(tail -1 <<<"$out" | sed 's/.*: their/their/')" ||
	not_ok "compare --same-boot: refuses folders of two boots" "status $rc" "$(tail -2 <<<"$out")"
