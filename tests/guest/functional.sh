#!/bin/sh
# Guest functional tests of the relay_trace tracefs interface (KTAP).
# Runs in the test VM, as root, from /extra with trace_test.ko,
# fork_trace.ko, pollwait and ufstall beside it.
#
# Usage: sh /extra/functional.sh [GROUP...]: the groups to run, in that
# order; by default all of them (ALL_GROUPS).
set -u
. /extra/ktap.sh
ALL_GROUPS="percpu global_full flight disable_state permissions roots cleanup_open cleanup_poll fork_trace rewind_poll rewind_stall stop_wakes_peek peek_signals epipe_readers"

TRACEFS=/sys/kernel/tracing
D=$TRACEFS/relay
ROOT=$D/relay_trace_test
T=$ROOT/t
P=/sys/module/trace_test/parameters
ncpu=$(grep -c ^processor /proc/cpuinfo)

# A set-up step that fails ends the tests with one message: what follows
# it would only fail for the same reason.
fatal() { not_ok "set-up: $1"; ktap_done "guest tests"; exit 1; }
load() { out=$(insmod /extra/trace_test.ko "$@" 2>&1) || fatal "insmod trace_test.ko $* failed: $out"; }
unload() { out=$(rmmod trace_test 2>&1) || fatal "rmmod trace_test failed: $out"; }
state() { cat "$1/state"; }
mode() { stat -c %a "$1"; }

# Write raw bytes (printf format) to a file in one write; succeed if the
# write succeeded.
wr() { printf "$2" >"$1" 2>/dev/null; }

# Sequence numbers found in the trace files given, one per line.
seqs() { cat "$@" | tr -d '\0' | grep -E '^[0-9]{8}$'; }

# Check that the given lines are consecutive numbers from $2 to $3.
consecutive() {
	awk -v first="$1" -v last="$2" '
		{ v = $1; sub(/^0+/, "", v); v = v + 0 }
		NR == 1 && v != first { print "# first " v ", want " first; bad = 1 }
		NR > 1 && v != prev + 1 { print "# gap after " prev ": " v; bad = 1 }
		{ prev = v }
		END { if (prev != last) { print "# last " prev ", want " last; bad = 1 }; exit bad }'
}

# --- a per-CPU, non-flight trace -------------------------------------------
percpu() {
	load subbuf_size=4096 n_subbufs=8
	files_ok=1
	i=0
	while [ $i -lt "$ncpu" ]; do
		[ -f "$T/trace$i" ] || files_ok=0
		i=$((i + 1))
	done
	check "per-CPU trace has trace0..trace$((ncpu - 1))" [ $files_ok = 1 -a ! -e "$T/trace$ncpu" ]
	check "non-flight trace has state, dropped, refused, nr_sub, sub_size and no rewind" \
		[ -f $T/state -a -f $T/dropped -a -f $T/refused -a -f $T/nr_sub -a -f $T/sub_size -a ! -e $T/rewind ]
	check "state is 'trace not started' after setup" eq "$(state $T)" "trace not started"
	check "nr_sub and sub_size readable before the first start" \
		eq "$(cat $T/nr_sub) $(cat $T/sub_size)" "8 4096"
	check "file modes: state 600, trace0/dropped/refused/nr_sub/sub_size 400" \
		eq "$(mode $T/state) $(mode $T/trace0) $(mode $T/dropped) $(mode $T/refused) $(mode $T/nr_sub) $(mode $T/sub_size)" \
		"600 400 400 400 400 400"
	echo 5 >$P/emit
	check "records are refused before start" eq "$(cat $P/written) $(cat $P/failed)" "0 5"
	refused "stop before start is refused" wr $T/state 'stop'
	check "writing 'start' starts the trace" wr $T/state 'start\n'
	check "state reads 'running'" eq "$(state $T)" "running"
	refused "'start' while running is refused" wr $T/state 'start'

	for bad in 'star' 'startx' 'START' ' start' 'start\n\n' 'stop now' \
		   'sta\000rt' 'start\000' 'running' '\n' 'start stop' \
		   'startstartstartstart'; do
		if wr $T/state "$bad"; then
			not_ok "bad write '$bad' to state is refused" "write succeeded"
		else
			check "bad write '$bad' to state is refused, state unchanged" \
				eq "$(state $T)" "running"
		fi
	done
	printf stop | dd of=$T/state bs=4 seek=1 conv=notrunc 2>/dev/null
	check "write at an offset is refused" eq "$(state $T)" "running"

	echo 1000 >$P/emit
	check "1000 records written while running" eq "$(cat $P/written)" 1000
	check "writing 'stop' stops the trace" wr $T/state 'stop'
	check "state reads 'stopped'" eq "$(state $T)" "stopped"
	refused "'stop' while stopped is refused" wr $T/state 'stop'
	seqs $T/trace* | sort -n >/tmp/seqs
	# Sequence numbers 0-4 went to the records refused before start.
	check "all 1000 records read back from the per-CPU files, once each" \
		consecutive 5 1004 </tmp/seqs
	check "nothing dropped" eq "$(cat $T/dropped)" 0
	check "reading again returns nothing (data consumed)" eq "$(cat $T/trace* | wc -c)" 0
	unload
	check "cleanup removes the root directory" [ ! -e $ROOT ]
}

