# shellcheck shell=sh
# The benchmark's peers: the systems that record relay_bench.ko's
# tracepoint relay_bench:relay_bench_rec (mode=event) instead of a relay
# trace, one file each in this directory (in the guest: $PEERS,
# /extra/peers/).  This file holds what they share, their contract and the
# dispatch.  bench.sh (busybox sh, set -u) sources it after lib.sh; the
# peer a run line names is sourced the first time it is named.
#
# Which peer a run uses comes from bench-user/report/variants.py: a
# variant's `peer` is the name of its file here (without .sh), and the
# plan puts it on the variant's run lines, with the variant's `guest`
# values after it, as peer=NAME[:ARG...] (peer=trace-cmd,
# peer=bpf-ringbuf:shared).  bench.sh passes it on to peer_begin,
# peer_end and peer_clean below, which know no peer by name.
#
# THE CONTRACT.  A peer's file NAME.sh defines, with P for NAME with each
# "-" as "_" (trace-cmd: trace_cmd_begin):
#
#   P_begin HOW RUN SIZE WRITERS BYTES_PER_CPU [ARG...]
#       before the writers start: the system set up around the
#       tracepoint, with BYTES_PER_CPU of buffer per CPU (relay's:
#       subbuf_size x n_subbufs), for run id RUN, records of SIZE bytes
#       and WRITERS writers (on CPUs 0..WRITERS-1); ARGs are the peer=
#       word's.  HOW=live: its consumer started, and ready (it returns
#       once the consumer reads); HOW=after: recording, with nothing
#       reading until P_end (a system that cannot says so, as an E line,
#       and fails).
#   P_end HOW RUN SIZE WRITERS [ARG...]
#       once the writers stopped: the consumer stopped (live) or the
#       recording read (after), every record of it verified, and the
#       system torn down.  Also called, its output discarded, after a
#       P_begin that failed.
#   P_files
#       a variable: the recordings the peer leaves in $PEER_DIR, names
#       relative to it (globs allowed), which peer_clean removes once
#       they are verified.
#
# What they print: KEY=VALUE lines on stdout (no blanks in a value;
# per-CPU values comma-separated, CPU 0 first, over the CPUs named, or all
# CPUs), and errors as lines that start with "E "; a function returns
# non-zero after an error.  bench.sh keeps them in /tmp/peer.txt, prints
# the E lines as the run's errors, and takes two keys of P_end for the
# run's R line (the last of each), which it requires:
#   peer_lost    the system's own loss count, per writer's CPU (WRITERS
#                values): what closes the accounting, attempts = records
#                read + loss, per writer (bench-user/report/accounting.py)
#   peer_cpu_us  the consumer's CPU time, in us (0 with no consumer): the
#                CPU time of the process tree that records, from the
#                shell's count of its reaped children's time across the
#                wait for it (peer_ticks), all its life, the writing of
#                its output file included.  Decoding the recording
#                afterwards and bench-verify are decode_cpu_us, not the
#                consumer's.
# The other keys are the peer's own facts (its file names them).
#
# How records are decoded: P_end leaves in $PEER_DRAIN (/tmp/drain.txt)
# the reader's lines of relay_bench_check() (stream, writer, drain, text:
# bench-module/uapi/relay_bench.h), which bench.sh prints as the run's D
# lines.  Either the recording is decoded to text by the tool's own
# decoder and checked record by record by bench-verify --text (peer_decode
# or peer_verify_text below: the text must have the event's fields as the
# kernel prints them, and bench-verify.c's text parser must know the
# tool's lines), or the consumer verifies its records itself with the same
# checks (bench-ringbuf).
#
# Call peer_begin and peer_end in the shell that runs the benchmark, not
# in $(...): P_end waits for the consumer, which must be that shell's
# child, and counts its CPU time from that shell's own.  Redirect their
# output instead.  sh has no locals: the peers' functions set global
# variables, none of which bench.sh uses (pn, pfail, c, ...; a new one
# best named after its peer: tc_, perf_, bpf_, ...).
#
# Adding a peer: a file NAME.sh here, an entry in variants.py naming it
# (peer="NAME"), and, if bench-verify --text cannot read its tool's
# output, its parser in bench-verify.c.
PEERS=${PEERS:-/extra/peers}
PEER_DIR=${PEER_DIR:-/tmp/peer}
# shellcheck disable=SC2034	# the peers'
PEER_EVENT=relay_bench:relay_bench_rec
PEER_VERIFY=${PEER_VERIFY:-/extra/bench-verify}
PEER_DRAIN=${PEER_DRAIN:-/tmp/drain.txt}
PEER_TIMEOUT=${PEER_TIMEOUT:-120}	# s for a consumer to start or stop
pt_u=0 pt_s=0
peers_loaded=' '

