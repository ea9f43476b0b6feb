#!/bin/bash
# Host checks of the QEMU harness (vm/run) and of out-of-tree module builds.
set -eu -o pipefail
. "$(dirname "$0")/../lib/host.sh"
cd "$TOP"

rc=0
vm/run --quiet --timeout 120 -- sh -c 'echo "not a status: 3"; exit 7' >/dev/null 2>&1 || rc=$?
[ "$rc" = 7 ] && ok "vm/run returns the guest command's exit status, from its own serial port" ||
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

# Interrupted as a terminal interrupts it -- SIGINT to its whole process
# group -- or with SIGTERM: QEMU must be gone, the status 130 or 143.
for sig in INT TERM; do
	want=$([ $sig = INT ] && echo 130 || echo 143)
	# A job of this script starts with SIGINT ignored, as background jobs
	# of shells do; a command typed at a terminal does not: reset it.
	setsid perl -e '$SIG{INT} = "DEFAULT"; exec @ARGV' \
		vm/run --quiet --timeout 300 --meta "$work/meta.$sig" -- sleep 600 \
		>/dev/null 2>"$work/err.$sig" &
	runner=$!
	for _ in $(seq 1 100); do grep -q '^qemu_pid=' "$work/meta.$sig" 2>/dev/null && break; sleep 0.2; done
	qpid=$(sed -n 's/^qemu_pid=//p' "$work/meta.$sig" 2>/dev/null)
	sleep 2
	if [ $sig = INT ]; then kill -INT -- "-$runner"; else kill -TERM "$runner"; fi
	rc=0
	wait "$runner" || rc=$?
	sleep 1
	alive=no
	[ -n "$qpid" ] && kill -0 "$qpid" 2>/dev/null && alive=yes
	if [ -n "$qpid" ] && [ "$rc" = "$want" ] && [ $alive = no ]; then
		ok "vm/run interrupted by SIG$sig: exit $rc, its QEMU (pid $qpid) gone"
	else
		[ -n "$qpid" ] && kill -KILL "$qpid" 2>/dev/null || true
		not_ok "vm/run interrupted by SIG$sig: exit $want and no QEMU left" \
			"exit $rc, QEMU pid '${qpid:-none}' alive: $alive" "$(cat "$work/err.$sig")"
	fi
done

# The accelerator recorded is the one the boot used, not the cached probe.
cached=$(cat "$BUILD/accel" 2>/dev/null || true)
echo kvm >"$BUILD/accel"
rc=0
VM_ACCEL=tcg vm/run --quiet --timeout 120 --meta "$work/meta" -- true >/dev/null 2>&1 || rc=$?
if [ -n "$cached" ]; then echo "$cached" >"$BUILD/accel"; else rm -f "$BUILD/accel"; fi
[ "$rc" = 0 ] && grep -qx 'accel=tcg' "$work/meta" &&
	ok "vm/run --meta records the accelerator the boot used (tcg, with kvm cached)" ||
	not_ok "vm/run --meta records the accelerator the boot used" "rc=$rc: $(cat "$work/meta" 2>/dev/null)"
# Each fact of the boot once: the kernel's configuration, as a hash, and
# one QEMU; the kernel chosen is host_info's, not the boot's.
[ "$(sed -n 's/^kconfig=//p' "$work/meta")" = "$(kconfig_hash "$KOBJ")" ] &&
	[ "$(grep -cE '^qemu(_version)?=' "$work/meta")" = 1 ] && ! grep -q '^kernel=' "$work/meta" &&
	ok "vm/run --meta records the .config's hash ($(sed -n 's/^kconfig=//p' "$work/meta")) and each fact once" ||
	not_ok "vm/run --meta records the .config's hash and each fact once" "$(cat "$work/meta")"
# The ports are named on the command line, where the guest's /init finds them.
cmd=$(vm/run --show-command | tr -d '\\')
grep -q 'vm\.ports=console:ttyS0,out:ttyS1,ret:ttyS2' <<<"$cmd" && [ "$(grep -o -- '-serial' <<<"$cmd" | wc -l)" = 3 ] &&
	ok "vm/run names its three serial ports once, on the kernel command line (vm.ports=)" ||
	not_ok "vm/run names its serial ports on the kernel command line" "$cmd"

out=$(vm/run --show-command --smp 3 2>&1) || true
grep -q '^qemu-system-x86_64 .*-smp 3 ' <<<"$out" && ! grep -q 'vm: running' <<<"$out" &&
	ok "vm/run --show-command prints the QEMU command line without booting" ||
	not_ok "vm/run --show-command prints the QEMU command line" "$out"

kdir=$(make -s kernel-dir)
rel=$(cat "$kdir/include/config/kernel.release")
vm=$(modinfo -F vermagic tests/module/trace_test.ko 2>/dev/null | cut -d' ' -f1)
[ "$vm" = "$rel" ] && ok "out-of-tree module built against 'make -s kernel-dir' ($rel, KERNEL=$KERNEL)" ||
	not_ok "out-of-tree module built against 'make -s kernel-dir'" "vermagic '$vm', kernel '$rel'"

rc=0
vm/run --quiet --timeout 120 --add tests/module/trace_test.ko --output "$work/out" -- \
	sh -c 'insmod /extra/trace_test.ko && cat /sys/kernel/tracing/relay/relay_trace_test/t/state' \
	>/dev/null 2>&1 || rc=$?
[ "$rc" = 0 ] && grep -qx 'trace not started' "$work/out" &&
	ok "vm/run --add some.ko -- insmod /extra/some.ko" ||
	not_ok "vm/run --add some.ko -- insmod /extra/some.ko" "rc=$rc: $(tail -3 "$work/out")"
