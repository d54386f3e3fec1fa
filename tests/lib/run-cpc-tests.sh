#!/bin/bash
# run-cpc-tests.sh SUITE OUTDIR PROG.cpc...
#
# Builds each CPC program with bin/cpcc and checks that it exits 0 and
# prints exactly PROG.expected (next to PROG.cpc).  Every program is run in
# two builds:
#   opt    cpcc -O2 ...                  linked with $LIB_OBJS
#   debug  cpcc --cpc-debug -O0 -g ...   linked with $LIB_OBJS_DEBUG
#          (the debug runtime checks continuation ownership)
# and, when its source contains the marker "test: valgrind", once more
# under valgrind (opt build; any memory error or definite leak fails).
# A line "test: args A B..." gives the program's arguments.  The marker
# "test: tsan" adds a run under ThreadSanitizer (cpcc -O1 -fsanitize=thread
# -c, linked with $LIB_OBJS_TSAN and $RUNTIME_LIB_TSAN; any report fails).
#
# Environment: CPCC (default bin/cpcc), LIB_OBJS, LIB_OBJS_DEBUG,
# LIB_OBJS_TSAN, RUNTIME_LIB_TSAN,
# EXTRA_SRCS (sources compiled into every program),
# CPCFLAGS (extra flags), JOBS (parallel programs, default 2),
# TEST_TIMEOUT (seconds per run, default 60), NO_VALGRIND=1, NO_DEBUG=1.
# Prints one line per run and ends with "N passed, N failed"; exits 1 on
# any failure.

set -u
suite=$1 out=$2
shift 2
here=$(cd "$(dirname "$0")/../.." && pwd)
CPCC=${CPCC:-$here/bin/cpcc}
JOBS=${JOBS:-2}
TEST_TIMEOUT=${TEST_TIMEOUT:-60}
mkdir -p "$out"
out=$(cd "$out" && pwd)

# run_one PROG.cpc -> writes $out/NAME.results (one "PASS|FAIL variant" a line)
run_one() {
    local src=$1 name dir expected args res variant exe cmd rc
    name=$(basename "$src" .cpc)
    dir=$(dirname "$src")
    expected=$dir/$name.expected
    res=$out/$name.results
    : > "$res"
    args=$(sed -n 's/.*test: args \(.*\)\*\/.*/\1/p; s/.*test: args \(.*\)$/\1/p' "$src" | head -1)
    local variants="opt"
    [ "${NO_DEBUG:-0}" = 1 ] || variants="$variants debug"
    if grep -q 'test: valgrind' "$src" && [ "${NO_VALGRIND:-0}" != 1 ]; then
        variants="$variants valgrind"
    fi
    if grep -q 'test: tsan' "$src" && [ -n "${RUNTIME_LIB_TSAN:-}" ]; then
        variants="$variants tsan"
    fi
    for variant in $variants; do
        case $variant in
        opt|valgrind)
            exe=$out/$name
            if [ "$variant" = opt ]; then
                $CPCC -O2 ${CPCFLAGS:-} -I"$dir" -o "$exe" "$src" ${EXTRA_SRCS:-} ${LIB_OBJS:-} \
                    > "$out/$name.build.log" 2>&1 || {
                    echo "FAIL $variant build (see $out/$name.build.log)" >> "$res"; continue; }
            fi
            [ -x "$exe" ] || { echo "FAIL $variant no binary" >> "$res"; continue; }
            [ "$variant" = opt ] || command -v valgrind >/dev/null || {
                echo "FAIL $variant valgrind is not installed (make setup; or NO_VALGRIND=1)" >> "$res"; continue; }
            cmd="$exe"
            [ "$variant" = valgrind ] && cmd="valgrind --quiet --fair-sched=yes --leak-check=full --errors-for-leak-kinds=definite --error-exitcode=99 --log-file=$out/$name.valgrind.log $exe"
            ;;
        debug)
            exe=$out/$name.debug
            $CPCC --cpc-debug -O0 -g ${CPCFLAGS:-} -I"$dir" -o "$exe" "$src" ${EXTRA_SRCS:-} ${LIB_OBJS_DEBUG:-} \
                > "$out/$name.debug.build.log" 2>&1 || {
                echo "FAIL $variant build (see $out/$name.debug.build.log)" >> "$res"; continue; }
            cmd="$exe"
            ;;
        tsan)
            exe=$out/$name.tsan
            local objs="" f ok=1
            mkdir -p "$out/$name.tsan.d"
            for f in "$src" ${EXTRA_SRCS:-}; do
                $CPCC -O1 -g -fsanitize=thread ${CPCFLAGS:-} -I"$dir" -c "$f" \
                    -o "$out/$name.tsan.d/$(basename "$f").o" \
                    >> "$out/$name.tsan.build.log" 2>&1 || ok=0
                objs="$objs $out/$name.tsan.d/$(basename "$f").o"
            done
            [ $ok = 1 ] && ${CC:-cc} -fsanitize=thread -o "$exe" $objs ${LIB_OBJS_TSAN:-} \
                "$RUNTIME_LIB_TSAN" -pthread >> "$out/$name.tsan.build.log" 2>&1 || {
                echo "FAIL $variant build (see $out/$name.tsan.build.log)" >> "$res"; continue; }
            cmd="env TSAN_OPTIONS=halt_on_error=1:exitcode=66 $exe"
            ;;
        esac
        (cd "$out" && timeout -k 5 "$TEST_TIMEOUT" $cmd $args < /dev/null \
            > "$out/$name.$variant.out" 2> "$out/$name.$variant.err")
        rc=$?
        if [ $rc -ne 0 ]; then
            local logs="$out/$name.$variant.err"
            [ "$variant" = valgrind ] && logs="$logs, $out/$name.valgrind.log"
            echo "FAIL $variant exit $rc (see $logs)" >> "$res"
        elif ! diff -u "$expected" "$out/$name.$variant.out" > "$out/$name.$variant.diff"; then
            echo "FAIL $variant output (see $out/$name.$variant.diff)" >> "$res"
        else
            echo "PASS $variant" >> "$res"
        fi
    done
}
export -f run_one
export out CPCC JOBS TEST_TIMEOUT

printf '%s\n' "$@" | xargs -P "$JOBS" -I{} bash -c 'run_one "$1"' _ {}

pass=0 fail=0
for src in "$@"; do
    name=$(basename "$src" .cpc)
    while read -r status variant rest; do
        printf '%s %s/%s [%s] %s\n' "$status" "$suite" "$name" "$variant" "$rest"
        if [ "$status" = PASS ]; then pass=$((pass + 1)); else fail=$((fail + 1)); fi
    done < "$out/$name.results"
done
echo "$suite: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
