#!/bin/bash
# step: 91 debug
# Step (debug kernel): fault injection.  Every allocation of relay_trace_setup()
# and relay_trace_start(), one at a time (failslab, fail_page_alloc, with
# /proc/self/fail-nth), must fail with the documented error and leave
# nothing behind in tracefs; kmemleak afterwards must find nothing.
. "$(dirname "$0")/../lib/step.sh"
guest_boot fault --smp 4 -- fault
ktap fault "$OUT/fault.out" "$rc"
