#!/bin/sh
# shellcheck disable=SC2154,SC2317	# h_* and p_*: set by words(); steps: through $stepfn
# make bench, in the guest: one relay_bench run per line of /extra/runs.txt
# (written by bench-user/report/report.py plan), printing its R and D
# lines (bench-user/report/runfmt.py) and a progress line.
#
# A line of runs.txt is the harness's keys, "|", and the module's
# parameters, which go to insmod as they are:
#   idx=7 of=90 q=a rep=2 drain=after dcpu=- | mode=percpu flight=0 ...
# runfmt.py defines the keys and is their one parser; this script keeps
# each KEY=VALUE word, of either half, as the shell variable h_KEY or
# p_KEY, in any order, and acts on these: drain=after reads the trace
# once the writers stopped (relaytrace dump); drain=live reads it while
# they write (relaytrace record, reader=mmap or read, or the tool's
# default); drain=none has no reader (mode=ftrace checks its ring buffer
# itself; mode=none writes nothing).  bisect=lo:hi:tol (question b) runs
# steps instead of one run: see bisect() below.  ko=a or ko=b (make
# bench-ab) loads /extra/relay_bench-a.ko or -b.ko instead.  The R line
# repeats the whole line's words, which the host checks against runs.txt.
#
# A peer's line (peer=NAME[:ARG...], with variant=) sets up that system
# around the module's tracepoint (mode=event) instead of a trace, with the
# same buffer memory per CPU as relay's (subbuf_size x n_subbufs): drain=
# after records with nothing reading and reads once the writers stopped,
# drain=live runs the system's own consumer while they write.  NAME is
# its file in /extra/peers/ (bench-user/guest/peers/: trace-cmd,
# bpf-ringbuf, perf; common.sh has their contract and the dispatch), which
# the plan takes from the variant (bench-user/report/variants.py); this
# script knows none of them.  Its R line adds the system's loss counter
# per writer's CPU (peer_lost) and its consumer's CPU time (peer_cpu_us).
set -u
# shellcheck source=/dev/null
. /extra/lib.sh
# shellcheck source=/dev/null
. /extra/peers/common.sh

# words PREFIX WORD...: each KEY=VALUE word as the variable PREFIX_KEY
# (a KEY that is not a shell name is refused).
words() {
	prefix=$1
	shift
	for kv in "$@"; do
		case "${kv%%=*}" in
		''|*[!A-Za-z0-9_]*) echo "E bad word '$kv' in runs.txt"; return 1 ;;
		esac
		eval "${prefix}_${kv%%=*}=\${kv#*=}"
	done
}

# progress IDX TAG: a line on what the run just done achieved.
progress() {
	awk -v ok="$(param res_ok)" -v ns="$(param res_ns)" -v att="$(param res_attempted)" \
	    -v tag="[$1/${h_of:-?}] $2" 'BEGIN {
		n = split(ok, a, ","); split(ns, b, ","); split(att, c, ",")
		for (i = 1; i <= n; i++) { s += a[i]; t += c[i]; if (b[i] > m) m = b[i] }
		printf "%s ... %.2f M ok/s, %d of %d writes refused\n", tag,
			m ? s / m * 1000 : 0, t - s, t }'
}

# peer_progress IDX TAG: the same for a peer, whose writes return nothing:
# its attempts, and what its system counted lost.
peer_progress() {
	awk -v lost="$(echo "$peer_keys" | sed 's/ .*//; s/^peer_lost=//')" -v ns="$(param res_ns)" \
	    -v att="$(param res_attempted)" -v tag="[$1/${h_of:-?}] $2" 'BEGIN {
		n = split(att, c, ","); split(ns, b, ","); split(lost, l, ",")
		for (i = 1; i <= n; i++) { t += c[i]; if (b[i] > m) m = b[i] }
		for (i in l) x += l[i]
		printf "%s ... %.2f M attempts/s, %d of %d counted lost\n", tag, m ? t / m * 1000 : 0, x, t }'
}