# --- a full non-flight global trace: read + dropped = written -------------
# 64-byte sub-buffers hold 7 records of 9 bytes: 14 fit in two.
global_full() {
	load flags=1 subbuf_size=64 n_subbufs=2
	check "global trace has trace0 only" [ -f $T/trace0 -a ! -e $T/trace1 ]
	wr $T/state start
	echo 100 >$P/emit
	wr $T/state stop
	got=$(seqs $T/trace0 | wc -l)
	check "full buffer: 14 records kept" eq "$got" 14
	check "full buffer: dropped counts the other 86" eq "$(cat $T/dropped)" 86
	check "full buffer: read + dropped = written + failed" \
		eq $((got + $(cat $T/dropped))) $(($(cat $P/written) + $(cat $P/failed)))
	seqs $T/trace0 >/dev/null
	wr $T/state start
	echo 7 >$P/emit
	wr $T/state stop
	check "writing resumes once the reader drained the buffer" \
		eq "$(seqs $T/trace0 | tr '\n' ' ')" "00000100 00000101 00000102 00000103 00000104 00000105 00000106 "
	unload
}

# --- flight recorder: newest records, rewind ------------------------------
# 90-byte sub-buffers hold 10 records; 4 of them keep the newest 30.
flight() {
	load flags=3 subbuf_size=90 n_subbufs=4
	check "flight trace has rewind (200) and no dropped" \
		[ -f $T/rewind -a ! -e $T/dropped -a "$(mode $T/rewind)" = 200 ]
	refused "rewind before the first start is refused" wr $T/rewind 1
	wr $T/state start
	echo 1000 >$P/emit
	check "flight mode accepts every record" eq "$(cat $P/written)" 1000
	wr $T/state stop
	seqs $T/trace0 >/tmp/first
	check "flight mode keeps the newest 30 records, in order" consecutive 970 999 </tmp/first
	check "flight mode: nothing refused" eq "$(cat $T/refused)" 0
	check "rewind accepts '1'" wr $T/rewind '1\n'
	seqs $T/trace0 >/tmp/second
	check "after rewind the same records are read again" cmp -s /tmp/first /tmp/second
	# As in the 2007 interface, any write rewinds.
	for w in '2' 'rewind' 'anything at all' '\n'; do
		check "any write rewinds: '$w'" wr $T/rewind "$w"
		seqs $T/trace0 >/tmp/again
		check "after rewinding with '$w' the same records are read again" cmp -s /tmp/first /tmp/again
	done
	echo >$T/rewind
	check "echo > rewind rewinds" eq "$(seqs $T/trace0 | wc -l)" 30
	wr $T/state start
	echo 5 >$P/emit
	check "rewind of a running trace succeeds" wr $T/rewind 1
	check "rewind leaves a running trace running" eq "$(state $T)" running
	wr $T/state stop
	seqs $T/trace0 >/tmp/after
	check "after rewind while running, newest records through 1004 in order" \
		consecutive 980 1004 </tmp/after
	unload
}

