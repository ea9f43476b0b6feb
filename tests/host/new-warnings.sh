#!/bin/bash
# tests/lib/new-warnings.py, which make check's W=1, sparse and cross
# (arm64, i386) gates trust to tell the series' warnings from the tree's:
# a warning on a line the series adds is the series'; one the compiler
# places in a header's macro (a printk format checked in kern_levels.h)
# is the series' if a note of its expansion names a series' line -- as
# i386's size_t does for "%lu" in a series' pr_info(); the same warning
# from a line the series does not touch is the tree's.
set -eu -o pipefail
. "$(dirname "$0")/../lib/host.sh"
cd "$TOP"

K=$work/ksrc
mkdir -p "$K/kernel" "$K/include/linux"
printf 'int a;\n\tpr_info("old %%lu\\n", n);\n\tpr_info("new %%lu\\n", n);\n' >"$K/kernel/relay.c"
printf '#define KERN_SOH "\\001"\n' >"$K/include/linux/kern_levels.h"
printf '+++ b/kernel/relay.c\n+\tpr_info("new %%lu\\n", n);\n' >"$work/series.patch"
w="include/linux/kern_levels.h:1:25: warning: format '%lu' expects argument of type 'long unsigned int', but argument 2 has type 'size_t' [-Wformat=]"
out=$(printf '%s\n' \
	"$K/kernel/relay.c: In function 'f':" \
	"$K/$w" \
	"$K/kernel/relay.c:3:9: note: in expansion of macro 'pr_info'" \
	"$K/$w" \
	"$K/kernel/relay.c:2:9: note: in expansion of macro 'pr_info'" \
	"$K/kernel/relay.c:3:2: warning: unused variable 'x' [-Wunused-variable]" \
	"$K/kernel/relay.c:2:2: warning: unused variable 'y' [-Wunused-variable]" |
	python3 tests/lib/new-warnings.py "$K" "$work/series.patch" | cut -c1-3 | tr '\n' ' ')
want="NEW OLD NEW OLD "
if [ "$out" = "$want" ]; then
	ok "new-warnings: a header macro's warning goes by its expansion's line (series', tree's), a plain one by its own"
else
	not_ok "new-warnings: a header macro's warning goes by its expansion's line (series', tree's), a plain one by its own" \
		"got '$out', want '$want'"
fi