# bisect: question (b).  One module load, one trace kept running across
# the steps (keep_running=1), one relaytrace reading all of them: each
# step is a run at an aggregate rate (rate= per writer), with a run_id of
# its own (the plan keeps a range of ids for a bisection's steps), that
# prints an R line "idx=S parent=IDX step=K" (S counts on after the plan's
# runs).  The first steps check that lo is lossless and hi is not, moving
# them (by 4x, four times at most) if not; then the rate between them
# (geometric middle) is run, and replaces lo or hi, until hi / lo <= 1 +
# tol/100.  A step starts once relaytrace has recorded every record of
# the one before: a backlog is no step's.  A step that fails ends the
# bisection.  Once the trace is stopped and relaytrace has read
# everything, every step's records are verified, in one pass, and printed
# as its D lines.
step_idx=
# isqrt N: the integer square root of N (busybox awk has no sqrt).
isqrt() {
	x=$1 y=$(( ($1 + 1) / 2 ))
	while [ "$y" -lt "$x" ]; do
		x=$y y=$(( (y + $1 / y) / 2 ))
	done
	echo "$x"
}
# recorded: the bytes relaytrace has written so far (the files' sizes: a
# bisection's recording grows to tens of MB, too much to read each time).
recorded() {
	stat -c %s "$REC"/trace* 2>/dev/null | awk '{ s += $1 } END { print s + 0 }'
}
# step_begin TOTAL_RATE: the next step's number, rate and run id set;
# fails (and sets failed) once the run ids plan.py left it are used up.
step_begin() {
	if [ "$k" -ge 63 ]; then
		echo "E idx=$step_idx 63 steps and not converged; the bisection ends"
		failed=1
		return 1
	fi
	k=$((k + 1))
	step_idx=$((step_idx + 1))
	echo $(( ($1 + w - 1) / w )) >"$P/rate"
	echo $((base + k)) >"$P/run_id"
}
# step_r_line [KEY=VALUE...]: the step's R line (lib.sh's r_line): the
# bisection's line with the step's rate and run id, these keys, and the
# module's results.
step_r_line() {
	r_line "$step_idx" "parent=$idx step=$k $desc $(echo " $params " |
		sed "s/ rate=[0-9]* / rate=$(param rate) /; s/ run_id=[0-9]* / run_id=$(param run_id) /")" "$*"
}
step() {	# step TOTAL_RATE: one run; sets lossy to 0 or 1, or failed
	step_begin "$1" || return
	src=0
	bench_run || src=$?
	step_r_line
	progress "$idx.$k" "q=b mode=$p_mode writers=$w reader=${h_reader:-auto} rate=$1"
	steps="$steps $(param run_id):$step_idx"
	if [ "$src" != 0 ]; then
		echo "E idx=$step_idx the run failed ($src); the bisection ends"
		failed=1
		return
	fi
	lossy=$(param res_failed | tr ',' '\n' | awk '{ s += $1 } END { print (s > 0) ? 1 : 0 }')
	want=$((want + $(param res_ok | tr ',' '\n' | awk '{ s += $1 } END { print s }') * p_rec_size))
	t=0
	while got=$(recorded); [ "$got" -lt "$want" ] && [ "$t" -lt 300 ]; do usleep 100000; t=$((t + 1)); done
	if [ "$got" -lt "$want" ]; then
		echo "E idx=$step_idx relaytrace recorded $got of $want bytes in 30 s; the bisection ends"
		failed=1
	fi
}
# peer_once HOW: one run of a peer (HOW: live or after), its facts in
# $PEER_OUT, its loss and consumer's CPU in $peer_keys, errors in $errs.
PEER_OUT=/tmp/peer.txt
peer_once() {
	rid=$(param run_id)
	pbytes=$((p_subbuf_size * p_n_subbufs))
	: >$PEER_OUT
	rm -f /tmp/drain.txt
	if peer_begin "$h_peer" "$1" "$rid" "$p_rec_size" "$p_writers" "$pbytes" >>$PEER_OUT 2>&1; then
		bench_run || errs="$errs; the run failed"
		peer_end "$h_peer" "$1" "$rid" "$p_rec_size" "$p_writers" >>$PEER_OUT 2>&1 ||
			errs="$errs; $h_peer failed"
	else
		errs="$errs; $h_peer did not start"
		peer_end "$h_peer" "$1" "$rid" "$p_rec_size" "$p_writers" >/dev/null 2>&1
	fi
	if grep -q '^E ' $PEER_OUT; then
		errs="$errs; $(sed -n 's/^E //p' $PEER_OUT | tr '\n' ' ')"
	fi
	pl=$(sed -n 's/^peer_lost=//p' $PEER_OUT | tail -1)
	pc=$(sed -n 's/^peer_cpu_us=//p' $PEER_OUT | tail -1)
	# One loss count per writer, and the consumer's time, or the run is
	# not accounted for (and a bisection must not take it as lossless).
	echo "$pl" | grep -qE "^[0-9]+(,[0-9]+){$((p_writers - 1))}\$" ||
		errs="$errs; no loss count per writer from $h_peer (peer_lost='$pl')"
	echo "$pc" | grep -qE '^[0-9]+$' || errs="$errs; no consumer CPU time from $h_peer"
	peer_keys="peer_lost=$pl peer_cpu_us=${pc:-0}"
	# The recordings, verified: out of the guest's memory.
	peer_clean "$h_peer"
}

