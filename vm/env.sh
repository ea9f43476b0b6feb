# shellcheck shell=bash
# The project's shell environment, sourced by every script of the project
# (vm/, tests/, bench-user/host/): which kernel, where its source, series
# and build live, logging, out-of-tree module builds and the conditions
# of a run.  Source it; do not run it.
#
#   KERNEL=6.1 (default) or 6.12    the Debian linux-source package to use
#   KVARIANT= (test kernel), debug, kcsan or rt (6.12 only)
#
# Each kernel has its own tree and builds, side by side:
#   build/<KERNEL>/src/linux-source-<KERNEL>   extracted and patched source
#   build/<KERNEL>/obj[-<KVARIANT>]            out-of-tree kernel builds

TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BUILD=${BUILD:-$TOP/build}
JOBS=${JOBS:-$(nproc)}

log() { printf '==> %s\n' "$*" >&2; }
die() { printf 'error: %s\n' "$*" >&2; exit 1; }

KERNELS="6.1 6.12"
KERNEL=${KERNEL:-6.1}
case " $KERNELS " in
*" $KERNEL "*) ;;
*) die "KERNEL must be one of: $KERNELS (not '$KERNEL')" ;;
esac
KPKG=linux-source-$KERNEL
KSRC_TARBALL=/usr/src/$KPKG.tar.xz
KDIR_BASE=$BUILD/$KERNEL
PATCHES=$TOP/patches/$KERNEL

# Kernel variants: the configuration fragments on top of tinyconfig, and
# for nofix the series with one of tests/fixes/*.diff undone on top (make
# test-fixes), in a tree of its own.
KVARIANT=${KVARIANT:-}
KSRC=$KDIR_BASE/src/$KPKG
SERIES_EXTRA=
FRAGS="$TOP/vm/config/base.fragment"
[ -f "$TOP/vm/config/base-$KERNEL.fragment" ] && FRAGS="$FRAGS $TOP/vm/config/base-$KERNEL.fragment"
case "$KVARIANT" in
# The test kernel also carries what the benchmark's peers need (trace-cmd,
# perf, BPF: vm/config/peers.fragment); the other variants do not.
'') FRAGS="$FRAGS $TOP/vm/config/peers.fragment" ;;
debug|kcsan) FRAGS="$FRAGS $TOP/vm/config/$KVARIANT.fragment" ;;
# The series with one fix undone (make test-fixes): FIX_DIFF names the
# revert, one of tests/fixes/*.diff; one tree serves them all, in turn.
nofix)
	[ -f "${FIX_DIFF:-}" ] || die "KVARIANT=nofix needs FIX_DIFF=tests/fixes/NAME.diff (not '${FIX_DIFF:-}')"
	KSRC=$KDIR_BASE/src-nofix/$KPKG; SERIES_EXTRA=$(realpath "$FIX_DIFF") ;;
rt)
	[ "$KERNEL" != 6.1 ] ||
		die "KVARIANT=rt needs KERNEL=6.12: PREEMPT_RT is in mainline only since 6.12, and Debian's linux-source-6.1 does not carry the RT patches"
	FRAGS="$FRAGS $TOP/vm/config/rt.fragment" ;;
*) die "KVARIANT must be empty, debug, kcsan, rt (6.12) or nofix (not '$KVARIANT')" ;;
esac
# What one kernel's variant needs beyond the variant's own fragment.
if [ -n "$KVARIANT" ] && [ -f "$TOP/vm/config/$KVARIANT-$KERNEL.fragment" ]; then
	FRAGS="$FRAGS $TOP/vm/config/$KVARIANT-$KERNEL.fragment"
fi
KOBJ=$KDIR_BASE/obj${KVARIANT:+-$KVARIANT}
# A name for this kernel in logs and result folders: 6.1, 6.12-debug, ...
KNAME=$KERNEL${KVARIANT:+-$KVARIANT}

