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

# Hash of the patch series as it stands in patches/.
series_hash() {
	(cd "$TOP/patches" && cat series $(cat series)) | sha256sum | cut -c1-12
}
