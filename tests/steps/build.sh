#!/bin/bash
# step: 10 test debug kcsan rt
# Step: the Debian packages, the kernel of this variant, the out-of-tree
# modules and the guest's user-space tools.
. "$(dirname "$0")/../lib/step.sh"
vm/deps
vm/build-kernel
build_modules tests/module
build_modules bench-module
make -s -C bench-user/guest bench-verify || die "bench-verify does not build"
build_relaytrace >/dev/null
make -s -C tests/guest UAPI="$KSRC/include/uapi" || die "tests/guest does not build"
echo
echo "relay_trace tests: $KPKG $(kpkg_version), series $(series_hash), $KNAME kernel" \
	"$(cat "$KOBJ/include/config/kernel.release"), accelerator $(cat "$BUILD/accel" 2>/dev/null || echo 'tcg (KVM to be probed)')"
