#!/bin/bash
# run-tests.sh BUILD SRC [NAME...] -- run the runtime tests listed in
# SRC/TESTS (only the named ones if names are given).
#
# TESTS has one line per test: `t_NAME  run run ...`; runs are
#   opt, O0, debug, tsan, packed  run that flavour; it must exit 0 and, if
#                          t_NAME.expected exists, print exactly it
#                          (flavours: see runtime-tests.mk)
#   valgrind               the opt binary under memcheck: no error, no leak
#   abort, abort-debug     the opt (or debug) binary must abort (SIGABRT)
#                          and its stderr contain every line of t_NAME.abort
#   exhausted, exhausted-debug  the opt (or debug) binary must exit with
#                          status 71 (CPC_EXIT_EXHAUSTED: out of memory or
#                          another resource) and its stderr contain every
#                          line of t_NAME.exhausted
#   lowstack               (modifier) run with a 256 KiB stack limit
# With RT_RUNS="run ..." in the environment, only those runs are made.
# Tests run two at a time (the machine has two cores).
set -u
BUILD=$1 SRC=$2
shift 2
ONLY=" $* "
OUT=$BUILD/out
mkdir -p "$OUT"
# --fair-sched: valgrind runs one OS thread at a time, and its default lock
# lets a cooperative loop that never blocks (a thread yielding while others
# are detached) keep it for whole time slices, starving the pool workers.
VALGRIND="valgrind -q --fair-sched=yes --error-exitcode=99 --leak-check=full \
  --errors-for-leak-kinds=definite,indirect,possible --show-leak-kinds=definite,indirect,possible"
export TSAN_OPTIONS="halt_on_error=1 exitcode=66 second_deadlock_stack=1"

run_one() {  # name run lowstack
    local name=$1 run=$2 low=$3 bin cmd expect_abort=0 expect_exit=0 flavour
    case $run in
        opt|O0|debug|tsan|packed) flavour=$run ;;
        valgrind) flavour=opt ;;
        abort) flavour=opt; expect_abort=1 ;;
        abort-debug) flavour=debug; expect_abort=1 ;;
        exhausted) flavour=opt; expect_exit=71 ;;
        exhausted-debug) flavour=debug; expect_exit=71 ;;
        *) echo "FAIL $name [$run]: unknown run in TESTS"; return 1 ;;
    esac
    bin=$BUILD/$flavour/$name
    cmd=("$bin")
    [ "$run" = valgrind ] && cmd=($VALGRIND "$bin")
    local log=$OUT/$name.$run start end rc
    start=$(date +%s.%N)
    if [ "$low" = 1 ]; then
        (ulimit -s 256; exec "${cmd[@]}") >"$log.out" 2>"$log.err"
    else
        "${cmd[@]}" >"$log.out" 2>"$log.err"
    fi
    rc=$?
    end=$(date +%s.%N)
    local t why=""
    t=$(printf '%.2fs' "$(echo "$end - $start" | bc)")
    if [ $expect_abort = 1 ]; then
        [ $rc = 134 ] || why="exit status $rc, expected an abort (134)"
        if [ -z "$why" ]; then
            while IFS= read -r line; do
                grep -qF -- "$line" "$log.err" || why="stderr lacks: $line"
            done < "$SRC/$name.abort"
        fi
    elif [ $expect_exit != 0 ]; then
        [ $rc = $expect_exit ] || why="exit status $rc, expected $expect_exit"
        if [ -z "$why" ]; then
            while IFS= read -r line; do
                grep -qF -- "$line" "$log.err" || why="stderr lacks: $line"
            done < "$SRC/$name.exhausted"
        fi
    else
        [ $rc = 0 ] || why="exit status $rc"
        if [ -z "$why" ] && [ -f "$SRC/$name.expected" ] &&
           ! diff -u "$SRC/$name.expected" "$log.out" >"$log.diff"; then
            why="output differs from $name.expected"
        fi
    fi
    if [ -n "$why" ]; then
        echo "FAIL $name [$run] ($t): $why"
        [ -f "$log.diff" ] && [ -s "$log.diff" ] && head -20 "$log.diff"
        tail -15 "$log.err" | sed 's/^/  stderr: /'
        return 1
    fi
    echo "ok   $name [$run] ($t)"
}

jobs_list=()
while read -r name runs; do
    case $name in ''|'#'*) continue ;; esac
    [ "$ONLY" != "  " ] && [[ "$ONLY" != *" $name "* ]] && continue
    low=0
    [[ " $runs " == *" lowstack "* ]] && low=1
    for run in $runs; do
        [ "$run" = lowstack ] && continue
        [ -n "${RT_RUNS:-}" ] && [[ " $RT_RUNS " != *" $run "* ]] && continue
        jobs_list+=("$name $run $low")
    done
done < "$SRC/TESTS"

fails=0
total=${#jobs_list[@]}
start=$(date +%s)
export -f run_one
export BUILD SRC OUT VALGRIND
printf '%s\n' "${jobs_list[@]}" |
    xargs -P 2 -L 1 bash -c 'run_one "$0" "$1" "$2" 2>/dev/null' >"$OUT/summary" 2>&1
cat "$OUT/summary"
fails=$(grep -c '^FAIL' "$OUT/summary")
echo "runtime tests: $((total - fails))/$total passed in $(( $(date +%s) - start ))s"
[ "$fails" = 0 ]
