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
for f in bench-module/relay_bench.c bench-user/guest/reader.h tests/host/fake-trace.c; do
	grep -q 'include ".*uapi/relay_bench.h"' "$f" || missing="$missing $f"
done
[ -z "$missing" ] && ok "layout: the module, the drainer and the test generator include $H" ||
	not_ok "layout: the module, the drainer and the test generator include $H" "missing in:$missing"

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