# Version of the kernel source package, e.g. "6.1.192-3".
kpkg_version() {
	dpkg-query -W -f='${Version}' "$KPKG" 2>/dev/null || echo unknown
}

# Hash of the patch series of $KERNEL as it stands in patches/<KERNEL>/.
series_hash() {
	(cd "$PATCHES" && cat series $(cat series)) | sha256sum | cut -c1-12
}

# The patches of the series of $KERNEL, in order, one path per line (and
# the variant's extra patch, if it has one).
series_files() {
	local p
	for p in $(cat "$PATCHES/series"); do
		[ -f "$PATCHES/$p" ] || die "$PATCHES/series names $p, which does not exist"
		echo "$PATCHES/$p"
	done
	[ -z "$SERIES_EXTRA" ] || echo "$SERIES_EXTRA"
}

# Configure the tree SRC into OBJ: tinyconfig + the fragments given, and
# fail naming every option that did not stick.
configure_kernel() {	# configure_kernel SRC OBJ FRAGMENT...
	local src obj line bad= f frags=()
	src=$(realpath "$1") obj=$(realpath -m "$2")
	shift 2
	for f in "$@"; do frags+=("$(realpath "$f")"); done
	mkdir -p "$obj"
	make -s -C "$src" O="$obj" tinyconfig >/dev/null
	(cd "$obj" && "$src/scripts/kconfig/merge_config.sh" -m -O "$obj" "$obj/.config" "${frags[@]}" >/dev/null) ||
		die "merge_config.sh failed in $obj"
	make -s -C "$src" O="$obj" olddefconfig >/dev/null
	while IFS= read -r line; do
		case "$line" in
		CONFIG_*|"# CONFIG_"*" is not set")
			grep -qxF "$line" "$obj/.config" || bad="$bad ${line}" ;;
		esac
	done < <(cat "${frags[@]}")
	[ -z "$bad" ] || die "config options that did not stick in $obj:$bad"
}

# Apply the patches given to the tree SRC with patch -p1, in order.  On a
# failure, back out what was applied (this patch's hunks included) and
# return 1 with patch's message on stderr.
apply_patches() {	# apply_patches SRC PATCH...
	local src=$1 p out done=()
	shift
	for p in "$@"; do
		if ! out=$(patch -d "$src" -p1 -N -s --no-backup-if-mismatch -r - <"$p" 2>&1); then
			printf '%s\n' "$out" >&2
			patch -d "$src" -p1 -R -s -f --no-backup-if-mismatch -r - <"$p" >/dev/null 2>&1 || true
			revert_patches "$src" "${done[@]}" || true
			echo "patch $(basename "$p") does not apply" >&2
			return 1
		fi
		done+=("$p")
	done
}

