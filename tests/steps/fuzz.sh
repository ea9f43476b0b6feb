#!/bin/bash
# step: 78 test debug kcsan
# Step: a boot (-smp 4) of relayfuzz (tests/guest/fuzz.sh): every call a
# reader can make, hostile ones too, on traces of every kind while
# trace_test.ko's writers write, and a ledger of what the readers got;
# then its flush stress (writers, relay_flush() in a loop, stop and start,
# and a reader).  FUZZ_SECS (default 12) is each hostile run's length,
# FUZZ_SEED (default 1) its first seed.
. "$(dirname "$0")/../lib/step.sh"
guest_boot fuzz --smp 4 -- "fuzz ${FUZZ_SECS:-12} ${FUZZ_SEED:-1}"
ktap fuzz "$OUT/fuzz.out" "$rc"
