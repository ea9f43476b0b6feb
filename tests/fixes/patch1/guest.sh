#!/bin/sh
# In the guest (tests/fixes/patch1/run): load relay_alone.ko, whose writer
# runs for $1 ms once readcheck starts it, and check what read(2) returns.
set -e
insmod ./relay_alone.ko duration_ms="${1:-1000}"
./readcheck /sys/kernel/debug/relay_alone
rmmod relay_alone
dmesg | grep -E "relay_alone|relay-probe" || true
