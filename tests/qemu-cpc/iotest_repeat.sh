#!/bin/bash
# tests/qemu-cpc/iotest_repeat.sh OUT TEST FORMAT [RUNS] [SECTION]
#
# Whether a qemu-iotest's expected output depends on the order in which
# concurrent requests complete: runs TEST (e.g. 038) RUNS times (default 3)
# with the qemu-io of each build of tests/qemu-cpc/build.sh (OUT is its
# output directory) and prints, one a line,
#
#   qemu-cpc: repeat TEST FORMAT BACKEND runs N distinct D differing L1 L2 ...
#
# D: how many different outputs the N runs gave; Li: the lines of run i
# that differ from the expected output; then how many of the outputs both
# backends gave (an output that does not depend on the backend).  With SECTION (a line of the
# expected output, e.g. "== Verify image content =="), also
#
#   qemu-cpc: repeat TEST FORMAT BACKEND from "SECTION" on: S of N runs as expected
#
# Images are made by the CPC build's qemu-img for both backends: the
# ucontext build's aborts creating qcow2 images on this branch ("Co-routine
# is yielding to no one", docs/qemu-cpc.md).  The test directory is a copy:
# nothing of OUT is changed.  Not part of `make test`.
set -u
if [ $# -lt 3 ] || [ $# -gt 5 ]; then
    echo "usage: $0 OUT TEST FORMAT [RUNS] [SECTION]" >&2
    exit 2
fi
out=$(cd "$1" 2>/dev/null && pwd) || { echo "$0: $1: no such directory" >&2; exit 2; }
test=$2 fmt=$3 runs=${4:-3} section=${5:-}
die() { echo "$0: $*" >&2; exit 2; }
[ -f "$out/src/tests/qemu-iotests/$test" ] || die "$out/src/tests/qemu-iotests/$test: no such test"
for b in ucontext cpc; do
    [ -x "$out/build-$b/qemu-io" ] || die "$out/build-$b/qemu-io: not built (run build.sh first)"
done
[ -x "$out/build-cpc/qemu-img" ] || die "$out/build-cpc/qemu-img: not built"
python2=
for p in python2 python2.7 "$HOME"/.pyenv/versions/2.7*/bin/python2 /root/.pyenv/versions/2.7*/bin/python2; do
    if command -v "$p" >/dev/null 2>&1; then python2=$(command -v "$p"); break; fi
done
[ -n "$python2" ] || die "qemu-iotests need python2"

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp -a "$out/src/tests/qemu-iotests" "$work/iotests"
expected=$work/iotests/$test.out
for b in ucontext cpc; do
    bin=$work/bin-$b
    mkdir -p "$bin"
    for p in qemu-img:cpc qemu-io:$b qemu-nbd:$b; do
        printf '#!/bin/sh\nexec timeout -k 5 120 %s "$@"\n' "$out/build-${p#*:}/${p%%:*}" \
            > "$bin/${p%%:*}"
        chmod +x "$bin/${p%%:*}"
    done
    differing=() sums=() as_expected=0
    for i in $(seq 1 "$runs"); do
        scratch=$work/scratch
        rm -rf "$scratch" && mkdir -p "$scratch"
        ( cd "$work/iotests" &&
          PATH=$(dirname "$python2"):$PATH QEMU_PROG=/bin/false \
          QEMU_IMG_PROG=$bin/qemu-img QEMU_IO_PROG=$bin/qemu-io QEMU_NBD_PROG=$bin/qemu-nbd \
          TEST_DIR=$scratch timeout 600 ./check -"$fmt" "$test" ) > "$work/log" 2>&1
        got=$work/iotests/$test.out.bad
        [ -f "$got" ] || got=$expected          # passed: its output was the expected one
        differing+=("$(diff "$expected" "$got" | grep -cE '^[<>]')")
        sums+=("$(md5sum < "$got" | cut -c1-32)")
        if [ -n "$section" ] &&
                diff <(sed -n "/^$section\$/,\$p" "$expected") \
                     <(sed -n "/^$section\$/,\$p" "$got") >/dev/null; then
            as_expected=$((as_expected + 1))
        fi
        rm -f "$work/iotests/$test.out.bad"
    done
    distinct=$(printf '%s\n' "${sums[@]}" | sort -u | wc -l)
    printf '%s\n' "${sums[@]}" | sort -u > "$work/sums-$b"
    echo "qemu-cpc: repeat $test $fmt $b runs $runs distinct $distinct differing ${differing[*]}"
    if [ -n "$section" ]; then
        echo "qemu-cpc: repeat $test $fmt $b from \"$section\" on: $as_expected of $runs runs as expected"
    fi
done
common=$(comm -12 "$work/sums-ucontext" "$work/sums-cpc" | wc -l)
echo "qemu-cpc: repeat $test $fmt outputs common to both backends: $common"
