#!/bin/bash
# Step (debug kernel): fault injection.  Every allocation of trace_setup()
# and trace_start(), one at a time (failslab, fail_page_alloc, with
# /proc/self/fail-nth), must fail with the documented error and leave
# nothing behind in tracefs; kmemleak afterwards must find nothing.
. "$(dirname "$0")/../lib/step.sh"
vm_test fault --smp 4 --add tests/module/trace_test.ko --add tests/guest/failnth \
	--add tests/guest/fault.sh --add tests/guest/ktap.sh -- sh /extra/fault.sh
ktap fault "$OUT/fault.out" "$rc"
