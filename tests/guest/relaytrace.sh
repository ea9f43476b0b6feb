#!/bin/sh
# Guest tests of relaytrace, the consumer of the traces (KTAP): every
# sub-command, its errors, and records of a known provider (trace_test.ko:
# "%08u\n", numbered across the trace in the order written) captured
# exactly, with both readers.  Runs in the test VM, as root, from /extra
# with relaytrace, trace_test.ko and fork_trace.ko beside it.
#
# Usage: sh /extra/relaytrace.sh [GROUP...]: by default all of them.
# RELAYTRACE=PATH tests another build of it (the 32-bit one: the ioctls'
# compat path and the UAPI's layout as i386 lays it out).
set -u
. /extra/ktap.sh
ALL_GROUPS="list_control record_modes sessions dump_flight no_header cleanup full errors safety"

RT=${RELAYTRACE:-/extra/relaytrace}
NAME="$(basename "$RT") tests"
# Its files, apart from another build's run in the same boot.
TD=/tmp/$(basename "$RT")
rm -rf "$TD" && mkdir -p "$TD" || exit 1
D=/sys/kernel/tracing/relay
T=$D/relay_trace_test/t
N=relay_trace_test/t
P=/sys/module/trace_test/parameters
ncpu=$(grep -c ^processor /proc/cpuinfo)
# relay_trace_setup() flags
GLOBAL=1 FLIGHT=2 NOSTATE=4 HEADER=8

fatal() { not_ok "set-up: $1"; ktap_done "$NAME"; exit 1; }
load() { out=$(insmod /extra/trace_test.ko "$@" 2>&1) || fatal "insmod trace_test.ko $* failed: $out"; }
unload() { rmmod trace_test 2>/dev/null; true; }
show() { sed 's/^/# /' "$@"; }
# emit CPU N: trace_test writes N records from CPU CPU.
emit() { taskset -c "$1" sh -c "echo $2 >$P/emit"; }
# rt ARGS...: relaytrace, its output in $TD/rt.out, its status in $rc.
rt() { $RT "$@" >$TD/rt.out 2>&1; rc=$?; }
has() { grep -q "$1" $TD/rt.out || { echo "# no '$1' in:"; show $TD/rt.out; return 1; }; }
key() { sed -n "s/^$2=//p" "$1/info"; }

# The records of a recording, as "cpu seq number" lines, from relaytrace
# report --json, in the report's order (merged by time).
records() {
	$RT report --json "$1" | awk -F'[:,"]+' '/"ts"/ {
		for (k in v) delete v[k]
		for (i = 1; i < NF; i++) v[$i] = $(i + 1)
		n = v["text"]; sub(/\\n$/, "", n); sub(/^0+/, "", n)
		print v["cpu"], v["seq"], n + 0 }'
}

# exact DIR WRITTEN [NUMBERED]: DIR holds exactly the records written,
# WRITTEN of them, each numbered below NUMBERED (WRITTEN: a refused write
# takes a number too): each once, in order within its buffer (numbers and
# sequence numbers going up, and no "backwards" event in the report).
exact() {
	records "$1" >$TD/recs
	sort -n -k3 $TD/recs | awk -v want="$2" -v top="${3:-$2}" '
		{ if ($3 == prev && NR > 1) dup++; prev = $3; if ($3 + 0 >= top + 0) out++ }
		END { if (NR != want || dup || out) {
			print "# " NR " records, " dup + 0 " twice, " out + 0 " numbered " top " or more; want " want
			exit 1 } }' &&
	awk '{ if (($1 in n) && ($3 + 0 <= n[$1] || $2 + 0 <= s[$1])) { print "# CPU " $1 ": " $3 " after " n[$1]; bad = 1 }
	       n[$1] = $3 + 0; s[$1] = $2 + 0 }
	     END { exit bad }' $TD/recs &&
	! $RT report --json "$1" | grep -q '"event":"backwards"'
}

# contiguous DIR: "yes" if DIR holds records, numbered one after the other.
contiguous() {
	records "$1" | awk 'NR == 1 { f = $2 } { if ($2 != f + NR - 1) bad = 1 }
		END { print (bad || NR == 0) ? "no" : "yes" }'
}

# count DIR: the number of records in DIR.
count() { records "$1" | wc -l; }

