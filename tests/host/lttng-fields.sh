#!/bin/bash
# LTTng's probes (relay_bench_rec's and relay_cost_rec's: one macro,
# bench_rec_lttng.h) record the kernel event's fields
# (tests/host/lttng-fields.py), and the check refuses a probe whose
# fields differ: a type, a name, a length field.
set -eu -o pipefail
. "$(dirname "$0")/../lib/host.sh"
cd "$TOP"
EV=bench-module/bench_rec_event.h LT=bench-module/lttng/bench_rec_lttng.h
if out=$(python3 tests/host/lttng-fields.py "$EV" "$LT" 2>&1); then
	ok "lttng: the probe's fields are bench_rec_event.h's: $(sed -n 2p <<<"$out" | cut -d: -f2-)"
else
	mapfile -t lines <<<"$out"
	not_ok "lttng: the probe's fields are bench_rec_event.h's" "${lines[@]}"
fi
for m in 's/ctf_integer(u32, len, len)/ctf_integer(u64, len, len)/' \
	 's/ctf_sequence_hex(u8, data, rec, u32, len)/ctf_sequence_hex(u8, payload, rec, u32, len)/' \
	 's/ctf_sequence_hex(u8, data, rec, u32, len)/ctf_sequence_hex(u8, data, rec, u32, 64)/' \
	 '/ctf_integer(u32, len, len)/d'; do
	sed "$m" "$LT" >"$work/mutant.h"
	if cmp -s "$LT" "$work/mutant.h"; then
		not_ok "lttng: the mutant '$m' changes the probe" "it does not: the probe changed?"
	elif out=$(python3 tests/host/lttng-fields.py "$EV" "$work/mutant.h" 2>&1); then
		not_ok "lttng: a probe mutated by '$m' is refused" "it passed: $out"
	else
		ok "lttng: a probe mutated by '$m' is refused: $(tail -1 <<<"$out")"
	fi
done
# Each probe's system header takes its fields from that one macro: it
# invokes BENCH_REC_LTTNG_EVENT(its event) and writes no field of its own.
for h in bench-module/lttng/relay_bench_lttng.h:relay_bench_rec bench-module/lttng/relay_cost_lttng.h:relay_cost_rec; do
	f=${h%%:*} ev=${h#*:}
	if grep -q "^BENCH_REC_LTTNG_EVENT($ev)$" "$f" && ! grep -q 'ctf_\|LTTNG_TRACEPOINT_EVENT(' "$f"; then
		ok "lttng: ${f##*/} takes $ev's fields from bench_rec_lttng.h"
	else
		not_ok "lttng: ${f##*/} takes $ev's fields from bench_rec_lttng.h" \
			"it does not invoke BENCH_REC_LTTNG_EVENT($ev), or writes fields of its own"
	fi
done