# --- RELAY_TRACE_DISABLE_STATE -------------------------------------------------
disable_state() {
	load flags=4
	check "disable-state trace: state is read-only (400)" eq "$(mode $T/state)" 400
	refused "disable-state trace: writing 'start' is refused" wr $T/state start
	check "disable-state trace: state unchanged" eq "$(state $T)" "trace not started"
	unload
}

# --- permissions ----------------------------------------------------------
permissions() {
	load
	wr $T/state start
	echo 3 >$P/emit
	# tracefs is 0700 by default; open it up, and the trace's directories
	# (0750), so that the files' own modes are what keeps user nobody out.
	mount -o remount,mode=755 $TRACEFS
	chmod 755 $D $ROOT $T
	nobody() { su -s /bin/sh nobody -c "$1" >/dev/null 2>&1; }
	refused "user nobody cannot read trace data" nobody "cat $T/trace0"
	refused "user nobody cannot read state" nobody "cat $T/state"
	refused "user nobody cannot stop the trace" nobody "printf stop > $T/state"
	check "state unchanged by user nobody" eq "$(state $T)" running
	refused "user nobody cannot read dropped" nobody "cat $T/dropped"
	check "user nobody can list the open directories (the files' modes refused)" \
		nobody "ls $T/state"
	mount -o remount,mode=700 $TRACEFS
	unload
}

# --- several traces under one root --------------------------------------
roots() {
	load ntraces=3
	check "three traces share one root" [ -d $ROOT/t -a -d $ROOT/t1 -a -d $ROOT/t2 ]
	unload
	check "the root goes with the last trace" [ ! -e $ROOT ]
}

# --- cleanup while files are open ---------------------------------------
cleanup_open() {
	load flags=1
	wr $T/state start
	echo 10 >$P/emit
	exec 3<$T/state 4<$T/trace0 5<$T/dropped
	unload
	check "files are gone after cleanup" [ ! -e $ROOT ]
	refused "reading state through an fd opened before cleanup fails" sh -c 'cat <&3'
	refused "reading dropped through an fd opened before cleanup fails" sh -c 'cat <&5'
	# tracefs has no removal proxy: relay keeps the buffer of an open file.
	sh -c 'cat <&4' | tr -d '\0' | grep -E '^[0-9]{8}$' >/tmp/kept
	check "trace0 through an fd opened before cleanup reads the 10 records left" \
		consecutive 0 9 </tmp/kept
	exec 3<&- 4<&- 5<&-
}

# --- the fork_trace sample ----------------------------------------------
fork_trace() {
	S=$D/trace_example/kernel_clone
	insmod /extra/fork_trace.ko
	check "fork_trace: trace directory exists and runs" eq "$(state $S 2>/dev/null)" running
	pid=$(sh -c 'sleep 0 & wait; echo $$')
	check "fork_trace: the forking shell's PID $pid is in trace0" grep -qx "$pid" $S/trace0
	rmmod fork_trace
	check "fork_trace: files removed on rmmod" [ ! -e $D/trace_example ]
	insmod /extra/fork_trace.ko global=0 flight=0
	pid=$(sh -c 'sleep 0 & wait; echo $$')
	printf stop >$S/state
	check "fork_trace per-CPU: one file per CPU" [ -f $S/trace$((ncpu - 1)) ]
	check "fork_trace per-CPU: PID $pid read back from the per-CPU files" \
		sh -c "cat $S/trace* | grep -qx $pid"
	rmmod fork_trace
}

