#!/bin/bash
# bench-verify --text, the check of the peers' records by content: the
# text of `trace-cmd report`, of `perf script --show-lost-events` and of
# `babeltrace2` (LTTng's) of relay_bench:relay_bench_rec
# (bench-user/guest/peers/ feed it), made here by a generator built from
# the record layout (uapi/relay_bench.h) in each tool's spelling, with one
# fault injected.  Each fault must be
# seen where it belongs -- a corrupted byte as a torn record, a truncated
# line as a length mismatch and partial bytes, a loss marker counted with
# its count and matching the sequence numbers the records skip, a line
# of neither kind as unparsed, a record printed twice as a dup -- and
# the clean text must pass whole.
set -eu -o pipefail
. "$(dirname "$0")/../lib/host.sh"
cd "$TOP"

cat >"$work/gen.c" <<'C'
/* gen STYLE WRITERS N SIZE RUN FAULT: N records per writer, interleaved. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "relay_bench.h"

int main(int argc, char **argv)
{
	const char *style = argv[1], *fault = argv[6];
	unsigned int w, nw = atoi(argv[2]), n = atoi(argv[3]), size = atoi(argv[4]);
	unsigned int run = atoi(argv[5]), k, i, skip = 5;
	int tc = !strcmp(style, "tc"), bt = !strcmp(style, "bt");
	unsigned char rec[1024];
	struct relay_bench_rec *h = (void *)rec;
	char line[4096];

	if (argc != 7 || size > sizeof(rec))
		return 2;
	if (tc)
		printf("cpus=%u\n", nw);
	for (k = 0; k < n; k++) {
		for (w = 0; w < nw; w++) {
			int len, hit = w == 1 && k == n / 2;
			unsigned int shown = size;

			if (!strcmp(fault, "lost") || !strcmp(fault, "lostnocount")) {
				if (w == 1 && k >= n / 2 && k < n / 2 + skip)
					continue;
				if (w == 1 && k == n / 2 + skip) {
					/* babeltrace2's src/plugins/text/pretty/print.c */
					if (bt && !strcmp(fault, "lost"))
						printf("WARNING: Tracer discarded %u events between [10.000000000] and "
						       "[10.000001000] in trace \"(none)/kernel\" (UUID: 1) within stream "
						       "\"/tmp/peer/lt/kernel/c0_1\" (stream class ID: 0, stream ID: 1).\n", skip);
					else if (bt)
						printf("WARNING: Tracer discarded 1 packet between [10.000000000] and "
						       "[10.000001000] in trace \"(none)/kernel\" (UUID: 1) within stream "
						       "\"/tmp/peer/lt/kernel/c0_1\" (stream class ID: 0, stream ID: 1).\n");
					else if (!tc)
						printf("  relay_bench/1    58 [001]    10.%06u: PERF_RECORD_LOST lost %u\n",
						       k, skip);
					else if (!strcmp(fault, "lost"))
						printf("     relay_bench: CPU:1 [%u EVENTS DROPPED]\n", skip);
					else
						printf("     relay_bench: CPU:1 [EVENTS DROPPED]\n");
				}
			}
			h->tag = RELAY_BENCH_TAG(run, w);
			h->seq = h->ok = k;
			h->ts = k * 1000 + w;
			for (i = RELAY_BENCH_HDR_SIZE; i < size; i += 4)
				*(__u32 *)(rec + i) = relay_bench_mix(h);
			if (hit && !strcmp(fault, "corrupt"))
				rec[size - 1] ^= 0x10;
			if (hit && !strcmp(fault, "truncate"))
				shown = size / 2;
			if (bt) {
				len = snprintf(line, sizeof(line),
					       "[10.%09u] (+0.000001000) (none) relay_bench_rec: { cpu_id = %u }, "
					       "{ len = %u, _data_length = %u, data = [ ", k, w,
					       hit && !strcmp(fault, "badlen") ? size - 4 : size, shown);
				for (i = 0; i < shown; i++)
					len += snprintf(line + len, sizeof(line) - len, "%s[%u] = 0x%X",
							i ? ", " : "", i, rec[i]);
				len += snprintf(line + len, sizeof(line) - len, " ] }");
				if (hit && !strcmp(fault, "truncate"))
					line[len - 5] = '\0';	/* mid-byte, as a cut line is */
			} else {
				len = tc ? snprintf(line, sizeof(line),
						    "     relay_bench: relay_bench/%u-%-5u [%03u]    10.%06u: relay_bench_rec:      len=%u data=",
						    w, 57 + w, w, k, hit && !strcmp(fault, "badlen") ? size - 4 : size)
					 : snprintf(line, sizeof(line),
						    "  relay_bench/%u %5u [%03u]    10.%06u: relay_bench:relay_bench_rec: len=%u data=",
						    w, 57 + w, w, k, hit && !strcmp(fault, "badlen") ? size - 4 : size);
				for (i = 0; i < shown; i++)
					len += snprintf(line + len, sizeof(line) - len, "%s%02x", i ? " " : "", rec[i]);
				if (hit && !strcmp(fault, "truncate"))
					line[len - 1] = '\0';	/* mid-byte, as a cut line is */
			}
			puts(line);
			if (hit && !strcmp(fault, "dup"))
				puts(line);
			if (hit && !strcmp(fault, "garbage"))
				puts("something that is no event");
		}
	}
	return 0;
}
C
if ! out=$(make -s -C bench-user/guest bench-verify 2>&1 &&
	   gcc -std=gnu11 -O2 -Wall -Wextra -Werror -I bench-module/uapi -o "$work/gen" "$work/gen.c" 2>&1); then
	not_ok "text: bench-verify and the text generator build" "$out"
	exit 0