# --- list, start, stop, status ------------------------------------------
list_control() {
	load flags=$HEADER ntraces=2 subbuf_size=512 n_subbufs=4
	insmod /extra/fork_trace.ko
	rt list
	check "list: one line per trace, ROOT/NAME, state, mode, flight, geometry, counters" \
		has "^relay_trace_test/t  not-started  percpu  no-flight  4 x 512  dropped 0  refused 0  header$"
	check "list: the second trace of the root" has "^relay_trace_test/t1  not-started"
	check "list: a flight trace has no dropped counter" \
		has "^trace_example/kernel_clone  running  global  flight  .*  dropped -  refused 0$"
	check "list: 3 lines" eq "$(grep -c . $TD/rt.out)" 3
	rmmod fork_trace
	rt start $N
	check "start: exit 0, state running" eq "$rc $(cat $T/state)" "0 running"
	rt start $N
	check "start a running trace: exit 1, says so" eq "$rc $(has 'already running' && echo said)" "1 said"
	rt status $N
	check "status: state, flags, buffers, counters" \
		sh -c "grep -q '^state: *running' $TD/rt.out && grep -q '^flags: *percpu header' $TD/rt.out &&
		       grep -q '^buffers: *$ncpu x 4 sub-buffers of 512 bytes: trace0' $TD/rt.out && grep -q '^dropped: *0' $TD/rt.out"
	rt stop $N
	check "stop: exit 0, state stopped" eq "$rc $(cat $T/state)" "0 stopped"
	rt stop $N
	check "stop a stopped trace: exit 1, says so" eq "$rc $(has 'is not running' && echo said)" "1 said"
	unload
	load flags=$NOSTATE
	rt start $N
	check "start a trace that refuses state changes: exit 1, says why" \
		eq "$rc $(has 'refuses state changes' && echo said)" "1 said"
	unload
}

# --- record, both readers: every record once, drops counted exactly ----
# size FILE: its size in bytes, 0 if missing.
size() { stat -c %s "$1" 2>/dev/null || echo 0; }
# wait_for SECONDS COMMAND...: until COMMAND succeeds; the time only
# decides a failure.
wait_for() {
	t=$1
	shift
	while ! "$@"; do
		[ "$t" -gt 0 ] || return 1
		sleep 1
		t=$((t - 1))
	done
}
# read_all DIR BYTES: every traceN of DIR holds BYTES.
read_all() {
	for f in "$1"/trace*; do [ "$(size "$f")" = "$2" ] || return 1; done
}
record_modes() {
	for m in mmap read; do
		# 4 sub-buffers of 256 bytes: 5 records of 32 + 9 bytes each,
		# padded to 48.
		load flags=$HEADER subbuf_size=256 n_subbufs=4
		$RT start $N
		# Nothing reads yet: each buffer keeps 20 of 100, 80 dropped.
		i=0
		while [ $i -lt "$ncpu" ]; do
			emit $i 100
			i=$((i + 1))
		done
		$RT record --$m -o $TD/rec-$m $N >$TD/rec.out 2>&1 &
		rp=$!
		wait_for 60 read_all $TD/rec-$m $((20 * 48)) ||
			not_ok "record --$m: read the 20 records of each buffer within 60 s"
		# Then 10 more each, after the gap of the 80 dropped.
		i=0
		while [ $i -lt "$ncpu" ]; do
			emit $i 10
			i=$((i + 1))
		done
		$RT stop $N
		wait $rp
		rc=$?
		written=$(cat $P/written) failed=$(cat $P/failed)
		check "record --$m: ends when the trace stops, exit 0" eq "$rc $(key $TD/rec-$m end)" "0 stopped"
		check "record --$m: 30 of 110 records written per buffer, 80 dropped" \
			eq "$written $failed" "$((30 * ncpu)) $((80 * ncpu))"
		check "record --$m: every record written is there once, in order per buffer" \
			exact $TD/rec-$m "$written" "$((written + failed))"
		check "record --$m: info says the mode, and the drops before and after" \
			eq "$(key $TD/rec-$m mode) $(key $TD/rec-$m dropped_start) $(key $TD/rec-$m dropped_end)" \
			"$m $failed $failed"
		cp $TD/rec.out $TD/rt.out
		check "record --$m: the summary counts the records ($written)" has "Total: .* $written records"
		check "record --$m: the summary counts no drop while it ran" has "  0 records dropped (0.00 %)"
		check "record --$m: the summary counts the gaps in the numbers ($failed)" \
			has "  $failed missing from the sequence numbers"
		$RT report $TD/rec-$m >$TD/report.out
		check "report --$m: CPU 0 lost the 80 records between its 20th and its 101st" \
			grep -q "^CPU 0: 80 records lost" $TD/report.out
		check "report --$m: CPU $((ncpu - 1)): 30 records, 80 lost" \
			grep -q "^CPU $((ncpu - 1)): 30 records, 80 lost" $TD/report.out
		unload
	done
}

