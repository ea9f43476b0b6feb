# shellcheck shell=bash
# Sourced first by each step of tests/run (tests/steps/NAME.sh).  A step
# is a process of its own, as a kunit.py stage is: tests/run gives it, in
# its environment, OUT (the folder of this run's logs), TMO (the boots'
# timeout), RESULT_LOG and the variant's VM_APPEND; a step shares nothing
# with another but the files in OUT.  `tests/run --step NAME` runs one.
set -eu -o pipefail
. "$(dirname "${BASH_SOURCE[0]}")/../../vm/env.sh"
. "$TOP/tests/lib/result.sh"
. "$TOP/tests/lib/guest.sh"
cd "$TOP"
: "${OUT:?a step runs under tests/run: tests/run --step NAME}" "${TMO:?}"
REPORT=bench-user/report/report.py

# field JSON KEY: a field of a verdict or comparison (report.py field), or
# "?" if it has none -- what every verdict assertion reads.
field() {
	python3 "$REPORT" field "$1" "$2" 2>/dev/null || echo "?"
}

# benchfmt_check FILE RESULTS KEYS UNITS: FILE parses under the Go
# benchmark format's grammar (report.py benchfmt), with RESULTS results,
# each of KEYS among its names' keys, and a Unit line with better= for
# each of UNITS.
benchfmt_check() {
	local f=$1 n=$2 keys=$3 units=$4 j bad='' k
	j=$OUT/$(basename "$(dirname "$f")")-benchfmt.json
	if ! python3 "$REPORT" benchfmt --json "$f" >"$j" 2>"$j.err"; then
		result fail "benchfmt: ${f#"$OUT"/} parses as the Go benchmark format" "$(cat "$j.err")"
		return 0
	fi
	[ "$(field "$j" results)" = "$n" ] || bad="$bad; $(field "$j" results) results, not $n"
	for k in $keys; do grep -qx "$k" <<<"$(field "$j" name_keys)" || bad="$bad; no name key $k"; done
	for k in $units; do [ "$(field "$j" "units.$k.better")" != "?" ] || bad="$bad; no 'Unit $k better=...' line"; done
	if [ -z "$bad" ]; then
		result ok "benchfmt: ${f#"$OUT"/}: $n results, name keys $(field "$j" name_keys | paste -sd ' '), units $units"
	else
		result fail "benchfmt: ${f#"$OUT"/} has its results, keys and units" "${bad#; }"
	fi
}
