#!/bin/bash
# The record layout is defined once: bench-module/uapi/relay_bench.h.
# Every program that writes or reads records includes it, and nothing
# else spells the layout out.
set -eu -o pipefail
. "$(dirname "$0")/../lib/host.sh"
cd "$TOP"
H=bench-module/uapi/relay_bench.h

defs=$(grep -rln 'struct relay_bench_rec *{' --include=*.c --include=*.h --include=*.py --include=*.sh . | grep -v "^./build/" || true)
[ "$defs" = "./$H" ] && ok "layout: struct relay_bench_rec is defined in $H only" ||
	not_ok "layout: struct relay_bench_rec is defined in $H only" "defined in: $defs"

missing=
for f in bench-module/relay_bench.c bench-user/guest/bench-verify.c tests/host/fake-trace.c; do
	grep -q 'include ".*uapi/relay_bench.h"' "$f" || missing="$missing $f"
done
[ -z "$missing" ] && ok "layout: the module, the checker and the test generator include $H" ||
	not_ok "layout: the module, the checker and the test generator include $H" "missing in:$missing"

# No other reader decodes records by hand (struct formats, offsets).
hand=$(grep -rnE 'struct\.(un)?pack|"<[HIQBhiqb]{3,}"|0xbe7c' --include=*.py --include=*.sh --include=*.c bench-user tests bench-module 2>/dev/null |
	grep -v "^tests/host/layout.sh" || true)
[ -z "$hand" ] && ok "layout: no script decodes records by hand" ||
	not_ok "layout: no script decodes records by hand" "$hand"

# The header compiles in user space with the size it asserts, and the
# module was built from it (make test builds it before these checks).
cat >"$work/probe.c" <<'C'
#include <stddef.h>
#include <stdio.h>
#include "relay_bench.h"
int main(void)
{
	printf("%zu %zu %zu %zu %zu\n", sizeof(struct relay_bench_rec),
	       offsetof(struct relay_bench_rec, tag), offsetof(struct relay_bench_rec, seq),
	       offsetof(struct relay_bench_rec, ok), offsetof(struct relay_bench_rec, ts));
	return 0;
}
C
if gcc -std=gnu11 -Wall -Werror -I bench-module/uapi -o "$work/probe" "$work/probe.c" 2>"$work/err" &&
   [ "$("$work/probe")" = "16 0 4 8 12" ]; then
	ok "layout: the header compiles in user space: 16-byte header, tag seq ok ts at 0 4 8 12"
else
	not_ok "layout: the header compiles in user space" "$(cat "$work/err")"
fi

# The latency histogram's bucket formula is defined once, in the header
# (relay_bench_hist_bucket()); the report's inverse (report.py
# hist-bounds, bench-user/report/latency.py) must agree with it on every
# bucket's edges, and the check must fail on bounds off by one.
cat >"$work/hist.c" <<'C'
#include <stdio.h>
#include "relay_bench.h"
int main(void)
{
	unsigned long long ns;
	int s;

	/* Every bucket edge and its neighbours, up to 2^32. */
	for (s = 0; s <= 32; s++)
		for (ns = (1ULL << s) > 4 ? (1ULL << s) - 4 : 0; ns <= (1ULL << s) + 4 && ns < (1ULL << 32); ns++) {
			printf("%llu %u\n", ns, relay_bench_hist_bucket(ns));
			printf("%llu %u\n", ns * 5 / 4, relay_bench_hist_bucket(ns * 5 / 4));
			printf("%llu %u\n", ns * 6 / 4, relay_bench_hist_bucket(ns * 6 / 4));
			printf("%llu %u\n", ns * 7 / 4, relay_bench_hist_bucket(ns * 7 / 4));
		}
	return 0;
}
C
# hist_disagree BOUNDS: the samples whose C bucket's [low, high) in BOUNDS
# does not hold them.
hist_disagree() {
	awk 'NR == FNR { lo[$1] = $2; hi[$1] = $3; next }
	     $1 < 4294967296 && !($1 >= lo[$2] && $1 < hi[$2]) { bad++; if (bad <= 3) print "ns " $1 ": C bucket " $2 " is [" lo[$2] ", " hi[$2] ")" }
	     END { print bad + 0 }' "$1" "$work/hist.out"
}
if gcc -std=gnu11 -Wall -Werror -I bench-module/uapi -o "$work/hist" "$work/hist.c" 2>"$work/err" &&
   "$work/hist" >"$work/hist.out" && python3 bench-user/report/report.py hist-bounds >"$work/bounds"; then
	bad=$(hist_disagree "$work/bounds" | tail -1)
	awk '$1 == 40 { $2 += 1 } { print }' "$work/bounds" >"$work/bounds-off"
	off=$(hist_disagree "$work/bounds-off" | tail -1)
	if [ "$bad" = 0 ] && [ "$off" -gt 0 ]; then
		ok "layout: the latency buckets of relay_bench.h and the report's bounds agree on $(wc -l <"$work/hist.out") samples (bounds off by one in bucket 40: $off disagree)"
	else
		not_ok "layout: the latency buckets of relay_bench.h and the report's bounds agree" \
			"$(hist_disagree "$work/bounds" | head -3)" "bounds off by one: $off disagree"
	fi
else
	not_ok "layout: the latency bucket probe builds and runs" "$(cat "$work/err")"
fi
