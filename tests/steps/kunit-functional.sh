#!/bin/bash
# step: 30 test debug kcsan rt
# Step: a boot (-smp 4) that runs the KUnit suite at boot, then the guest's
# functional tests of the tracefs interface (tests/guest/functional.sh),
# with its helpers pollwait and ufstall (built by tests/guest/Makefile),
# and of relaytrace, the series' consumer (tests/guest/relaytrace.sh), then
# (the test kernel only) of its 32-bit build, relaytrace32 (the ioctls' compat
# path).
. "$(dirname "$0")/../lib/step.sh"
# relaytrace32 in the test kernel only: the compat path is the same code
# under the debug, KCSAN and RT kernels, and their boots are the slow ones.
rt32=relaytrace32
[ -z "${KVARIANT:-}" ] || rt32=
guest_boot functional --kunit --smp 4 -- guest relaytrace $rt32
# The KUnit suite ran at boot, whatever happened afterwards.
ktap kunit "$OUT/functional.log" 0 relay_trace
ktap_docs "$OUT/functional.out" "$rc" guest relaytrace $rt32
