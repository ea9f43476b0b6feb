#!/bin/bash
# make bench-ab's pieces on the host: the plan pairs every run with its
# twin of the other build, and split-ab gives each side its own runs and
# refuses a run that names no build.
set -eu -o pipefail
. "$(dirname "$0")/../lib/host.sh"
cd "$TOP"
R=bench-user/report/report.py
M=bench-user/matrix/ab.conf

# The plan: a warm-up of each build, then adjacent pairs, one run of each build, the
# same parameters but the run id, in either order.
out=$(python3 - "$M" <<'PY'
import sys
sys.path.insert(0, "bench-user/report")
import plan, runfmt
single = [l for l in plan.plan(sys.argv[1], 7) if not l.startswith("#")]
both = [l for l in plan.plan(sys.argv[1], 7, ab=True) if not l.startswith("#")]
def split(l):
    h, _, p = l.partition("|")
    h, p = runfmt.kv(h.split()), runfmt.kv(p.split())
    p.pop("run_id")
    for k in ("idx", "of"):
        h.pop(k)
    return h, p
bad, orders = [], set()
if len(both) != 2 * len(single):
    bad.append(f"{len(both)} runs, not 2 x ({len(single) - 1} + a warm-up)")
for i in range(0, len(both), 2):
    (ha, pa), (hb, pb) = split(both[i]), split(both[i + 1])
    kos = ha.pop("ko"), hb.pop("ko")
    orders.add(kos)
    if sorted(kos) != ["a", "b"] or ha != hb or pa != pb:
        bad.append(f"runs {i + 1} and {i + 2} are not a pair: {kos}")
    if (ha["q"] == "w") != (i == 0):
        bad.append(f"runs {i + 1} and {i + 2}: q={ha['q']}, the warm-up pair must come first, alone")
if orders != {("a", "b"), ("b", "a")}:
    bad.append(f"pair orders: {sorted(orders)}")
print("; ".join(bad[:3]) if bad else f"{len(both)} runs, {len(both) // 2} pairs (the first the warm-ups), both orders")
PY
)
case $out in
*pairs*) ok "bench-ab: the plan: $out" ;;
*) not_ok "bench-ab: every run is paired with its twin of the other build" "$out" ;;
esac

# split-ab: R, D and E lines go to the side runs.txt planned their run
# for -- also a run whose module did not load, which has an E line and no
# R line -- and the rest to both.
d=$work/ab
mkdir -p "$d"
cat >"$d/guest.out" <<'G'
bench: boot line
R idx=1 of=4 q=w ko=b mode=percpu
D idx=1 stream n=0 records=5
R idx=2 of=4 q=a ko=a mode=percpu
D idx=2 stream n=0 records=6
E idx=2 something
R idx=3 of=4 q=a ko=b mode=percpu
D idx=3 stream n=0 records=7
E idx=4 insmod /extra/relay_bench-a.ko failed
bench: done
G
printf '# plan\nidx=1 q=w ko=b | mode=x\nidx=2 q=a ko=a | mode=x\nidx=3 q=a ko=b | mode=x\nidx=4 q=a ko=a | mode=x\n' >"$d/runs.txt"
printf 'kernel=6.1\nbench_module_a=abc123 a\nbench_module_b=working tree def456\n' >"$d/host.txt"
if python3 $R split-ab "$d" >/dev/null 2>&1 &&
   [ "$(grep -c '^[RDE] idx=[24]' "$d/a/guest.out")" = 4 ] && ! grep -q 'idx=[13]' "$d/a/guest.out" &&
   [ "$(grep -c '^[RD] idx=[13]' "$d/b/guest.out")" = 4 ] && ! grep -q 'idx=[24]' "$d/b/guest.out" &&
   [ "$(grep -c '^bench:' "$d/a/guest.out")" = 2 ] && [ "$(grep -c '^bench:' "$d/b/guest.out")" = 2 ] &&
   [ "$(grep -c '^idx=' "$d/a/runs.txt")" = 2 ] && [ "$(grep -c '^idx=' "$d/b/runs.txt")" = 2 ] &&
   grep -qx 'bench_module=abc123 a' "$d/a/host.txt" && grep -qx 'bench_module=working tree def456' "$d/b/host.txt"; then
	ok "bench-ab: split-ab gives each build its runs, records, failed loads and host line"
else
	not_ok "bench-ab: split-ab gives each build its runs" "$(cat "$d"/a/guest.out "$d"/b/host.txt 2>&1 | head -12)"
fi

# rejects CASE SED_ON_GUEST_OUT SED_ON_RUNS_TXT EXPECTED_MESSAGE
rejects() {
	local c=$work/ab-$1 out
	mkdir -p "$c"
	cp "$d/host.txt" "$c/"
	sed "$2" "$d/guest.out" >"$c/guest.out"
	sed "$3" "$d/runs.txt" >"$c/runs.txt"
	if out=$(python3 $R split-ab "$c" 2>&1); then
		not_ok "bench-ab: split-ab refuses $1" "it succeeded"
	elif grep -q "$4" <<<"$out"; then
		ok "bench-ab: split-ab refuses $1: $(tail -1 <<<"$out")"
	else
		not_ok "bench-ab: split-ab refuses $1, naming it" "$out"
	fi
}
rejects "a run the plan does not place" 's/^x//' 's/^idx=3 q=a ko=b/idx=3 q=a/' 'run 3 has no ko=a or ko=b'
rejects "an R line of the other build" 's/^R idx=3 of=4 q=a ko=b/R idx=3 of=4 q=a ko=a/' 's/^x//' 'run 3 was planned for build b'