# --- successive sessions, either reader, one ended by SIGINT: no record
# read twice, none skipped ------------------------------------------------
sessions() {
	load flags=$HEADER subbuf_size=4096 n_subbufs=8
	$RT start $N
	(while [ ! -e $TD/stop-emit ]; do emit 1 20; emit 2 20; usleep 20000; done) &
	ep=$!
	rm -f $TD/stop-emit
	# Each session has records of its own to read, whatever the speeds:
	# a batch written before it starts.
	emit 3 50
	$RT record --mmap -w 1 -o $TD/s1 $N >/dev/null 2>&1
	r1=$?
	emit 3 50
	$RT record --read -w 1 -o $TD/s2 $N >/dev/null 2>&1
	r2=$?
	emit 3 50
	$RT record --mmap -o $TD/s3 $N >/dev/null 2>&1 &
	rp=$!
	# relaytrace handles SIGINT itself, once it has set its handler:
	# before, it ignores SIGINT, as this shell's background jobs do, and
	# would never end.  It writes its info file after it set the handler:
	# the signal waits for that, not for a time (a debug kernel under
	# TCG can take longer than any sleep).
	wait_for 120 test -s $TD/s3/info ||
		not_ok "sessions: relaytrace record wrote no $TD/s3/info in 120 s"
	kill -INT $rp
	wait $rp
	r3=$?
	touch $TD/stop-emit
	wait $ep
	$RT stop $N
	$RT dump --read -o $TD/s4 $N >/dev/null 2>&1
	r4=$?
	check "sessions: -w, -w, SIGINT, dump: exit 0 each, ended as said" \
		eq "$r1 $r2 $r3 $r4 $(key $TD/s1 end) $(key $TD/s3 end) $(key $TD/s4 end)" \
		"0 0 0 0 timeout signal drained"
	written=$(cat $P/written)
	mkdir -p $TD/sall
	for b in $(key $TD/s1 buffers); do
		cat $TD/s1/trace$b $TD/s2/trace$b $TD/s3/trace$b $TD/s4/trace$b >$TD/sall/trace$b
	done
	sed 's/^mode=.*/mode=all/' $TD/s1/info >$TD/sall/info
	check "sessions: none dropped" eq "$(cat $P/failed)" 0
	check "sessions: together, every record once and in order ($written)" exact $TD/sall "$written"
	check "sessions: each read records of its own" [ -s $TD/s1/trace3 -a -s $TD/s2/trace3 -a -s $TD/s3/trace3 ]
	unload
}

# --- a flight recorder: dump, rewind, and reading it live ---------------
dump_flight() {
	load flags=$((FLIGHT | HEADER)) subbuf_size=256 n_subbufs=4
	$RT start $N
	emit 1 200
	rt record --mmap -w 1 -o $TD/d0 $N
	check "record --mmap of a running flight trace: exit 0, what the buffer held, contiguous" \
		eq "$rc $(contiguous $TD/d0)" "0 yes"
	emit 1 200
	$RT stop $N
	rt dump -o $TD/d1 $N
	records $TD/d1 >$TD/d1.recs
	last=$(tail -1 $TD/d1.recs | cut -d' ' -f3)
	check "dump: exit 0, mmap, the newest records of CPU 1, the last one written last" \
		eq "$rc $(key $TD/d1 mode) $last" "0 mmap 399"
	first=$(head -1 $TD/d1.recs | cut -d' ' -f2)
	check "dump: contiguous and in order from the oldest kept" \
		awk -v f="$first" '{ if ($2 != f + NR - 1) { print "# " $0; bad = 1 } } END { exit bad }' $TD/d1.recs
	$RT report $TD/d1 >$TD/report.out
	check "report of a flight dump: 'overwritten before N', not a loss" \
		sh -c "grep -q '^CPU 1: overwritten before $first\$' $TD/report.out && ! grep -q ': [0-9]* records lost' $TD/report.out"
	rt dump -o $TD/d2 $N
	check "dump again: nothing left" eq "$rc $(cat $TD/d2/trace* | wc -c)" "0 0"
	rt dump --rewind -o $TD/d3 $N
	check "dump --rewind: the same records again" cmp $TD/d1/trace1 $TD/d3/trace1
	$RT start $N
	rt record -w 1 -o $TD/d4 $N
	check "record of a running flight trace: through the mapping by default, exit 0" \
		eq "$rc $(key $TD/d4 mode)" "0 mmap"
	unload
}