# peer_cs: centiseconds since boot, in $pcs (no fork).
peer_cs() {
	read -r pcs _ </proc/uptime
	pcs=${pcs%.*}${pcs#*.}
	pcs=${pcs#"${pcs%%[!0]*}"}
	pcs=${pcs:-0}
}

# peer_ticks: the CPU time, user and sys in clock ticks (USER_HZ, 100 on
# x86), of this shell's children it has waited for, in $pt_u and $pt_s.
# Read without a fork: a subshell has its own children.
peer_ticks() {
	read -r pst </proc/self/stat
	pst=${pst##*) }
	# shellcheck disable=SC2086
	set -- $pst
	pt_u=${14} pt_s=${15}
}

# peer_ncpus [N]: N, or the CPUs the kernel has.
peer_ncpus() {
	if [ -n "${1:-}" ]; then echo "$1"; else grep -c ^processor /proc/cpuinfo; fi
}

# peer_wait PID WHAT: wait for PID (a child), killed after $PEER_TIMEOUT s;
# its status in $pw_rc.
peer_wait() {
	(sleep "$PEER_TIMEOUT"; kill -KILL "$1" 2>/dev/null) </dev/null >/dev/null 2>&1 &
	pw_dog=$!
	wait "$1"
	pw_rc=$?
	kill "$pw_dog" 2>/dev/null
	if [ "$pw_rc" = 137 ]; then
		echo "E $2 did not end within $PEER_TIMEOUT s: killed"
	fi
}

# peer_summary NCPUS: the reader's summary of $PEER_DRAIN, as KEY=VALUE
# lines: records (per writer, whole records of the run), torn stale
# partial backwards ts_back (all streams and writers), text_events
# text_unparsed text_badlen text_dups text_markers text_lost
# text_lost_unknown (bench-verify --text's "text" line of all streams).
peer_summary() {
	awk -v n="$1" '
		BEGIN { split("events unparsed badlen dups markers lost lost_unknown", k, " ") }
		function val(k,   i, a) { for (i = 2; i <= NF; i++) { split($i, a, "="); if (a[1] == k) return a[2] } return 0 }
		$1 == "writer" { rec[val("cpu")] += val("records"); back += val("backwards"); tsb += val("ts_back") }
		$1 == "stream" { torn += val("torn"); stale += val("stale"); partial += val("partial") }
		$1 == "text" && val("stream") == -1 { for (i = 1; i <= 7; i++) t[k[i]] = val(k[i]) }
		END {
			s = ""; for (c = 0; c < n; c++) s = s (c ? "," : "") (rec[c] + 0)
			print "records=" s
			print "torn=" torn + 0; print "stale=" stale + 0; print "partial=" partial + 0
			print "backwards=" back + 0; print "ts_back=" tsb + 0
			for (i = 1; i <= 7; i++) print "text_" k[i] "=" t[k[i]] + 0
		}' "$PEER_DRAIN"
}

# peer_verify_text TOOL RUN SIZE CMD...: CMD's output through bench-verify
# --text into $PEER_DRAIN, with the consumer's times ($pv_times); CMD's
# status in $pv_rc, bench-verify's in $pv_vrc, their CPU time in $pv_cpu.
peer_verify_text() {
	tool=$1 run=$2 size=$3
	shift 3
	peer_ticks
	pv_u=$pt_u pv_s=$pt_s
	rm -f "$PEER_DIR/$tool.rc"
	# shellcheck disable=SC2154	# pv_times: the caller's
	{ "$@" 2>"$PEER_DIR/$tool.err"; echo $? >"$PEER_DIR/$tool.rc"; } |
		"$PEER_VERIFY" -i "$run" -r "$size" -d -c "$pv_times" --text - >"$PEER_DRAIN" 2>"$PEER_DIR/verify.err"
	pv_vrc=$?
	peer_ticks
	pv_cpu=$(( (pt_u - pv_u + pt_s - pv_s) * 10000 ))
	pv_rc=$(cat "$PEER_DIR/$tool.rc" 2>/dev/null || echo 255)
}

# peer_decode TOOL KEY WHAT RUN SIZE NCPUS CMD...: a consumer's recording
# decoded by CMD (WHAT, in errors) and verified record by record
# (peer_verify_text, with the consumer's times in $pv_times): CMD's status
# as KEY, bench-verify's as verify_status, their CPU time as
# decode_cpu_us, then the reader's summary (peer_summary NCPUS).  Sets pn
# (the CPUs) and pfail (1 after an error).
# shellcheck disable=SC2034	# pn and pfail: the caller's
peer_decode() {
	pd_tool=$1 pd_key=$2 pd_what=$3 pd_run=$4 pd_size=$5
	pn=$(peer_ncpus "$6")
	shift 6
	pfail=0
	peer_verify_text "$pd_tool" "$pd_run" "$pd_size" "$@"
	echo "$pd_key=$pv_rc"
	echo "verify_status=$pv_vrc"
	echo "decode_cpu_us=$pv_cpu"
	[ "$pv_rc" = 0 ] || { echo "E $pd_what failed ($pv_rc): $(tail -3 "$PEER_DIR/$pd_tool.err" | tr '\n' ' ')"; pfail=1; }
	[ "$pv_vrc" = 0 ] || { echo "E bench-verify --text failed ($pv_vrc): $(cat "$PEER_DIR/verify.err")"; pfail=1; }
	peer_summary "$pn"
}

# --- the dispatch --------------------------------------------------------

# peer_load NAME[:ARG...]: $PEERS/NAME.sh sourced (once); its prefix in
# $pp, the ARGs, blank-separated, in $pargs.
peer_load() {
	pname=${1%%:*} pargs=
	case "$1" in *:*) pargs=$(echo "${1#*:}" | tr : ' ') ;; esac
	case "$pname" in
	''|*[!a-z0-9-]*) echo "E bad peer name '$pname' (peer=$1)"; return 1 ;;
	esac
	if [ ! -f "$PEERS/$pname.sh" ]; then
		pknown=
		for pf in "$PEERS"/*.sh; do
			pf=${pf##*/}
			[ "$pf" = common.sh ] || pknown="$pknown ${pf%.sh}"
		done
		echo "E no peer '$pname': no $PEERS/$pname.sh (there are:$pknown)"
		return 1
	fi
	pp=$(echo "$pname" | tr - _)
	case "$peers_loaded" in
	*" $pname "*) ;;
	*)	# shellcheck source=/dev/null
		. "$PEERS/$pname.sh"
		peers_loaded="$peers_loaded$pname " ;;
	esac
}

# peer_begin NAME[:ARG...] HOW RUN SIZE WRITERS BYTES_PER_CPU: the peer's
# P_begin (the contract above).
peer_begin() {
	mkdir -p "$PEER_DIR"
	peer_load "$1" || return 1
	# shellcheck disable=SC2086
	"${pp}_begin" "$2" "$3" "$4" "$5" "$6" $pargs
}

# peer_end NAME[:ARG...] HOW RUN SIZE WRITERS: the peer's P_end.
peer_end() {
	peer_load "$1" || return 1
	# shellcheck disable=SC2086
	"${pp}_end" "$2" "$3" "$4" "$5" $pargs
}

# peer_clean NAME[:ARG...]: the peer's recordings ($P_files) removed from
# $PEER_DIR.
peer_clean() {
	peer_load "$1" >/dev/null || return 0
	eval "pfiles=\${${pp}_files:-}"
	# shellcheck disable=SC2086	# its globs, expanded in $PEER_DIR
	[ -z "$pfiles" ] || (cd "$PEER_DIR" 2>/dev/null && rm -rf $pfiles)
}
