#!/bin/bash
# Step: a boot (-smp 4) that runs the KUnit suite at boot, then the guest's
# functional tests of the tracefs interface (tests/guest/functional.sh),
# with its helpers pollwait and ufstall (built by tests/guest/Makefile),
# and of relaytrace, the series' consumer (tests/guest/relaytrace.sh), then
# of its 32-bit build, relaytrace32 (the ioctls' compat path).
. "$(dirname "$0")/../lib/step.sh"
functional_adds
vm_test functional --kunit --smp 4 "${FUNCTIONAL_ADD[@]}" \
	-- sh -c 'sh /extra/functional.sh; f=$?; sh /extra/relaytrace.sh; r=$?
		RELAYTRACE=/extra/relaytrace32 sh /extra/relaytrace.sh; c=$?; exit $((f | r | c))'
# The KUnit suite ran at boot, whatever happened afterwards.
ktap kunit "$OUT/functional.log" 0 relay_trace
ktap_docs "$OUT/functional.out" "$rc" guest relaytrace relaytrace32
