#!/bin/bash
# Step: a boot (-smp 4) that runs the KUnit suite at boot, then the guest's
# functional tests of the debugfs interface (tests/guest/functional.sh),
# with its helpers pollwait and ufstall (built by tests/guest/Makefile).
. "$(dirname "$0")/../lib/step.sh"
vm_test functional --kunit --smp 4 \
	--add tests/module/trace_test.ko --add "$KOBJ/samples/relay_trace/fork_trace.ko" \
	--add tests/guest/functional.sh --add tests/guest/ktap.sh \
	--add tests/guest/pollwait --add tests/guest/ufstall \
	-- sh /extra/functional.sh
# The KUnit suite ran at boot, whatever happened afterwards.
ktap kunit "$OUT/functional.log" 0 relay_trace
ktap guest "$OUT/functional.out" "$rc"
