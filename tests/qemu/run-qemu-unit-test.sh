#!/bin/bash
# run-qemu-unit-test.sh QEMU_CHECKOUT [TEST-ARGS...]
#
# Builds QEMU's own coroutine unit tests (tests/unit/test-coroutine.c of a
# QEMU checkout, unchanged) with bin/cpcc against <cpc/qemu-coroutine.h>
# and runs them (GLib's test framework; pass -m perf for the benchmarks).
# The file is copied outside the repository, as a .cpc file, and compiled
# with tests/qemu/shim/ standing in for QEMU's headers (qemu/osdep.h,
# qemu/coroutine_int.h, qemu/lockable.h).  Needs libglib2.0-dev (make
# setup).  Not part of `make test`: QEMU's files are not in this
# repository.  Builds both the -O2 and the --cpc-debug flavours and runs
# each; prints GLib's TAP output.
set -eu
if [ $# -lt 1 ] || [ ! -f "$1/tests/unit/test-coroutine.c" ]; then
    echo "usage: $0 QEMU_CHECKOUT [TEST-ARGS...]  (needs QEMU_CHECKOUT/tests/unit/test-coroutine.c)" >&2
    exit 2
fi
qemu=$1
shift
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/cpc-qemu-unit.XXXXXX")
trap 'rm -rf "$work"' EXIT
cp "$qemu/tests/unit/test-coroutine.c" "$work/test-coroutine.cpc"
glib=$(pkg-config --cflags glib-2.0) || { echo "$0: GLib not found (apt install libglib2.0-dev)" >&2; exit 2; }
glib_libs=$(pkg-config --libs glib-2.0)
status=0
for flavour in opt debug; do
    case $flavour in
    opt) flags="-O2" ;;
    debug) flags="--cpc-debug -O0 -g" ;;
    esac
    "$top/bin/cpcc" $flags -I"$here/shim" $glib -o "$work/test-coroutine.$flavour" \
        "$work/test-coroutine.cpc" $glib_libs
    echo "# test-coroutine ($flavour build)"
    "$work/test-coroutine.$flavour" --tap "$@" || status=1
done
exit $status
