#!/bin/bash
# Host checks of the QEMU harness and of out-of-tree module builds.
set -eu
. "$(dirname "$0")/lib.sh"

cd "$TOP"

rc=0
vm/run --quiet --timeout 120 -- sh -c 'exit 7' >/dev/null 2>&1 || rc=$?
[ "$rc" = 7 ] && ok "vm/run returns the guest command's exit status" ||
	not_ok "vm/run returns the guest command's exit status" "got $rc, want 7"

head -c 3000 /dev/urandom | base64 >"$work/payload.txt"
rc=0
vm/run --quiet --timeout 120 --smp 2 --add "$work/payload.txt" --output "$work/out" -- \
	sh -c 'cat /extra/payload.txt; nproc' >/dev/null 2>&1 || rc=$?
if [ "$rc" = 0 ] && head -n -1 "$work/out" | cmp -s - "$work/payload.txt" &&
   [ "$(tail -1 "$work/out")" = 2 ]; then
	ok "vm/run --add copies files to /extra, --smp and --output work"
else
	not_ok "vm/run --add copies files to /extra, --smp and --output work" "rc=$rc"
fi

rc=0
start=$(date +%s)
vm/run --quiet --timeout 15 -- sleep 600 >/dev/null 2>&1 || rc=$?
el=$(( $(date +%s) - start ))
[ "$rc" = 124 ] && [ "$el" -lt 60 ] && ok "vm/run enforces its timeout (exit 124 after ${el}s)" ||
	not_ok "vm/run enforces its timeout" "rc=$rc after ${el}s"

kdir=$(make -s kernel-dir)
rel=$(cat "$kdir/include/config/kernel.release")
vm=$(modinfo -F vermagic tests/module/trace_test.ko 2>/dev/null | cut -d' ' -f1)
[ "$vm" = "$rel" ] && ok "out-of-tree module built against 'make -s kernel-dir' ($rel)" ||
	not_ok "out-of-tree module built against 'make -s kernel-dir'" "vermagic '$vm', kernel '$rel'"

rc=0
vm/run --quiet --timeout 120 --add tests/module/trace_test.ko --output "$work/out" -- \
	sh -c 'insmod /extra/trace_test.ko && cat /sys/kernel/debug/relay_trace_test/t/state' \
	>/dev/null 2>&1 || rc=$?
[ "$rc" = 0 ] && grep -qx 'trace not started' "$work/out" &&
	ok "vm/run --add some.ko -- insmod /extra/some.ko" ||
	not_ok "vm/run --add some.ko -- insmod /extra/some.ko" "rc=$rc: $(tail -3 "$work/out")"