# --- waiting for other processes, without depending on speed -------------
# pstate PID: PID's state letter from /proc/PID/stat (R, S, D, Z...), or
# "gone" once it has exited and been reaped.
pstate() {
	{ read -r st_line </proc/$1/stat; } 2>/dev/null || { echo gone; return; }
	st_line=${st_line##*) }
	echo "${st_line%% *}"
}
asleep() { case $(pstate $1) in S | D) return 0 ;; esac; return 1; }
ended() { case $(pstate $1) in Z | gone) return 0 ;; esac; return 1; }
asleep_or_ended() { asleep $1 || ended $1; }
uptime_s() { read -r up_s _ </proc/uptime; echo "${up_s%.*}"; }

# wait_until SECS COMMAND...: run COMMAND every 0.1 s until it succeeds
# (status 0) or SECS seconds have passed (status 1).  The bound only ever
# decides a failure: a healthy run goes on as soon as COMMAND succeeds.
wait_until() {
	wu_end=$(($(uptime_s) + $1))
	shift
	until "$@"; do
		[ "$(uptime_s)" -lt $wu_end ] || return 1
		sleep 0.1
	done
}

# ends_within DESC PID: a check that PID ends within 20 s, else naming the
# state it is stuck in.
ends_within() {
	if wait_until 20 ended $2; then
		ok "$1"
	else
		not_ok "$1" "still blocked after 20 s (state $(pstate $2))"
	fi
}

# Lines of FILE, as KTAP diagnostics.
show() { sed 's/^/# /' "$1"; }

# --- a rewind wakes poll(2) sleepers --------------------------------------
# A reader drains trace0 of a stopped flight trace, then sleeps in poll(2)
# on it: it is seen asleep after it printed "polling", its last act before
# poll(2).  A rewind makes the records readable again and must wake it.
# pollwait's 20 s timeout only ends a poll(2) that was never woken (one
# that sees the data only when the timeout expires was not woken either).
poller_ready() { grep -q '^polling' /tmp/pw.out && asleep $1; }
poller_ready_or_ended() { poller_ready $1 || ended $1; }
# start_poller DESC POLLWAIT-ARGS...: pollwait in the background as $pw,
# output in /tmp/pw.out; "ok DESC" once it sleeps in poll(2), else
# "not ok DESC", the trace unloaded, and a failure returned.
start_poller() {
	desc=$1
	shift
	/extra/pollwait "$@" >/tmp/pw.out 2>&1 &
	pw=$!
	wait_until 20 poller_ready_or_ended $pw
	if poller_ready $pw; then
		ok "$desc"
		return 0
	fi
	not_ok "$desc" "pollwait is $(pstate $pw), not asleep in poll(2); its output:"
	show /tmp/pw.out
	kill $pw 2>/dev/null
	wait $pw
	unload
	return 1
}
rewind_poll() {
	load flags=3 subbuf_size=90 n_subbufs=4
	wr $T/state start
	echo 100 >$P/emit
	wr $T/state stop
	start_poller "rewind wakes poll: a poll(2) on the drained trace0 sleeps" \
		--drain --read --timeout 20 $T/trace0 || return
	drained=$(sed -n 's/^drained \([0-9]*\) bytes$/\1/p' /tmp/pw.out)
	check "rewind wakes poll: trace0 read(2) until it returned 0 gave the 30 records kept" \
		eq "$drained" 270
	check "rewind wakes poll: rewind succeeds while a reader sleeps in poll(2)" wr $T/rewind 1
	wait $pw
	rc=$?
	if [ $rc = 0 ]; then
		ok "rewind wakes poll: the rewind woke the poll(2) sleeper: $(grep '^revents' /tmp/pw.out)"
		echo "# $(grep '^slept' /tmp/pw.out)"
		check "rewind wakes poll: the woken reader reads the 270 bytes again" \
			grep -qx 'read 270 bytes' /tmp/pw.out
	else
		not_ok "rewind wakes poll: the rewind woke the poll(2) sleeper" \
			"not woken: pollwait exited $rc; its output:"
		show /tmp/pw.out
	fi
	unload
}