# --- no headers: each buffer in order, text line by line ---------------
no_header() {
	load flags=$GLOBAL
	$RT start $N
	echo 12 >$P/emit
	$RT stop $N
	rt dump -s 9 -o $TD/nh $N
	check "dump -s 9: counts 12 records of a trace without headers" has "Total: .* 108 bytes .* 12 records"
	$RT report $TD/nh >$TD/report.out
	check "report without headers: the text, line by line" \
		sh -c "[ \$(grep -cE '^[0-9]{8}\$' $TD/report.out) = 12 ] && grep -q '^00000011\$' $TD/report.out"
	unload
}

# --- the trace cleaned up while recording ------------------------------
cleanup() {
	load flags=$((GLOBAL | HEADER))
	$RT start $N
	$RT record -o $TD/cl $N >$TD/rec.out 2>&1 &
	rp=$!
	# Cleaned up once relaytrace records (it writes its info file then),
	# not after a time: a debug kernel under TCG is slower than any sleep.
	wait_for 120 test -s $TD/cl/info ||
		not_ok "cleaned up while recording: relaytrace record wrote no $TD/cl/info in 120 s"
	echo 20 >$P/emit
	rmmod trace_test
	wait $rp
	rc=$?
	check "cleaned up while recording: exit 3, says what was read is whole" \
		sh -c "[ $rc = 3 ] && grep -q 'cleaned up while recording' $TD/rec.out" || show $TD/rec.out
	check "cleaned up while recording: the 20 records read are in the files" exact $TD/cl 20
}

# --- the output fills up -----------------------------------------------
full() {
	mkdir -p $TD/small
	mount -t tmpfs -o size=16k tmpfs $TD/small
	load flags=$((GLOBAL | HEADER)) subbuf_size=4096 n_subbufs=16
	$RT start $N
	# 1300 records of 48 bytes: 85 a sub-buffer, none dropped.
	echo 1300 >$P/emit
	$RT stop $N
	rt dump -o $TD/small/r $N
	check "output full: exit 4, names the buffer and the byte" \
		sh -c "[ $rc = 4 ] && grep -q 'small/r/trace0: No space left on device at byte [0-9]*: the file ends with the record before it' $TD/rt.out" ||
		show $TD/rt.out
	$RT report $TD/small/r >$TD/report.out
	refused "output full: the file ends with a whole record" grep -q 'not a whole record' $TD/report.out
	rt dump -o $TD/rest $N
	cp $TD/small/r/trace0 $TD/both0
	cat $TD/rest/trace0 >>$TD/both0
	mkdir -p $TD/both && mv $TD/both0 $TD/both/trace0 && cp $TD/rest/info $TD/both/info
	check "output full: what was not written stayed in the buffer for the next recording" exact $TD/both 1300
	umount $TD/small
	unload
}

# --- errors -----------------------------------------------------------------
errors() {
	rt record no/such
	check "no such trace: exit 1, says so" eq "$rc $(has 'no such trace: no/such' && echo said)" "1 said"
	rt status notatrace
	check "not ROOT/NAME: exit 2" eq "$rc" 2
	rt frobnicate
	check "unknown command: exit 2" eq "$rc" 2
	for c in list start stop status record dump report; do
		rt $c --help
		check "$c --help: exit 0, usage" eq "$rc $(has '^usage: relaytrace' && echo said)" "0 said"
	done
	rt report /tmp
	check "report of a folder that is no recording: exit 1, says so" \
		eq "$rc $(has 'not a relaytrace recording' && echo said)" "1 said"
	load flags=$HEADER
	$RT start $N
	nobody() { su -s /bin/sh nobody -c "$RT $*" >$TD/rt.out 2>&1; rc=$?; }
	for c in list "status $N" "start $N" "stop $N" "record -w 1 -o $TD/nb $N" "dump -o $TD/nb $N"; do
		nobody $c
		check "not root: '$c' refused, exit 1, says root is needed" \
			eq "$rc $(has 'needs root' && echo said)" "1 said"
	done
	check "not root: the trace still runs" eq "$(cat $T/state)" running
	unload
}