# peer_step TOTAL_RATE: a bisection's step for a peer: a run at that rate
# with the system's consumer, verified on its own; sets lossy (the system
# counted a loss) or failed.
peer_step() {
	step_begin "$1" || return
	errs=
	peer_once live
	# shellcheck disable=SC2086
	step_r_line $peer_keys
	emit_reader "$step_idx"
	rm -f /tmp/drain.txt
	peer_progress "$idx.$k" "q=b variant=$h_variant writers=$w rate=$1"
	if [ -n "$errs" ]; then
		echo "E idx=$step_idx ${errs#; }"
		failed=1
		return
	fi
	lossy=$(echo "$peer_keys" | sed 's/ .*//; s/^peer_lost=//' | tr ',' '\n' |
		awk '{ s += $1 } END { print (s > 0) ? 1 : 0 }')
}

bisect() {
	lo=${h_bisect%%:*} rest=${h_bisect#*:}
	hi=${rest%%:*} tol=${rest#*:}
	w=${p_writers:-1} base=${p_run_id:-1} k=0 steps='' lossy='' failed='' want=0
	# A peer's steps each run its consumer, and verify, on their own.
	stepfn=step
	if [ -n "${h_peer:-}" ]; then
		stepfn=peer_step
	else
		# shellcheck disable=SC2046	# reader_opt: no option, or one
		rec_start $(reader_opt "${h_reader:-}") || { echo "E idx=$idx relaytrace did not start: $(cat /tmp/rec.txt)"; return 1; }
	fi
	n=0
	$stepfn "$lo"
	while [ -z "$failed" ] && [ "$lossy" = 1 ] && [ $n -lt 4 ] && [ $((lo / 4)) -ge "$w" ]; do
		hi=$lo lo=$((lo / 4)) n=$((n + 1))
		$stepfn "$lo"
	done
	lo_ok=$((1 - lossy))
	hi_lossy=1
	if [ -z "$failed" ] && [ $lo_ok = 1 ] && [ $n = 0 ]; then
		$stepfn "$hi"
		while [ -z "$failed" ] && [ "$lossy" = 0 ] && [ $n -lt 4 ]; do
			lo=$hi hi=$((hi * 4)) n=$((n + 1))
			$stepfn "$hi"
		done
		hi_lossy=$lossy
	fi
	while [ -z "$failed" ] && [ $lo_ok = 1 ] && [ "$hi_lossy" = 1 ] &&
	      [ $((hi * 100)) -gt $((lo * (100 + tol))) ]; do
		mid=$(isqrt $((lo * hi)))
		{ [ "$mid" -gt "$lo" ] && [ "$mid" -lt "$hi" ]; } || break
		$stepfn "$mid"
		if [ "$lossy" = 0 ]; then lo=$mid; else hi=$mid; fi
	done
	[ -z "${h_peer:-}" ] || { [ -z "$failed" ]; return; }
	echo stop >"$T/state"
	if ! rec_wait >/tmp/rec.msg; then
		for s in $steps; do echo "E idx=${s#*:} $(cat /tmp/rec.msg)"; done
		failed=1
	fi
	ids=$(for s in $steps; do printf '%s,' "${s%%:*}"; done)
	map=$(for s in $steps; do printf '%s ' "$s"; done)
	if verify "${ids%,}" >/tmp/verify.msg; then
		# One block per run, "run ID" first: its lines are its step's.
		awk -v map="$map" 'BEGIN { n = split(map, a, " "); for (i = 1; i <= n; i++) { split(a[i], b, ":"); m[b[1]] = b[2] } }
			$1 == "run" { cur = m[$2]; next } { print "D idx=" cur " " $0 }' /tmp/drain.txt
	else
		for s in $steps; do echo "E idx=${s#*:} $(cat /tmp/verify.msg)"; done
		failed=1
	fi
	rm -rf "$REC" /tmp/drain.txt /tmp/rec.msg /tmp/verify.msg /tmp/verify.err
	[ -z "$failed" ]
}

emit_meta
fail=0
while IFS= read -r line; do
	case "$line" in ''|\#*) continue ;; esac
	harness=${line%%|*}
	params=${line#*|}
	unset h_idx h_of h_q h_rep h_drain h_dcpu h_ko h_reader h_bisect h_variant h_peer \
		p_mode p_flight p_writers p_rec_size p_rate p_run_id p_subbuf_size p_n_subbufs
	# shellcheck disable=SC2086
	if ! words h $harness || ! words p $params; then
		fail=1
		continue
	fi
	idx=${h_idx:-?} ko=${h_ko:-} desc=
	[ -n "$step_idx" ] || step_idx=${h_of:-0}
	for kv in $harness; do
		case "$kv" in idx=*) ;; *) desc="$desc $kv" ;; esac
	done
	BENCH_KO=/extra/relay_bench${ko:+-$ko}.ko
	# shellcheck disable=SC2086
	if ! bench_load $params; then
		echo "E idx=$idx insmod $BENCH_KO $params failed"
		fail=1
		continue
	fi
	if [ -n "${h_bisect:-}" ]; then
		bisect || fail=1
		bench_unload || { echo "E idx=$idx rmmod failed"; fail=1; }
		continue
	fi
	errs=
	if [ -n "${h_peer:-}" ]; then
		peer_once "${h_drain:-live}"
		# shellcheck disable=SC2086
		emit_run "$idx" $desc $params $peer_keys
		[ -z "$errs" ] || { echo "E idx=$idx ${errs#; }"; fail=1; }
		peer_progress "$idx" "q=${h_q:-?} variant=$h_variant writers=${p_writers:-?} rec_size=${p_rec_size:-?} rep=${h_rep:-1}"
		bench_unload || { echo "E idx=$idx rmmod failed"; fail=1; }
		continue
	fi
	case "${h_drain:-none}" in
	live) reader_start "${h_reader:-}" "$([ "${h_dcpu:--}" = - ] || echo "$h_dcpu")" ||
		errs="$errs; the reader did not start: $(cat /tmp/rec.txt)" ;;
	esac
	bench_run || errs="$errs; the run failed"
	# shellcheck disable=SC2046	# reader_opt: no option, or one
	case "${h_drain:-none}" in
	live) rec_wait >/tmp/rec.msg || errs="$errs; $(cat /tmp/rec.msg)" ;;
	after) rec_dump $(reader_opt "${h_reader:-}") >/tmp/rec.msg || errs="$errs; $(cat /tmp/rec.msg)" ;;
	esac
	case "${h_drain:-none}" in
	live|after) verify "$(param run_id)" >/tmp/verify.msg || errs="$errs; $(cat /tmp/verify.msg)" ;;
	esac
	# shellcheck disable=SC2086
	emit_run "$idx" $desc $params
	if [ -n "$errs" ]; then
		echo "E idx=$idx ${errs#; }"
		fail=1
	fi
	progress "$idx" "q=${h_q:-?}${ko:+ ko=$ko} mode=${p_mode:-?} flight=${p_flight:-0} writers=${p_writers:-?} rec_size=${p_rec_size:-?}$([ "${p_rate:-0}" = 0 ] || echo " rate=$p_rate") rep=${h_rep:-1}"
	bench_unload || { echo "E idx=$idx rmmod failed"; fail=1; }
done </extra/runs.txt
exit $fail
