# shellcheck shell=bash
# Common settings for the vm/ scripts.  Source it; do not run it.

TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BUILD=${BUILD:-$TOP/build}
KSRC_TARBALL=/usr/src/linux-source-6.1.tar.xz
KPKG=linux-source-6.1
KSRC=$BUILD/src/linux-source-6.1
# KVARIANT=debug selects the debug kernel (vm/config-debug.fragment on top).
KVARIANT=${KVARIANT:-}
case "$KVARIANT" in
'') KOBJ=$BUILD/obj; FRAGS="$TOP/vm/config.fragment" ;;
debug) KOBJ=$BUILD/obj-debug; FRAGS="$TOP/vm/config.fragment $TOP/vm/config-debug.fragment" ;;
*) echo "error: KVARIANT must be empty or 'debug', not '$KVARIANT'" >&2; exit 1 ;;
esac
JOBS=${JOBS:-$(nproc)}

log() { printf '==> %s\n' "$*" >&2; }
die() { printf 'error: %s\n' "$*" >&2; exit 1; }

# Version of the kernel source package, e.g. "6.1.192-3".
kpkg_version() {
	dpkg-query -W -f='${Version}' "$KPKG" 2>/dev/null || echo unknown
}

# Build the out-of-tree modules in DIR against $KOBJ.  DIR/.kdir records
# the kernel they were last built for; switching kernels (test/debug)
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
}

# The conditions of a benchmark run, as key=value lines on stdout.
host_info() {
	echo "kpkg_version=$(kpkg_version)"
	echo "series_hash=$(series_hash)"
	echo "qemu=$(qemu-system-x86_64 --version | head -1)"
	echo "accel=$(cat "$BUILD/accel" 2>/dev/null || echo tcg)"
	echo "host_cpu=$(grep -m1 '^model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//')"
	echo "host_cpus=$(nproc)"
	echo "date=$(date -u +%FT%TZ)"
}

# Hash of the patch series as it stands in patches/.
series_hash() {
	(cd "$TOP/patches" && cat series $(cat series)) | sha256sum | cut -c1-12
}