# --- a cleanup wakes poll(2) sleepers ---------------------------------------
# A reader sleeps in poll(2) on trace0 of an idle trace: no sub-buffer
# switch will wake it.  Cleaning the trace up closes the buffer, and must
# wake it (EPOLLERR).  pollwait's 20 s timeout only ends a poll(2) that
# was never woken.
cleanup_poll() {
	load flags=1
	wr $T/state start
	start_poller "cleanup wakes poll: a poll(2) on an idle trace0 sleeps" \
		--timeout 20 $T/trace0 || return
	unload
	wait $pw
	if grep -q '^revents.*POLLERR' /tmp/pw.out && ! grep -q '^timeout' /tmp/pw.out; then
		ok "cleanup wakes poll: the cleanup woke the poll(2) sleeper: $(grep '^revents' /tmp/pw.out)"
	else
		not_ok "cleanup wakes poll: the cleanup woke the poll(2) sleeper" "not woken; pollwait's output:"
		show /tmp/pw.out
	fi
}

# --- a reader stalled in copy_to_user() blocks neither state nor stop ------
# ufstall's read(2) of trace0 faults in copy_to_user() into memory that
# userfaultfd holds unresolved, so relay_file_read() stalls holding the
# file's inode lock, which a rewind needs.  A rewind started then waits for
# the reader; while it does, reading state and stopping the trace must not
# wait for it too.  The fault is resolved only once they have been checked
# (each given 20 s, a bound that only decides a failure).
ufstall_ready() { grep -q '^stalled' /tmp/uf.out; }
# on_inode_lock PID: PID sleeps in __relay_reset_consumed(), whose one
# sleep is for the inode lock of the relay file.  wchan names it, as it
# skips the lock's own functions, which the scheduler's section holds;
# on PREEMPT_RT the lock sleeps in rt_mutex_schedule(), which wchan
# names instead, and the kernel stack (CONFIG_STACKTRACE: the debug and
# RT kernels) shows __relay_reset_consumed() below it.
on_inode_lock() {
	{ [ "$(cat /proc/$1/wchan 2>/dev/null)" = __relay_reset_consumed ] ||
		grep -q '^\[<[0-9a-f]*>\] __relay_reset_consumed+' /proc/$1/stack 2>/dev/null; } && asleep $1
}
ufstall_ready_or_ended() { ufstall_ready || ended $1; }
rewind_stall_one() {
	m=$1
	load flags=3 subbuf_size=4096 n_subbufs=4
	wr $T/state start
	echo 100 >$P/emit
	[ $m = running ] || wr $T/state stop
	/extra/ufstall $T/trace0 4096 >/tmp/uf.out 2>&1 &
	uf=$!
	wait_until 20 ufstall_ready_or_ended $uf
	if ! ufstall_ready; then
		not_ok "stall, $m trace: a read(2) of trace0 stalls in copy_to_user() (userfaultfd)" \
			"ufstall is $(pstate $uf); its output:"
		show /tmp/uf.out
		kill $uf 2>/dev/null
		wait $uf
		unload
		return
	fi
	ok "stall, $m trace: a read(2) of trace0 stalls in copy_to_user() (userfaultfd): $(cat /tmp/uf.out)"

	# Each in a process of its own (exec), whose state is the writer's.
	# The rewind first sleeps in synchronize_rcu() (a running trace is
	# quiesced), then for the inode lock the stalled reader holds: a wait
	# that only the reader's release ends, which its kernel stack shows.
	(exec printf 1 >$T/rewind) 2>/tmp/rw.err &
	rw=$!
	wait_until 20 on_inode_lock $rw
	waits=$?
	echo "# the rewind: state $(pstate $rw), in $(cat /proc/$rw/wchan 2>/dev/null)"
	[ -r /proc/$rw/stack ] && sed 's/^/#   /' /proc/$rw/stack
	check "stall, $m trace: the rewind waits for the stalled reader: for the inode lock, in relay_reset_consumed()" \
		[ $waits = 0 ]
	(exec cat $T/state >/tmp/st.out) 2>/tmp/st.err &
	st=$!
	ends_within "stall, $m trace: 'cat state' returns while the rewind waits for the reader" $st
	if [ $m = running ]; then
		(exec printf stop >$T/state) 2>/tmp/sp.err &
		sp=$!
		ends_within "stall, running trace: 'stop' returns while the rewind waits for the reader" $sp
	fi

	kill -USR1 $uf
	wait $uf
	rc=$?
	if [ $rc = 0 ] && grep -qx 'resolving: the read is still stalled' /tmp/uf.out; then
		ok "stall, $m trace: the read, still stalled until then, completes once the fault is resolved"
	else
		not_ok "stall, $m trace: the read, still stalled until then, completes once the fault is resolved" \
			"ufstall exited $rc; its output:"
		show /tmp/uf.out
	fi
	check "stall, $m trace: the read returned the 100 records from the first" \
		grep -qx "read 900 bytes, first line '00000000'" /tmp/uf.out
	ends_within "stall, $m trace: the rewind completes once the reader is done" $rw
	blocked=
	for p in $rw $st ${sp:+$sp}; do
		wait_until 20 ended $p || blocked="$blocked $p ($(pstate $p))"
	done
	[ -z "$blocked" ] ||
		fatal "stall, $m trace: still blocked 20 s after the fault was resolved:$blocked; not unloading"
	wait $rw
	rc=$?
	check "stall, $m trace: the rewind succeeded" eq "$rc $(cat /tmp/rw.err)" "0 "
	wait $st
	rc=$?
	check "stall, $m trace: 'cat state' read '$m'" eq "$rc $(cat /tmp/st.out)" "0 $m"
	if [ $m = running ]; then
		wait $sp
		rc=$?
		check "stall, running trace: 'stop' succeeded" eq "$rc $(cat /tmp/sp.err)" "0 "
		sp=
	fi
	check "stall, $m trace: state reads 'stopped' in the end" eq "$(state $T)" stopped
	seqs $T/trace0 >/tmp/again
	check "stall, $m trace: after the rewind trace0 reads the 100 records again" \
		consecutive 0 99 </tmp/again
	echo 5 >$P/emit
	check "stall, $m trace: the stopped trace refuses records (the rewind did not restart it)" \
		eq "$(cat $P/written)" 100
	unload
}
rewind_stall() {
	sp=
	rewind_stall_one stopped
	rewind_stall_one running
}