fi
BV=bench-user/guest/bench-verify

# verify STYLE FAULT: bench-verify --text on the generator's text of 3
# writers of 200 records each, from standard input; its lines in $V.
verify() {
	V=$work/$1-$2.out
	"$work/gen" "$1" 3 200 64 4242 "$2" | $BV -i 4242 -r 64 -d -c 1000,20,30 --text - >"$V" 2>"$work/err" ||
		echo "bench-verify failed: $(cat "$work/err")" >>"$V"
}
# val KIND KEY [MATCH]: KEY of the D line of KIND whose words include MATCH.
val() {
	awk -v kind="$1" -v key="$2" -v m="${3:-}" '$1 == kind && (m == "" || index(" " $0 " ", " " m " ")) {
		for (i = 2; i <= NF; i++) { split($i, a, "="); if (a[1] == key) { print a[2]; exit } } }' "$V"
}
# expect DESC "KIND KEY MATCH WANT"...: each value as wanted.
expect() {
	local desc=$1 bad=() kind key m want got
	shift
	for spec in "$@"; do
		read -r kind key m want <<<"$spec"
		[ "$m" = - ] && m=
		got=$(val "$kind" "$key" "$m")
		[ "$got" = "$want" ] || bad+=("$kind${m:+ $m} $key=$got, want $want")
	done
	if [ ${#bad[@]} = 0 ]; then
		ok "text: $desc"
	else
		mapfile -t lines < <(head -12 "$V")
		not_ok "text: $desc" "${bad[@]}" "--- bench-verify printed:" "${lines[@]}"
	fi
}

for style in tc perf bt; do
	case $style in tc) name="trace-cmd report" ;; perf) name="perf script" ;; bt) name=babeltrace2 ;; esac
	verify $style none
	expect "$name: clean text of 3 writers passes whole, a stream per CPU" \
		"writer records stream=0 200" "writer records stream=1 200" "writer records stream=2 200" \
		"writer seq_gaps stream=1 0" "writer last_seq stream=2 199" \
		"stream torn n=1 0" "stream partial n=1 0" "stream bytes n=2 12800" \
		"drain records - 600" "drain files - 3" "drain utime_us - 20" \
		"text events stream=-1 600" "text unparsed stream=-1 0" "text badlen stream=-1 0" \
		"text markers stream=-1 0" "text dups stream=-1 0" "text lines stream=-1 $([ $style = tc ] && echo 601 || echo 600)"
	[ $style = bt ] && partial=32 || partial=31	# a cut "0xAB" reads as 0xA

	verify $style corrupt
	expect "$name: a corrupted payload byte is a torn record" \
		"stream torn n=1 1" "writer records stream=1 199" "writer seq_gaps stream=1 1" \
		"stream torn n=0 0" "text badlen stream=-1 0"

	verify $style truncate
	expect "$name: a line cut short is a length mismatch and partial bytes" \
		"text badlen stream=1 1" "text badlen stream=-1 1" "stream partial n=1 $partial" \
		"writer records stream=1 199" "writer seq_gaps stream=1 1"

	verify $style badlen
	expect "$name: len= that disagrees with the bytes is a length mismatch" \
		"text badlen stream=1 1" "writer records stream=1 200"

	verify $style lost
	expect "$name: a loss marker is counted with its count, on its CPU, and closes the accounting" \
		"text markers stream=1 1" "text lost stream=1 5" "text lost stream=-1 5" \
		"text lost_unknown stream=-1 0" "writer records stream=1 195" "writer seq_gaps stream=1 5" \
		"text lost stream=0 0" "text unparsed stream=-1 0"

	verify $style garbage
	expect "$name: a line of neither kind is unparsed" \
		"text unparsed stream=-1 1" "writer records stream=1 200"

	verify $style dup
	expect "$name: a record printed twice is a dup, and backwards to the check" \
		"text dups stream=1 1" "text dups stream=-1 1" "writer backwards stream=1 1" \
		"writer records stream=1 200" "stream records n=1 201" "text dups stream=0 0"