# --- never destroy data: an earlier recording, the start, the limits, a
# crash ---------------------------------------------------------------------
safety() {
	load flags=$((GLOBAL | HEADER)) subbuf_size=4096 n_subbufs=4
	$RT start $N
	echo 10 >$P/emit
	$RT stop $N
	rt dump -o $TD/r1 $N
	$RT start $N
	echo 5 >$P/emit
	$RT stop $N
	rt dump -o $TD/r1 $N
	check "an earlier recording: refused, exit 1, says so; its 10 records kept" \
		eq "$rc $(has 'holds a recording' && echo said) $(count $TD/r1)" "1 said 10"
	rt dump -f -o $TD/r1 $N
	check "-f: replaces it, exit 0" eq "$rc $(count $TD/r1)" "0 5"
	# A stopped trace: waited for, until it runs and stops again.
	$RT record -o $TD/r2 $N >$TD/rt.out 2>&1 &
	rp=$!
	wait_for 120 grep -q 'waiting for it to start' $TD/rt.out || true
	check "record of a stopped trace: waits for it to start, and says so" \
		sh -c "kill -0 $rp && grep -q 'waiting for it to start' $TD/rt.out"
	# The whole run while relaytrace is stopped: it never sees the trace
	# running, whatever the speeds; it sees the writes to state.
	kill -STOP $rp
	$RT start $N
	echo 7 >$P/emit
	$RT stop $N
	kill -CONT $rp
	wait_for 120 sh -c "! kill -0 $rp 2>/dev/null" ||
		{ not_ok "record, then a run it did not see: still waits 120 s after the stop"; kill -9 $rp; }
	wait $rp
	rc=$?
	check "record, then a run it did not see: the records written in it, exit 0" \
		eq "$rc $(count $TD/r2) $(key $TD/r2 end)" "0 7 stopped"
	rt record --start -w 0.5 -o $TD/r3 $N
	check "record --start: starts it, and says so" eq "$rc $(has 'started' && echo said) $(cat $T/state)" "0 said running"
	$RT stop $N
	for w in inf 1e30 -1 0 nan 2e9 x; do
		rt record -w $w -o $TD/rw $N
		check "-w $w: refused, exit 2" eq "$rc $(has 'wants seconds' && echo said)" "2 said"
	done
	# The file size limit: EFBIG, as a full disk; cut back to a record.
	$RT start $N
	echo 300 >$P/emit
	$RT stop $N
	sh -c "ulimit -f 8; exec $RT dump -o $TD/r4 $N" >$TD/rt.out 2>&1
	rc=$?
	check "past RLIMIT_FSIZE: exit 4, says the file is too large" \
		sh -c "[ $rc = 4 ] && grep -q 'File too large' $TD/rt.out" || show $TD/rt.out
	$RT report $TD/r4 >$TD/report.out
	refused "past RLIMIT_FSIZE: the file ends with a whole record" grep -q 'not a whole record' $TD/report.out
	rt dump -o $TD/r5 $N
	check "past RLIMIT_FSIZE: what was not written is read by the next recording" \
		eq "$(( $(count $TD/r4) + $(count $TD/r5) ))" 300
	# A crash between the write and the CONSUME: the next recording reads
	# the chunk again; report of both drops the repeats, nothing lost.
	$RT start $N
	echo 40 >$P/emit
	$RT stop $N
	RELAYTRACE_TEST_CRASH=1 $RT dump --mmap -o $TD/c1 $N >/dev/null 2>&1
	crc=$?
	rt dump --mmap -o $TD/c2 $N
	$RT report $TD/c1 $TD/c2 >$TD/report.out
	check "crash after write, before CONSUME (mmap): the next recording repeats the chunk" \
		eq "$crc $(count $TD/c1) $(count $TD/c2)" "9 40 40"
	check "report of both: 40 records, the 40 repeated ones dropped and counted" \
		grep -q "^global buffer: 40 records, 0 lost, 40 repeated records dropped" $TD/report.out ||
		show $TD/report.out
	$RT start $N
	echo 40 >$P/emit
	$RT stop $N
	RELAYTRACE_TEST_CRASH=1 $RT dump --read -o $TD/c3 $N >/dev/null 2>&1
	crc=$?
	rt dump --read -o $TD/c4 $N
	check "crash after read, before the write (read(2)): the chunk is lost" \
		eq "$crc $(cat $TD/c3/trace0 | wc -c) $(count $TD/c4)" "9 0 0"
	unload
}

# shellcheck disable=SC2048 # the groups are words
for g in ${*:-$ALL_GROUPS}; do
	case " $ALL_GROUPS " in
	*" $g "*) "$g" ;;
	*) not_ok "unknown group '$g' (groups: $ALL_GROUPS)" ;;
	esac
done
ktap_done "$NAME"
