# shellcheck shell=bash
# Helpers of the test steps that boot the kernel: turn a KTAP log into
# PASS and FAIL lines with the kernel tree's own parser
# (tools/testing/kunit/kunit.py parse), and boot with the step's logs in
# OUT.  Sourced by tests/lib/step.sh, which sets OUT and TMO.

# consoles: every console of this run's boots, their paths, one a line
# (vm_test's NAME.log, and console.log in a result folder).
consoles() {
	ls "$OUT"/*.log "$OUT"/*/console.log 2>/dev/null || true
}

# ktap PREFIX LOG STATUS [SUITE]: one result per test case of LOG, and a
# failure if the log is not complete (its plan unmet, or the boot failed).
ktap() {
	local prefix=$1 file=$2 st=$3 suite=${4:-} line plan= count= detail=()
	while IFS= read -r line; do
		case "$line" in
		"PASS "*|"SKIP "*) result ok "$prefix: ${line#* }" ;;
		"FAIL "*) result fail "$prefix: ${line#FAIL }" ;;
		"# "*) echo "        ${line#\# }" ;;
		"plan "*) read -r _ plan _ count <<<"$line" ;;
		esac
	done < <(python3 "$TOP/tests/lib/ktap.py" "$KSRC/tools/testing/kunit/kunit.py" "$file" $suite 2>&1 ||
		echo "plan -2 results 0")
	[ -f "$file" ] || detail+=("no log $file")
	# Status 1 is the script's own verdict, already counted above; any
	# other means the boot did not run it to its end.
	if [ "${count:-0}" = 0 ] || { [ "${plan:--1}" != -1 ] && [ "$plan" != "$count" ]; } ||
	   { [ "$st" != 0 ] && [ "$st" != 1 ]; }; then
		result fail "$prefix: ran to completion" "plan ${plan:-?}, ${count:-0} results, vm/run status $st" \
			"${detail[@]}" "logs: $(ls "$OUT"/*.log 2>/dev/null | tr '\n' ' ')"
	fi
}

# vm_test NAME ARGS...: vm/run --quiet with this variant's timeout, the
# output and console saved as $OUT/NAME.out and $OUT/NAME.log; sets rc.
# A step run alone (tests/run --step) may follow a run of another kernel
# or variant, whose modules tests/module/ and bench-module/ then hold:
# they are rebuilt for this one (build_modules does nothing otherwise).
vm_test() {
	local name=$1
	shift
	[ -f "$KOBJ/arch/x86/boot/bzImage" ] || die "no $KNAME kernel in $KOBJ: run tests/run --step build first"
	build_modules tests/module
	build_modules bench-module
	rc=0
	vm/run --quiet --timeout "$TMO" --output "$OUT/$name.out" --console "$OUT/$name.log" \
		--meta "$OUT/$name.boot" "$@" >/dev/null 2>"$OUT/$name.err" || rc=$?
	return 0
}

# guest_programs: tests/guest's programs, built against the series' UAPI,
# for a script that builds no test kernel first (make test-fixes,
# tests/fixes/detect): the series' tree is extracted and patched if this
# checkout has none yet, or brought up to date with patches/.
guest_programs() {
	vm/build-kernel --source-only || die "cannot prepare the series' tree"
	make -s -C tests/guest UAPI="$KSRC/include/uapi" || die "tests/guest does not build"
}

# relaytrace_bin: the path of relaytrace, the series' consumer, built for
# the guest (make relaytrace); built now if it is not up to date.
relaytrace_bin() {
	build_relaytrace
}

# guest_script NAME: GS_CMD and GS_FILES, the command and the files of
# the line of tests/guest/scripts that names NAME (an unknown name is
# fatal: not called in $(...), where die would end only the subshell).
guest_script() {
	local line
	line=$(awk -F' *[|] *' -v n="$1" '!/^#/ && NF >= 3 && $1 == n { print $2 "|" $3 }' \
		"$TOP/tests/guest/scripts")
	[ -n "$line" ] || die "no guest script '$1' in tests/guest/scripts"
	GS_CMD=${line%%|*} GS_FILES=${line#*|}
}

# guest_adds NAME...: set GUEST_ADD to the vm/run --add arguments of the
# guest scripts NAME... (tests/guest/scripts), each file once.
guest_adds() {
	local name f seen=' '
	GUEST_ADD=()
	for name in "$@"; do
		guest_script "$name"
		for f in $GS_FILES; do
			case "$f" in
			@relaytrace) f=$(relaytrace_bin) ;;
			@relaytrace32) f=$(build_relaytrace i386) ;;
			@kobj/*) f=$KOBJ/${f#@kobj/} ;;
			esac
			case "$seen" in *" $f "*) continue ;; esac
			seen="$seen$f "
			GUEST_ADD+=(--add "$f")
		done
	done
}

# guest_cmd "NAME [ARG...]"...: set GUEST_CMD to the guest's command that
# runs each named script in turn (with its arguments), whatever the
# others' status, and exits with their statuses or'ed (1: a script's own
# verdict).
guest_cmd() {
	local s name args
	GUEST_CMD='st=0; '
	for s in "$@"; do
		read -r name args <<<"$s"
		guest_script "$name"
		GUEST_CMD="$GUEST_CMD$GS_CMD${args:+ $args}; st=\$((st | \$?)); "
	done
	GUEST_CMD="${GUEST_CMD}exit \$st"
}

# guest_boot VMNAME [VM_RUN_ARGS...] -- "NAME [ARG...]"...: vm_test VMNAME
# with the files of the named guest scripts, running them in turn (one
# KTAP document each, for ktap_docs).
guest_boot() {
	local vmname=$1 a=() s names=()
	shift
	while [ $# -gt 0 ] && [ "$1" != -- ]; do a+=("$1"); shift; done
	[ "${1:-}" = -- ] || die "guest_boot: no -- before the guest scripts"
	shift
	for s in "$@"; do names+=("${s%% *}"); done
	guest_adds "${names[@]}"
	guest_cmd "$@"
	vm_test "$vmname" "${a[@]}" "${GUEST_ADD[@]}" -- sh -c "$GUEST_CMD"
}

# ktap_docs FILE STATUS PREFIX...: FILE holds one KTAP document per guest
# script the boot ran, in order ("TAP version" starts each); each is read
# as ktap does, under its PREFIX, from FILE.1, FILE.2...
ktap_docs() {
	local file=$1 st=$2 i=0 p
	shift 2
	rm -f "$file".[0-9]*
	[ -f "$file" ] && awk -v f="$file" '/^K?TAP version/ { n++ } n { print > (f "." n) }' "$file"
	for p in "$@"; do
		i=$((i + 1))
		ktap "$p" "$file.$i" "$st"
	done
}