# --- a stop wakes a PEEK that waits for buffer_percent ---------------------
# One sub-buffer of four ready, half wanted: a PEEK waits.  The trace
# stops with its current sub-buffer empty, so the stop's flush switches
# nothing, and no switch wakes the reader: the stop itself must, as the
# UAPI says ("or anything is once the trace is stopped").  pollwait's 20 s
# timeout only ends a PEEK that was never woken.
stop_wakes_peek() {
	load flags=1 subbuf_size=90 n_subbufs=4
	echo 50 >$T/buffer_percent
	wr $T/state start
	echo 5 >$P/emit
	# The stop finishes sub-buffer 0; after the start the current is empty.
	wr $T/state stop
	wr $T/state start
	start_poller "stop wakes PEEK: a PEEK waiting for half the buffer sleeps" \
		--peek --timeout 20 $T/trace0 || return
	wr $T/state stop
	wait $pw
	if [ $? = 0 ] && grep -qx 'peek len 45' /tmp/pw.out; then
		ok "stop wakes PEEK: the stop woke it, with the 5 records: $(grep '^slept' /tmp/pw.out)"
	else
		not_ok "stop wakes PEEK: the stop woke it, with the 5 records" "pollwait's output:"
		show /tmp/pw.out
	fi
	unload
}

