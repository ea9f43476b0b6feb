#!/bin/bash
# step: 40 test
# Step: the traces on a locked-down kernel (tests/guest/lockdown.sh).
#   - a boot with lockdown=integrity, the level of distribution kernels
#     booted with UEFI Secure Boot: the project's modules are signed with
#     the key the kernel build made (sign_modules in vm/env.sh), debugfs
#     refuses its writable files, and the traces' tracefs files work: the
#     functional tests and relaytrace's run there whole;
#   - a boot that raises the level to confidentiality at run time, with a
#     trace set up before: its files are refused on open, a CPU cannot come
#     online while the trace exists, and no trace can be set up afterwards.
. "$(dirname "$0")/../lib/step.sh"
guest_boot lockdown-integrity --smp 4 --append lockdown=integrity -- "lockdown integrity" guest relaytrace
ktap_docs "$OUT/lockdown-integrity.out" "$rc" "lockdown=integrity" "lockdown=integrity: guest" \
	"lockdown=integrity: relaytrace"
guest_boot lockdown-confidentiality --smp 4 -- "lockdown confidentiality"
ktap "lockdown confidentiality" "$OUT/lockdown-confidentiality.out" "$rc"