# Revert the patches given (listed in the order they were applied).
revert_patches() {	# revert_patches SRC PATCH...
	local src=$1 i
	shift
	for ((i = $#; i >= 1; i--)); do
		patch -d "$src" -p1 -R -s --no-backup-if-mismatch -r - <"${!i}" >/dev/null 2>&1 || return 1
	done
}

# Build the out-of-tree modules in DIR against $KOBJ.  DIR/.kdir records
# the kernel they were last built for; switching kernels or variants
# cleans them first, so that a module never carries the other's vermagic.
build_modules() {
	local dir=$1 logf
	logf=$(mktemp)
	if [ "$(cat "$dir/.kdir" 2>/dev/null)" != "$KOBJ" ]; then
		make -s -C "$dir" KDIR="$KOBJ" clean >/dev/null 2>&1 || true
	fi
	if ! make -s -C "$dir" KDIR="$KOBJ" >"$logf" 2>&1; then
		cat "$logf" >&2
		rm -f "$logf"
		die "$dir does not build against $KOBJ"
	fi
	rm -f "$logf"
	echo "$KOBJ" >"$dir/.kdir"
	sign_modules "$dir"/*.ko
}

# Build relaytrace, the series' consumer (tools/tracing/relaytrace in the
# patched tree), static for the busybox guest, in the variant's build
# (build/<kernel>/obj[-<variant>]/relaytrace/: a variant may patch it, and
# make would take another variant's objects, newer than its sources, for
# up to date); print its path.
build_relaytrace() {	# build_relaytrace [i386]
	local out=$KOBJ/relaytrace logf cc=()
	# i386: a 32-bit build, run by the x86_64 kernel's compat path, as
	# relaytrace32 (the guest's /extra/ holds both).
	[ "${1:-}" != i386 ] || { out=$KOBJ/relaytrace32; cc=(CC=i686-linux-gnu-gcc); }
	mkdir -p "$out"
	logf=$out/build.log
	make -C "$KSRC/tools/tracing/relaytrace" O="$out" LDFLAGS=-static "${cc[@]}" >"$logf" 2>&1 ||
		{ cat "$logf" >&2; die "relaytrace${1:+ ($1)} does not build (log: $logf)"; }
	if [ "${1:-}" = i386 ]; then
		cp "$out/relaytrace" "$out/relaytrace32"
		echo "$out/relaytrace32"
	else
		echo "$out/relaytrace"
	fi
}

# Sign modules with the key the kernel build made (certs/signing_key.pem),
# if the kernel checks signatures: a kernel booted with lockdown= loads
# signed modules only.  A module signed already is left alone.
sign_modules() {	# sign_modules KO...
	local ko
	grep -q '^CONFIG_MODULE_SIG=y' "$KOBJ/.config" || return 0
	for ko in "$@"; do
		[ -f "$ko" ] || continue
		tail -c 28 "$ko" | grep -q '~Module signature appended~' && continue
		"$KOBJ/scripts/sign-file" sha256 "$KOBJ/certs/signing_key.pem" \
			"$KOBJ/certs/signing_key.x509" "$ko" || die "cannot sign $ko"
	done
}

# Hash of a built kernel's configuration (DIR/.config, comments left
# out): a change of options changes it.
kconfig_hash() {	# kconfig_hash OBJ_DIR
	grep -v '^#' "$1/.config" | grep . | sha256sum | cut -c1-12
}

# lttng_can: whether the $KNAME kernel can have LTTng (vm/lttng --why-not,
# the one place that says why not): status 0 if it can; 1 if not, with
# why in $LTTNG_WHY; dies if vm/lttng cannot tell.
lttng_can() {
	local rc=0
	LTTNG_WHY=$("$TOP/vm/lttng" --why-not) || rc=$?
	[ "$rc" = 0 ] && return 0
	[ "$rc" = 1 ] && [ -n "$LTTNG_WHY" ] && return 1
	die "vm/lttng --why-not failed (status $rc)"
}

# Hash of the sources of a module of bench-module/ (its one definition:
# bench-user/report/conditions.py module_hash).
module_hash() {		# module_hash DIR NAME
	python3 "$TOP/bench-user/report/report.py" module-hash "$1" "$2"
}

# The conditions of a run on this host, as key=value lines on stdout.  The
# accelerator, the QEMU run, the kernel's release and configuration and
# the guest's facts come from the boot itself (vm/run --meta), not from
# here: each fact has one writer.
host_info() {
	echo "kernel=$KERNEL"
	echo "kvariant=${KVARIANT:-test}"
	echo "kpkg=$KPKG"
	echo "kpkg_version=$(kpkg_version)"
	echo "series_hash=$(series_hash)"
	echo "compiler=$(sed -n 's/^CONFIG_CC_VERSION_TEXT="\(.*\)"$/\1/p' "$KOBJ/.config" 2>/dev/null || gcc --version | head -1)"
	echo "host_cpu=$(grep -m1 '^model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//')"
	echo "host_cpus=$(nproc)"
	echo "date=$(date -u +%FT%TZ)"
}
