# shellcheck shell=bash
# Shared by the host check scripts: source it.  Prints "ok - ..." and
# "not ok - ..." lines for tests/run, and gives each script a scratch dir.
. "$(dirname "${BASH_SOURCE[0]}")/../../vm/common.sh"

ok() { echo "ok - $1"; }
not_ok() { echo "not ok - $1"; shift; for l in "$@"; do echo "# $l"; done; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
