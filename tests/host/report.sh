#!/bin/bash
# The report's formats, each shown accepting good input and refusing
# broken input (tests/host/test_report.py says which).
set -eu -o pipefail
. "$(dirname "$0")/../lib/host.sh"
python3 "$TOP/tests/host/test_report.py" || true
