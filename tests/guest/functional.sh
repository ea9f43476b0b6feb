#!/bin/sh
# Guest functional tests of the relay_trace debugfs interface (KTAP).
# Runs in the test VM, as root, from /extra with trace_test.ko and
# fork_trace.ko beside it.
set -u
. /extra/ktap.sh

D=/sys/kernel/debug
ROOT=$D/relay_trace_test
T=$ROOT/t
P=/sys/module/trace_test/parameters

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
load subbuf_size=4096 n_subbufs=8
ncpu=$(grep -c ^processor /proc/cpuinfo)
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

# --- a full non-flight global trace: read + dropped = written -------------
# 64-byte sub-buffers hold 7 records of 9 bytes: 14 fit in two.
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

# --- flight recorder: newest records, rewind ------------------------------
# 90-byte sub-buffers hold 10 records; 4 of them keep the newest 30.
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
check "after rewind while running, newest records through 1004 in order" \
	consecutive 980 1004 <<EOT
$(seqs $T/trace0)
EOT
unload

# --- TRACE_DISABLE_STATE -------------------------------------------------
load flags=4
check "disable-state trace: state is read-only (400)" eq "$(mode $T/state)" 400
refused "disable-state trace: writing 'start' is refused" wr $T/state start
check "disable-state trace: state unchanged" eq "$(state $T)" "trace not started"
unload

# --- permissions ----------------------------------------------------------
load
wr $T/state start
echo 3 >$P/emit
# debugfs is 0700 by default; open it up so that the files' own modes are
# what keeps user nobody out.
mount -o remount,mode=755 $D
nobody() { su -s /bin/sh nobody -c "$1" >/dev/null 2>&1; }
refused "user nobody cannot read trace data" nobody "cat $T/trace0"
refused "user nobody cannot read state" nobody "cat $T/state"
refused "user nobody cannot stop the trace" nobody "printf stop > $T/state"
check "state unchanged by user nobody" eq "$(state $T)" running
refused "user nobody cannot read dropped" nobody "cat $T/dropped"
mount -o remount,mode=700 $D
unload

# --- several traces under one root --------------------------------------
load ntraces=3
check "three traces share one root" [ -d $ROOT/t -a -d $ROOT/t1 -a -d $ROOT/t2 ]
unload
check "the root goes with the last trace" [ ! -e $ROOT ]

# --- cleanup while files are open ---------------------------------------
load
wr $T/state start
echo 10 >$P/emit
exec 3<$T/state 4<$T/trace0
unload
check "files are gone after cleanup" [ ! -e $ROOT ]
refused "reading state through an fd opened before cleanup fails" sh -c 'cat <&3'
refused "reading trace0 through an fd opened before cleanup fails" sh -c 'cat <&4'

exec 3<&- 4<&-

# --- the fork_trace sample ----------------------------------------------
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

ktap_done "guest tests"
