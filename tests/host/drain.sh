#!/bin/bash
# Host checks of relay-drain: unit tests of its accounting, its error
# messages, and a drain of a fake trace directory made of plain files.
set -eu
. "$(dirname "$0")/lib.sh"

cd "$TOP/bench-user"

if out=$(make -s relay-drain test_check 2>&1); then
	ok "relay-drain and test_check build with -Wall -Wextra -Werror"
else
	not_ok "relay-drain and test_check build with -Wall -Wextra -Werror" "$out"
	exit 0
fi
out=$(./test_check 2>&1) && ok "relay-drain accounting unit tests (${out#test_check: })" ||
	not_ok "relay-drain accounting unit tests" "$out"

expect_error() {	# expect_error DESC PATTERN ARGS...
	local desc=$1 pat=$2 rc=0 msg
	shift 2
	msg=$(./relay-drain "$@" 2>&1 >/dev/null) || rc=$?
	if [ "$rc" != 0 ] && grep -q -- "$pat" <<<"$msg"; then
		ok "relay-drain: $desc"
	else
		not_ok "relay-drain: $desc" "status $rc, message: $msg"
	fi
}
expect_error "a missing trace is named, with the reason" \
	"$work/none is not a readable trace.*No such file or directory" "$work/none"
mkdir "$work/t"
echo 100 >"$work/t/sub_size"
expect_error "a sub-buffer size that is not a multiple of the record size" \
	"not a multiple of the record size" -r 64 "$work/t"
echo 4096 >"$work/t/sub_size"
expect_error "a trace without trace0" "cannot open $work/t/trace0" "$work/t"

# A fake stopped trace: two files, two writers, a gap of 3 in writer 1.
python3 - "$work/t" <<'PY'
import struct, sys
d = sys.argv[1]
def rec(cpu, seq): return struct.pack("<HHIQ", 0xbe7c, cpu, seq, 0) + b"\x5a" * 48
open(d + "/trace0", "wb").write(b"".join(rec(0, s) for s in range(100)))
open(d + "/trace1", "wb").write(b"".join(rec(1, s) for s in list(range(10)) + list(range(13, 20))))
open(d + "/state", "w").write("stopped\n")
PY
if out=$(./relay-drain -r 64 -o "$work/copy." "$work/t" 2>&1) &&
   grep -q '^writer cpu=0 file=0 records=100 gaps=0 backwards=0 last_seq=99$' <<<"$out" &&
   grep -q '^writer cpu=1 file=1 records=17 gaps=3 backwards=0 last_seq=19$' <<<"$out" &&
   grep -q '^drain files=2 bytes=7488 records=117 bad=0 ' <<<"$out" &&
   cmp -s "$work/copy.0" "$work/t/trace0" && cmp -s "$work/copy.1" "$work/t/trace1"; then
	ok "relay-drain: drains every file, counts records and gaps per writer, copies with -o"
else
	not_ok "relay-drain: drains every file, counts records and gaps per writer, copies with -o" "$out"
fi
