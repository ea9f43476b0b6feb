#!/bin/bash
# bench-ringbuf's accounting (bench-user/guest/bpf/account-test.c): each
# recording of ring samples, read back and checked by content, must pass
# whole, and fail torn, stale, repeated, short, cut, uncounted or
# over-counted -- each case a line here.
set -eu -o pipefail
. "$(dirname "$0")/../lib/host.sh"
cd "$TOP"

if ! out=$(make -s -C bench-user/guest/bpf account-test 2>&1); then
	not_ok "bpf: bench-ringbuf's account-test builds with -Wall -Wextra -Werror" "$out"
	exit 0
fi
rc=0
out=$(cd bench-user/guest/bpf && ./account-test 2>&1) || rc=$?
n=0
while IFS= read -r line; do
	case "$line" in
	"ok "*) ok "bpf: bench-ringbuf accounting: ${line#ok }"; n=$((n + 1)) ;;
	"FAIL "*|"not ok "*) not_ok "bpf: bench-ringbuf accounting: ${line#* }"; n=$((n + 1)) ;;
	esac
done <<<"$out"
if [ "$rc" != 0 ] || [ "$n" = 0 ]; then
	not_ok "bpf: bench-ringbuf's account-test ran its cases (status $rc, $n cases)" "$(tail -3 <<<"$out")"
fi