# --- a signal while PEEK waits ---------------------------------------------
# A PEEK waits on an empty trace.  A signal whose handler was set with
# SA_RESTART, and a stop and a continue, must restart it (as read(2) of a
# pipe is), where it waits again; a handler without SA_RESTART ends it with
# EINTR.  The trace then gets 5 records and stops, which wakes the PEEK.
peek_signal_one() {
	how=$1
	load flags=1 subbuf_size=90 n_subbufs=4
	echo 100 >$T/buffer_percent
	wr $T/state start
	case $how in
	stopcont) start_poller "PEEK and SIGSTOP/SIGCONT: a PEEK waits" --peek --timeout 20 $T/trace0 || return ;;
	*) start_poller "PEEK and a handler ($how): a PEEK waits" --peek --signal $how --timeout 20 $T/trace0 || return ;;
	esac
	case $how in
	stopcont) kill -STOP $pw; sleep 0.3; kill -CONT $pw ;;
	*) kill -USR1 $pw ;;
	esac
	sleep 0.5
	echo 5 >$P/emit
	wr $T/state stop
	wait $pw
	rc=$?
	case $how in
	intr)
		check "PEEK and a handler without SA_RESTART: EINTR" \
			grep -q '^peek: Interrupted system call' /tmp/pw.out ;;
	*)
		if [ $rc = 0 ] && grep -qx 'peek len 45' /tmp/pw.out; then
			ok "PEEK and $how: restarted, it waited on and got the 5 records"
		else
			not_ok "PEEK and $how: restarted, it waited on and got the 5 records" \
				"pollwait exited $rc; its output:"
			show /tmp/pw.out
		fi ;;
	esac
	[ $how = stopcont ] || check "PEEK and a handler ($how): the handler ran once" grep -qx 'signals 1' /tmp/pw.out
	unload
}
peek_signals() {
	peek_signal_one restart
	peek_signal_one stopcont
	peek_signal_one intr
}

# --- generic readers of a flight trace, lapped inside a record -------------
# dd reads 4 bytes of the first 9-byte record and stops; the writers then
# lap the buffer.  The next read(2) must fail with EPIPE (dd: "Broken
# pipe"), once; then cat reads whole records from the oldest sub-buffer.
# A reader that read all there was is not told of a lap: it lost whole
# records only.
epipe_readers() {
	load flags=3 subbuf_size=90 n_subbufs=4
	wr $T/state start
	echo 15 >$P/emit
	check "EPIPE: dd reads 4 bytes, inside the first record" \
		eq "$(dd if=$T/trace0 bs=4 count=1 2>/dev/null)" "0000"
	echo 60 >$P/emit
	dd if=$T/trace0 bs=4096 count=1 of=/tmp/ep.out 2>/tmp/ep.err
	rc=$?
	if [ $rc != 0 ] && grep -q 'Broken pipe' /tmp/ep.err; then
		ok "EPIPE: the next read(2) of the lapped reader says so: $(head -1 /tmp/ep.err)"
	else
		not_ok "EPIPE: the next read(2) of the lapped reader says so" "dd exited $rc"
		show /tmp/ep.err
	fi
	seqs $T/trace0 >/tmp/ep.seq
	check "EPIPE: then cat reads whole records, up to the last, from a sub-buffer's start" \
		consecutive "$(head -1 /tmp/ep.seq | sed 's/^0*//; s/^$/0/')" 74 </tmp/ep.seq
	check "EPIPE: the first record cat read starts a sub-buffer (a multiple of 10)" \
		eq "$(($(head -1 /tmp/ep.seq | sed 's/^0*//; s/^$/0/') % 10))" 0
	echo 60 >$P/emit
	cat $T/trace0 >/tmp/ep.out 2>/tmp/ep.err
	rc=$?
	check "EPIPE: a reader that read all there was is not told of the next lap (cat exits $rc)" eq "$rc" 0
	seqs /tmp/ep.out >/tmp/ep.seq
	check "EPIPE: and reads whole records, up to the last" \
		consecutive "$(head -1 /tmp/ep.seq | sed 's/^0*//; s/^$/0/')" 134 </tmp/ep.seq
	unload
}

# shellcheck disable=SC2048 # the groups are words
for g in ${*:-$ALL_GROUPS}; do
	case " $ALL_GROUPS " in
	*" $g "*) "$g" ;;
	*) not_ok "unknown group '$g' (groups: $ALL_GROUPS)" ;;
	esac
done
ktap_done "guest tests"
