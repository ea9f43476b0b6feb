#!/bin/bash
# The accounting checker must reject every broken stream, naming the fault.
# tests/host/fake-trace.c writes a recording of a stopped trace, as
# relaytrace does, with one fault injected, bench-verify checks it as it
# does in the guest, and report.py check (bench-user/report/accounting.py)
# gives the verdict, which must name the fault -- and pass the same streams
# unbroken.
set -eu -o pipefail
. "$(dirname "$0")/../lib/host.sh"
cd "$TOP"

if ! out=$(make -s -C bench-user/guest bench-verify 2>&1 &&
	   gcc -std=gnu11 -O2 -Wall -Wextra -Werror -o "$work/fake-trace" tests/host/fake-trace.c 2>&1); then
	not_ok "checker: bench-verify and fake-trace build with -Wall -Wextra -Werror" "$out"
	exit 0
fi

# verdict FAULT MODE FLIGHT [BENCH-VERIFY OPTION...]: the checker's output
# on one fake trace.
verdict() {
	local d=$work/$1-$2-$3 r fl=
	mkdir -p "$d"
	[ "$3" = 1 ] && fl=-f
	r=$("$work/fake-trace" -o "$d" -m "$2" $fl -F "$1")
	bench-user/guest/bench-verify -i 4242 -r 64 -d "${@:4}" "$d" >"$d/drain.txt" 2>"$d/drain.err" || true
	{ echo "R idx=1 q=a rep=1 drain=after $r"; sed 's/^/D idx=1 /' "$d/drain.txt"; } >"$d/guest.out"
	rc=0
	python3 bench-user/report/report.py check --json "$d/guest.out" >"$d/verdict.json" 2>"$d/verdict.err" || rc=$?
	V=$d/verdict.json
}

field() {	# field KEY: a field of the last verdict
	python3 bench-user/report/report.py field "$V" "$1" 2>/dev/null || echo "?"
}

for mode in percpu global; do
	for fl in 0 1; do
		verdict none $mode $fl
		what="$mode $([ $fl = 1 ] && echo flight || echo non-flight)"
		if [ "$rc" = 0 ] && [ "$(field verdict) $(field by_run.0.verdict)" = "ok ok" ] && [ "$(field records_checked)" -gt 0 ]; then
			ok "checker: a clean $what stream passes ($(field records_checked) records checked)"
		else
			mapfile -t lines < <(field by_run.0.violations; cat "$work/none-$mode-$fl/verdict.err")
			not_ok "checker: a clean $what stream passes" "status $rc, verdict $(field verdict)" "${lines[@]}"
		fi
	done
done

# fault mode flight expected-class description
while read -r fault mode fl class desc; do
	verdict "$fault" "$mode" "$fl"
	if [ "$rc" = 1 ] && [ "$(field by_run.0.verdict)" = FAIL ] && [ "$(field "violations_by_class.$class")" -gt 0 ]; then
		ok "checker: rejects $desc ($mode), naming it: $class ($(field by_run.0.violations.0.text))"
	else
		mapfile -t lines < <(field by_run.0.violations)
		not_ok "checker: rejects $desc ($mode) as '$class'" "status $rc, verdict $(field by_run.0.verdict)" "${lines[@]}"
	fi
done <<'EOF2'
hole percpu 0 hole a hole (one stored record missing)
hole global 0 hole a hole (one stored record missing)
truncated percpu 0 truncated a truncated record
torn global 0 payload a torn record (header of one, payload of the next)
reorder percpu 0 reorder a reordering (two records swapped)
reorder global 0 reorder a reordering (two records swapped)
payload percpu 0 payload a wrong payload (zeroed)
stale percpu 0 stale a stale record from a previous run
stale global 1 stale a stale record in a flight dump
phantom percpu 0 lost+phantom a lost record paired with a phantom "refused" one
phantom global 0 lost+phantom a lost record paired with a phantom "refused" one
newest percpu 1 newest a flight dump missing its newest record
newest global 1 newest a flight dump missing its newest record
hole percpu 1 hole a flight dump with a hole
split percpu 0 module a writer's records in two streams
split percpu 1 module a flight dump with a writer's records in two streams
EOF2

# A recording of several runs (a bisection's steps): the records of the
# runs -x names are expected there, not stale.
verdict stale percpu 0 -x 4243
if [ "$rc" = 0 ] && [ "$(field by_run.0.verdict)" = ok ]; then
	ok "checker: a record of another run that bench-verify -x names is expected, not stale"
else
	mapfile -t lines < <(field by_run.0.violations)
	not_ok "checker: a record of another run that bench-verify -x names is expected" "status $rc" "${lines[@]}"
fi
# ... and only those: -x naming another run leaves the record stale.
verdict stale percpu 0 -x 4244
if [ "$rc" = 1 ] && [ "$(field violations_by_class.stale)" -gt 0 ]; then
	ok "checker: a record of a run that bench-verify -x does not name is still stale"
else
	mapfile -t lines < <(field by_run.0.violations)
	not_ok "checker: a record of a run that bench-verify -x does not name is stale" "status $rc" "${lines[@]}"
fi

# bench-verify's own errors name what failed.
expect_error() {	# expect_error DESC PATTERN ARGS...
	local desc=$1 pat=$2 rc=0 msg
	shift 2
	msg=$(bench-user/guest/bench-verify "$@" 2>&1 >/dev/null) || rc=$?
	if [ "$rc" != 0 ] && grep -q -- "$pat" <<<"$msg"; then
		ok "bench-verify: $desc"
	else
		not_ok "bench-verify: $desc" "status $rc, message: $msg"
	fi
}
expect_error "a missing recording is named, with the reason" \
	"$work/nonexistent/info: No such file or directory" -i 1 "$work/nonexistent"
expect_error "a run identifier is required" "usage: bench-verify -i RUN_ID" "$work"
expect_error "a record size that is not a multiple of 4 is refused" "record size 18" -i 1 -r 18 "$work"
mkdir -p "$work/t"
echo "trace=x" >"$work/t/info"
expect_error "a folder that is no relaytrace recording" "names no buffers" -i 1 "$work/t"
printf 'buffers=0\n' >"$work/t/info"
expect_error "a recording without trace0" "$work/t/trace0: No such file or directory" -i 1 "$work/t"
