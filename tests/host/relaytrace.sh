#!/bin/bash
# make relaytrace: builds the series' consumer, static, for the busybox
# guest, and prints its path as its last line; the binary answers --help.
set -eu -o pipefail
. "$(dirname "$0")/../lib/host.sh"
cd "$TOP"

if ! out=$(make -s relaytrace 2>&1); then
	not_ok "make relaytrace builds it" "$(tail -5 <<<"$out")"
	exit 0
fi
bin=$(tail -1 <<<"$out")
if [ -x "$bin" ] && file -L "$bin" | grep -q 'statically linked'; then
	ok "make relaytrace: its last line is the path of a static binary ($bin)"
else
	not_ok "make relaytrace: its last line is the path of a static binary" "last line: $bin" "$(file -L "$bin" 2>&1)"
fi
if "$bin" --help | grep -q '^usage: relaytrace COMMAND' && ! "$bin" frobnicate >/dev/null 2>&1; then
	ok "relaytrace --help prints its usage; an unknown command fails"
else
	not_ok "relaytrace --help prints its usage; an unknown command fails"
fi
