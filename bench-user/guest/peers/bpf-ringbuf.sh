# shellcheck shell=sh disable=SC2154	# pcs, pw_rc ...: common.sh's
# The peer bpf-ringbuf (variants.py: bpf-ringbuf, bpf-ringbuf-percpu):
# bench-ringbuf (bench-user/guest/bpf/), a BPF program on the raw
# tracepoint that copies each record into a BPF ring buffer, one shared
# (peer=bpf-ringbuf:shared) or one per CPU (peer=bpf-ringbuf:percpu), and
# its consumer, which records the ring buffers' samples to
# $PEER_DIR/bpf/ (live: ring_buffer__poll() while the writers write;
# after: nothing reads until it is stopped, then it drains what the ring
# buffers hold).  The contract (begin, end, files, what it prints) is
# common.sh's; sourced after it, and after lib.sh (wait_line).
#
# It verifies its recording itself, with relay_bench_check() as
# bench-verify does, once stopped and the recording closed: its stream,
# writer and drain lines go to $PEER_DRAIN.  What closes the accounting,
# peer_lost, and peer_cpu_us are its "peer" line's lost= and cpu_us=:
# per writer's CPU, the reservations the program counted refused (the
# ring buffer full) and its errors; the consumer's CPU time up to the end
# of its recording, before the verification.
#
# The functions, and the keys each prints:
#
#   bpf_start LAYOUT BYTES_PER_CPU RUN SIZE WRITERS CONSUME
#                                bench-ringbuf attached to the tracepoint,
#                                its ring buffer(s) BYTES_PER_CPU per CPU
#                                (LAYOUT=percpu: one each; shared: one of
#                                BYTES_PER_CPU times the CPUs), consuming
#                                (CONSUME=1) or not until it is stopped;
#                                ready once it says "attached"
#     bpf_ready_ms bpf_size
#   bpf_stop                     SIGINT; bench-ringbuf drains what is
#                                left, writes its recording, then
#                                verifies it: its reader lines to
#                                $PEER_DRAIN
#     peer_lost peer_cpu_us bpf_status
bpf_pid='' bpf_t0=0
# The recordings it leaves in $PEER_DIR (common.sh: P_files).
# shellcheck disable=SC2034
bpf_ringbuf_files=bpf

# bpf_start LAYOUT BYTES_PER_CPU RUN SIZE WRITERS CONSUME
bpf_start() {
	mkdir -p "$PEER_DIR"
	rm -rf "$PEER_DIR/bpf" "$PEER_DIR/bpf.out"
	bsize=$2
	[ "$1" = shared ] && bsize=$(($2 * $(peer_ncpus)))
	consume=--no-consume
	[ "$6" = 1 ] && consume=--consume
	peer_cs
	bpf_t0=$pcs
	/extra/bench-ringbuf --layout "$1" --size "$bsize" --rec-size "$4" --run "$3" --writers "$5" \
		$consume --until-signal --record "$PEER_DIR/bpf" --out "$PEER_DIR/bpf.out" \
		</dev/null >"$PEER_DIR/bpf.err" 2>&1 &
	bpf_pid=$!
	wait_line '^attached' "$PEER_DIR/bpf.out" "$bpf_pid" "$PEER_TIMEOUT" || kill -INT "$bpf_pid" 2>/dev/null
	peer_cs
	echo "bpf_ready_ms=$(( (pcs - bpf_t0) * 10 ))"
	echo "bpf_size=$bsize"
	if ! grep -q '^attached' "$PEER_DIR/bpf.out" 2>/dev/null; then
		wait "$bpf_pid"
		echo "E bench-ringbuf did not attach ($?): $(tail -3 "$PEER_DIR/bpf.err" | tr '\n' ' ')"
		bpf_pid=
		return 1
	fi
}

# bpf_stop
bpf_stop() {
	if [ -z "$bpf_pid" ]; then
		echo "E bench-ringbuf is not running"
		return 1
	fi
	kill -INT "$bpf_pid"
	peer_wait "$bpf_pid" "bench-ringbuf"
	bpf_pid=
	echo "bpf_status=$pw_rc"
	grep -E '^(stream|writer|drain) ' "$PEER_DIR/bpf.out" >"$PEER_DRAIN"
	awk '$1 == "peer" { for (i = 2; i <= NF; i++) { split($i, a, "="); print (a[1] == "lost" ? "peer_lost" : "peer_" a[1]) "=" a[2] } }' \
		"$PEER_DIR/bpf.out"
	if [ "$pw_rc" != 0 ]; then
		echo "E bench-ringbuf failed ($pw_rc): $(grep -h -E '^(check|E |bench-ringbuf)' "$PEER_DIR/bpf.out" "$PEER_DIR/bpf.err" | tail -3 | tr '\n' ' ')"
		return 1
	fi
}

# --- the contract (common.sh) --------------------------------------------

# bpf_ringbuf_begin HOW RUN SIZE WRITERS BYTES_PER_CPU LAYOUT: bench-ringbuf
# attached, its ring buffer(s) of LAYOUT (shared or percpu); live: it
# consumes as the writers write; after: not until bpf_ringbuf_end.
bpf_ringbuf_begin() {
	if [ -z "${6:-}" ]; then
		echo "E bpf-ringbuf needs a layout: peer=bpf-ringbuf:shared or bpf-ringbuf:percpu (variants.py: guest)"
		return 1
	fi
	bpf_start "$6" "$5" "$2" "$3" "$4" "$([ "$1" = live ] && echo 1 || echo 0)"
}

# bpf_ringbuf_end HOW RUN SIZE WRITERS [LAYOUT]: bench-ringbuf stopped;
# it drains, records and verifies.
bpf_ringbuf_end() {
	bpf_stop
}
