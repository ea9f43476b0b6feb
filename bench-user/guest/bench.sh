#!/bin/sh
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
# once the writers stopped; drain=live reads it while they write, on vCPU
# dcpu; drain=none has no reader (mode=ftrace checks its ring buffer
# itself; mode=none writes nothing).  ko=a or ko=b (make bench-ab) loads
# /extra/relay_bench-a.ko or -b.ko instead.  The R line repeats the whole
# line's words, which the host checks against runs.txt.
set -u
. /extra/lib.sh

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

emit_meta
fail=0
while IFS= read -r line; do
	case "$line" in ''|\#*) continue ;; esac
	harness=${line%%|*}
	params=${line#*|}
	unset h_idx h_of h_q h_rep h_drain h_dcpu h_ko p_mode p_flight p_writers p_rec_size p_rate
	# shellcheck disable=SC2086
	if ! words h $harness || ! words p $params; then
		fail=1
		continue
	fi
	idx=${h_idx:-?} ko=${h_ko:-} desc=
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
	errs=
	case "${h_drain:-none}" in
	after) drain_start -a || errs="$errs; relay-drain did not start: $(cat /tmp/drain.err)" ;;
	live) drain_start -c "${h_dcpu:-}" || errs="$errs; relay-drain did not start: $(cat /tmp/drain.err)" ;;
	esac
	bench_run || errs="$errs; the run failed"
	drain_wait >/tmp/drain.msg || errs="$errs; $(cat /tmp/drain.msg)"
	# shellcheck disable=SC2086
	emit_run "$idx" $desc $params
	if [ -n "$errs" ]; then
		echo "E idx=$idx ${errs#; }"
		fail=1
	fi
	awk -v ok="$(param res_ok)" -v ns="$(param res_ns)" -v att="$(param res_attempted)" \
	    -v tag="[$idx/${h_of:-?}] q=${h_q:-?}${ko:+ ko=$ko} mode=${p_mode:-?} flight=${p_flight:-0} writers=${p_writers:-?} rec_size=${p_rec_size:-?}$([ "${p_rate:-0}" = 0 ] || echo " rate=$p_rate") rep=${h_rep:-1}" 'BEGIN {
		n = split(ok, a, ","); split(ns, b, ","); split(att, c, ",")
		for (i = 1; i <= n; i++) { s += a[i]; t += c[i]; if (b[i] > m) m = b[i] }
		printf "%s ... %.2f M ok/s, %d of %d writes refused\n", tag,
			m ? s / m * 1000 : 0, t - s, t }'
	bench_unload || { echo "E idx=$idx rmmod failed"; fail=1; }
done </extra/runs.txt
exit $fail
