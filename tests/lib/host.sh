# shellcheck shell=bash
# Shared by the host check scripts in tests/host/: source it.  They print
# "ok - ..." and "not ok - ..." lines (with "# " details), which tests/run
# turns into PASS and FAIL lines; each script gets a scratch directory.
. "$(dirname "${BASH_SOURCE[0]}")/../../vm/env.sh"

ok() { echo "ok - $1"; }
not_ok() { echo "not ok - $1"; shift; for l in "$@"; do echo "# $l"; done; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