done

verify tc lostnocount
expect "trace-cmd report: a marker without a count is counted as such" \
	"text markers stream=1 1" "text lost stream=1 0" "text lost_unknown stream=1 1" \
	"writer seq_gaps stream=1 5"
verify bt lostnocount
expect "babeltrace2: discarded packets are a marker without a count" \
	"text markers stream=1 1" "text lost stream=1 0" "text lost_unknown stream=1 1" \
	"writer seq_gaps stream=1 5" "text unparsed stream=-1 0"
# babeltrace2 says "event" for one: counted as such.
printf '%s\n' 'WARNING: Tracer discarded 1 event between [10.0] and [10.1] in trace "k" (UUID: 1) within stream "/t/kernel/c0_2" (stream class ID: 0, stream ID: 2).' \
	'WARNING: Tracer may have discarded events between [10.0] and [10.1] in trace "k" (UUID: 1) within stream "/t/kernel/c0_3" (stream class ID: 0, stream ID: 3).' >"$work/bt.txt"
V=$work/bt.out
$BV -i 1 --text "$work/bt.txt" >"$V" 2>&1 || true
expect "babeltrace2: one event discarded is counted; a loss it cannot count is a marker without a count" \
	"text lost stream=2 1" "text markers stream=3 1" "text lost_unknown stream=3 1" "text unparsed stream=-1 0"

# From a file, with several runs; a record of a run -x names is no stale.
"$work/gen" perf 2 10 64 7 none >"$work/a.txt"
"$work/gen" perf 2 10 64 8 none >>"$work/a.txt"
V=$work/runs.out
$BV -i 7 -x 8 -r 64 --text "$work/a.txt" >"$V" 2>&1 || true
expect "a file of two runs: one checked, the other expected (-x)" \
	"writer records stream=0 10" "stream stale n=0 0" "text events stream=-1 40"
$BV -i 7 -r 64 --text "$work/a.txt" >"$V" 2>&1 || true
expect "a file of two runs: the other's records are stale without -x" "stream stale n=0 10"

# The streams may not come in order; the text of a kernel's trace file.
printf '%s\n' "CPU:3 [LOST 12 EVENTS]" "" >"$work/k.txt"
V=$work/k.out
$BV -i 1 --text "$work/k.txt" >"$V" 2>&1 || true
expect "the kernel's own marker (trace, trace_pipe) is counted" \
	"text lost stream=3 12" "stream records n=3 0" "text unparsed stream=-1 0"

# Speed: 10^6 lines (the TCG guest is some 20x slower than this).
"$work/gen" perf 4 250000 64 9 none >"$work/big.txt"
t0=$(date +%s%N)
V=$work/big.out
$BV -i 9 -r 64 --text "$work/big.txt" >"$V" 2>&1 || true
ms=$(( ($(date +%s%N) - t0) / 1000000 ))
expect "10^6 lines of perf script checked in ${ms} ms" "text events stream=-1 1000000" \
	"writer records stream=3 250000"

# Its usage errors.
rc=0
msg=$($BV -i 1 -c 1,2 --text - </dev/null 2>&1) || rc=$?
[ "$rc" = 2 ] && grep -q "ELAPSED_NS,UTIME_US,STIME_US" <<<"$msg" &&
	ok "text: -c wants three numbers" || not_ok "text: -c wants three numbers" "status $rc: $msg"
rc=0
msg=$($BV -i 1 --text "$work/nonexistent" 2>&1) || rc=$?
[ "$rc" = 1 ] && grep -q "nonexistent: No such file" <<<"$msg" &&
	ok "text: a missing file is named" || not_ok "text: a missing file is named" "status $rc: $msg"
