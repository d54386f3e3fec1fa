#!/bin/bash
# tests/qemu-cpc/build.sh QEMU_CHECKOUT [OUT]
#
# QEMU/CPC ("QEMU/CPC", docs/references.md) at full scale: the branch `cpc` of the paper's QEMU
# (QEMU 1.6-rc, with its coroutine annotations) built twice, by gcc with
# the ucontext backend and with --with-coroutine=cpc, where every file whose
# text contains `coroutine_fn` goes through cpcc and the others through gcc
# (tests/qemu-cpc/cc-wrapper).  Builds qemu-img, qemu-io, qemu-nbd and
# tests/test-coroutine, runs test-coroutine (and its -m perf benchmarks) and
# qemu-iotests for raw and qcow2 on both, and prints a summary, one fact a
# line, each starting with `qemu-cpc:` (docs/qemu-cpc.md says what they mean).
#
# QEMU_CHECKOUT is a git repository with the branch `cpc` (or a directory
# holding that branch's files); nothing of it is changed: its files are
# copied into OUT (default ./qemu-cpc-out), where the edits listed in
# docs/qemu-cpc.md are applied and counted.  The CPC backend is this
# project's lib/qemu/backend/coroutine-cpc.c.  Not part of `make test`.
#
# Needs: python2 (QEMU 1.6's build scripts; pyenv's 2.7 will do), the
# Debian packages of `make setup` plus libpixman-1-dev, zlib1g-dev and bc.
# QEMU_CPC_IOTESTS=0 skips qemu-iotests; QEMU_CPC_JOBS sets make -j;
# QEMU_CPC_COMMAND_LIMIT the seconds each command of an iotest may take (120).
set -u
if [ $# -lt 1 ] || [ $# -gt 2 ]; then
    echo "usage: $0 QEMU_CHECKOUT [OUT]" >&2
    exit 2
fi
qemu=$(cd "$1" 2>/dev/null && pwd) || { echo "$0: $1: no such directory" >&2; exit 2; }
out=${2:-$PWD/qemu-cpc-out}
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
jobs=${QEMU_CPC_JOBS:-$(nproc)}
cpcc=$top/bin/cpcc

die() { echo "$0: $*" >&2; exit 2; }

# ---------------------------------------------------------------- tools
python2=
for p in python2 python2.7 "$HOME"/.pyenv/versions/2.7*/bin/python2 /root/.pyenv/versions/2.7*/bin/python2; do
    if command -v "$p" >/dev/null 2>&1 &&
            "$p" -c 'import sys; sys.exit(sys.version_info[0] != 2)' >/dev/null 2>&1; then
        python2=$(command -v "$p"); break
    fi
done
[ -n "$python2" ] || die "QEMU 1.6's build scripts need python2 (e.g. pyenv install 2.7.18)"
for pc in pixman-1 zlib glib-2.0; do
    pkg-config --exists $pc || die "pkg-config $pc: missing (apt-get install libpixman-1-dev zlib1g-dev libglib2.0-dev)"
done
command -v bc >/dev/null || die "qemu-iotests need bc (apt-get install bc)"
make -C "$top" --no-print-directory -s setup runtime lib >/dev/null || die "cannot build CPC's runtime"

# ---------------------------------------------------------------- sources
mkdir -p "$out"
out=$(cd "$out" && pwd)
src=$out/src
src_ucontext=$out/src-ucontext
pristine=$out/pristine
rm -rf "$src" "$src_ucontext" "$pristine"
mkdir -p "$pristine"
if git -C "$qemu" rev-parse --verify -q cpc >/dev/null; then
    git -C "$qemu" archive cpc | tar -x -C "$pristine"
else
    [ -f "$qemu/coroutine-cpc.c" ] || die "$qemu: neither a branch cpc nor QEMU/CPC's files"
    (cd "$qemu" && tar --exclude=.git -cf - .) | tar -x -C "$pristine"
fi
cp -a "$pristine" "$src"

# The edits: each is what gcc 12 rejects in the branch, or a bug of the
# branch that breaks the ucontext build as well (docs/qemu-cpc.md lists
# them with gcc's message or the failure).
edit() {   # edit FILE PYTHON-EXPRESSION-ON-s
    "$python2" - "$src/$1" "$2" <<'PY' || die "edit of $1 failed"
import sys
path, expr = sys.argv[1], sys.argv[2]
s = open(path).read()
t = eval(expr, {'s': s})
if t == s:
    sys.exit('no change')
open(path, 'w').write(t)
PY
}
# 1. include/qemu-common.h declares coroutine_fn functions before
#    block/coroutine.h defines the macro: "expected '=', ',', ';', 'asm' or
#    '__attribute__' before 'qemu_co_sendv_recvv'".
edit include/qemu-common.h \
    "s.replace('#include \"cpc/cpc_runtime.h\"\n', '#include \"cpc/cpc_runtime.h\"\n#define coroutine_fn __attribute__((cps))\n', 1)"

# 2. The branch's native entries call cooperative code: `main` of qemu-io
#    and of qemu-img (native: it is where the program starts) calls
#    command_loop() and a command's handler, which reach coroutine_fn
#    functions (bdrv_create, bdrv_write_compressed, the vmstate and snapshot
#    functions, ...).  cpc-check reports each such call ("`main` stays
#    native: run the call in a new thread or coroutine").  It is a bug of
#    the branch in the ucontext build too: a coroutine_fn function that
#    yields outside a coroutine aborts there ("Co-routine is yielding to no
#    one", every qcow2 iotest's `qemu-img create`, iotest 048); CPS code
#    cannot be called from native code at all.  The fix is QEMU's own for
#    its synchronous wrappers (bdrv_sync_rwco): the call is made in a
#    coroutine, which the caller creates and enters, then runs the AIO loop
#    until it is done.  Applied to both trees, counted with the others.
entry_fixes=()
in_coroutine() {   # in_coroutine FILE CALL-STATEMENT TYPE-OF-RESULT REASON
    local file=$1 call=$2 type=$3 reason=$4
    "$python2" - "$src/$file" "$call" "$type" <<'PY' || die "edit of $file failed"
import re, sys
path, call, rtype = sys.argv[1:]
s = open(path).read()
i = s.find('\n' + call + '\n')
m = list(re.finditer(r'\nint main\(', s))
if i < 0 or not m:
    sys.exit('%s: `%s` or main not found' % (path, call.strip()))
m = m[-1]
ret = call.strip().startswith('return ')
expr = call.strip()[len('return '):] if ret else call.strip()
expr = expr.rstrip(';')
# the call's free variables go to the coroutine by address: qemu-img's
# `cmd->handler(argc, argv)` and qemu-io's `command_loop()`
names = [n for n in ('cmd', 'argc', 'argv') if re.search(r'\b%s\b' % n, expr)]
decl = {'cmd': 'const img_cmd_t *cmd', 'argc': 'int argc', 'argv': 'char **argv'}
fields = ''.join(' %s;' % decl[n] for n in names)
body = expr
for n in names:
    body = re.sub(r'\b%s\b' % n, 'c->' + n, body)
helper = ('/* qemu-cpc: `%s` is cooperative, and main stays native: it runs in a coroutine */\n'
          'typedef struct QemuCpcCall {%s %s bool done; } QemuCpcCall;\n'
          'static void coroutine_fn qemu_cpc_call_entry(void *opaque)\n'
          '{ QemuCpcCall *c = opaque; %s%s; c->done = true; }\n'
          'static %s qemu_cpc_call(%s)\n'
          '{ QemuCpcCall c = { %s }; '
          'qemu_coroutine_enter(qemu_coroutine_create(qemu_cpc_call_entry), &c); '
          'while (!c.done) { qemu_aio_wait(); } %s}\n') % (
              expr, fields, rtype + ' ret;' if rtype != 'void' else '',
              'c->ret = ' if rtype != 'void' else '', body,
              rtype, ', '.join(decl[n] for n in names) or 'void',
              ', '.join('.%s = %s' % (n, n) for n in names) or '.done = false',
              'return c.ret; ' if rtype != 'void' else '')
replacement = call[:len(call) - len(call.lstrip())] + \
    ('return ' if ret else '') + 'qemu_cpc_call(%s);' % ', '.join(names)
s = s[:i + 1] + replacement + s[i + 1 + len(call):]
m = list(re.finditer(r'\nint main\(', s))[-1]
s = s[:m.start() + 1] + helper + '\n' + s[m.start() + 1:]
open(path, 'w').write(s)
PY
    entry_fixes+=("$file: $reason")
}
in_coroutine qemu-io.c '    command_loop();' void \
    'command_loop is cooperative (its commands reach bdrv_write_compressed and the vmstate functions), main is native'
in_coroutine qemu-img.c '            return cmd->handler(argc, argv);' int \
    'img_cmd_t.handler is cooperative (img_convert, img_check... reach coroutine_fn functions), main is native'

# The CPC parts of the branch are the original CPC's: its backend (on the
# original continuation layout) and a copy of its runtime header in
# include/cpc/, which a quoted #include from include/ would find before
# this runtime's.  This project's backend takes the place of the first,
# and this runtime's header (cc-wrapper's -I) of the second.  Neither is
# an edit of QEMU's code.
# The ucontext build is the branch as it is (less the edits).
cp -a "$src" "$src_ucontext"
cp "$top/lib/qemu/backend/coroutine-cpc.c" "$src/coroutine-cpc.c"
rm -r "$src/include/cpc"

edits=$(cd "$out" && diff -ru --exclude=coroutine-cpc.c --exclude=cpc pristine src)
edit_files=$(printf '%s\n' "$edits" | grep -c '^+++ ')
edit_lines=$(printf '%s\n' "$edits" | grep -E '^[-+]' | grep -vcE '^(\+\+\+|---) ')

# ---------------------------------------------------------------- builds
targets="qemu-img qemu-io qemu-nbd tests/test-coroutine"
build() {   # build NAME BACKEND MODE SOURCES
    local name=$1 backend=$2 mode=$3 tree=$4 dir=$out/build-$1 include=
    [ "$mode" = cpc ] && include=$top/runtime/include
    rm -rf "$dir"
    mkdir -p "$dir"
    : > "$dir/times"
    (
        cd "$dir" &&
        export QEMU_CPC_MODE=$mode QEMU_CPC_CPCC=$cpcc QEMU_CPC_TIMES=$dir/times \
            QEMU_CPC_INCLUDE=$include QEMU_CPC_COMPDB=$dir/commands &&
        "$tree/configure" --cc="$here/cc-wrapper" --python="$python2" \
            --target-list= --disable-docs --disable-werror --disable-guest-agent \
            --with-coroutine="$backend" > configure.log 2>&1 &&
        : > times && : > commands &&
        make -j"$jobs" $targets > make.log 2>&1
    )
    local rc=$?
    if [ $rc != 0 ]; then
        echo "qemu-cpc: build $name FAILED (see $dir/configure.log, $dir/make.log)"
        grep -E "error:|undefined reference" "$dir/make.log" | head -20 | sed 's/^/qemu-cpc:   /'
    fi
    return $rc
}

run_coroutine_tests() {   # NAME
    local dir=$out/build-$1 log
    log=$dir/test-coroutine.log
    if [ ! -x "$dir/tests/test-coroutine" ]; then
        echo "0 0" ; return
    fi
    timeout 300 "$dir/tests/test-coroutine" > "$log" 2>&1
    timeout 600 "$dir/tests/test-coroutine" -m perf > "$dir/test-coroutine-perf.log" 2>&1
    local pass run
    pass=$(grep -c '^ok ' "$log")
    run=$(grep -cE '^(not )?ok ' "$log")
    echo "$pass $run"
}

run_iotests() {   # NAME FORMAT -> prints "PASS RUN FAILED-NAMES"
    local dir=$out/build-$1 fmt=$2 log scratch
    log=$dir/iotests-$fmt.log
    scratch=$dir/iotests-scratch-$fmt
    rm -rf "$scratch"
    mkdir -p "$scratch"
    if [ ! -x "$dir/qemu-img" ] || [ ! -x "$dir/qemu-io" ]; then
        echo "0 0 (not built)"; return
    fi
    # Each command of a test runs under its own time limit: a command that
    # hangs (the ucontext build's `qemu-img snapshot -a` spins on this
    # branch) fails its test instead of holding the whole run until the
    # run's own limit kills it with no summary.
    local bin=$dir/iotests-bin
    rm -rf "$bin"
    mkdir -p "$bin"
    for p in qemu-img qemu-io qemu-nbd; do
        printf '#!/bin/sh\nexec timeout -k 5 %s %s "$@"\n' "${QEMU_CPC_COMMAND_LIMIT:-120}" \
            "$dir/$p" > "$bin/$p"
        chmod +x "$bin/$p"
    done
    (
        cd "$src/tests/qemu-iotests" &&
        # the tests that start the system emulator (iotests.VM, $QEMU), which
        # is not built, would wait for it: they are left out
        tests=$(for t in [0-9][0-9][0-9]; do
                    grep -qE 'iotests\.VM|\$\{?QEMU\}? |_launch_qemu|QEMU_PROG' "$t" || echo "$t"
                done) &&
        PATH=$(dirname "$python2"):$PATH \
        QEMU_PROG=/bin/false QEMU_IMG_PROG=$bin/qemu-img QEMU_IO_PROG=$bin/qemu-io \
        QEMU_NBD_PROG=$bin/qemu-nbd TEST_DIR=$scratch \
        timeout 1800 ./check -$fmt $tests
    ) > "$log" 2>&1
    local failed run
    failed=$(sed -n 's/^Failures: //p' "$log")
    run=$(sed -n -e 's/^Passed all \([0-9]*\) tests.*/\1/p' -e 's/^Failed [0-9]* of \([0-9]*\) tests.*/\1/p' "$log")
    run=${run:-0}
    local nfail=0
    [ -n "$failed" ] && nfail=$(echo $failed | wc -w)
    echo "$((run - nfail)) $run ${failed}"
}

build ucontext ucontext gcc "$src_ucontext"

# The annotations the branch lacks: cpc-check --fix over every file of the
# programs, with the compile commands of the ucontext build (the same
# files and flags, in the other tree; the generated headers of the ucontext
# build).
fixdb=$out/cpc-check
mkdir -p "$fixdb"
python3 - "$out/build-ucontext/commands" "$src_ucontext" "$src" "$fixdb/compile_commands.json" <<'PY'
import json, re, sys
commands, old, new, dst = sys.argv[1:]
seen = {}
for line in open(commands):
    # every path into the ucontext tree, its bare -I included, names the
    # tree cpc-check fixes (a header read from the other tree would be
    # analysed, and edited, there)
    e = json.loads(re.sub(re.escape(old) + r'(?=[/"])', new, line))
    seen[e['file']] = e
json.dump(list(seen.values()), open(dst, 'w'), indent=1)
PY
cp -a "$src" "$out/before-fix"
( cd "$out" && /usr/bin/time -f '%e' -o "$fixdb/seconds" \
    "$top/tools/cpc-check" --coroutine-attr coroutine_fn -q --fix -p "$fixdb" ) \
    > "$fixdb/fix.log" 2>&1
fix_status=$?
fixes=$(cd "$out" && diff -ru before-fix src)
fix_files=$(printf '%s\n' "$fixes" | grep -c '^+++ ')
fix_lines=$(printf '%s\n' "$fixes" | grep -E '^[-+]' | grep -vcE '^(\+\+\+|---) ')
printf '%s\n' "$fixes" > "$fixdb/fix.diff"
rm -rf "$out/before-fix"


build cpc cpc cpc "$src"

# ---------------------------------------------------------------- tests
summary=()
summary+=("qemu-cpc: edits $edit_files $edit_lines")
summary+=("qemu-cpc:   edit include/qemu-common.h: coroutine_fn used before its definition (gcc 12 rejects it)")
for u in "${entry_fixes[@]}"; do
    summary+=("qemu-cpc:   edit $u")
done
summary+=("qemu-cpc: edits-undecidable 0 0")
summary+=("qemu-cpc: cpc-check --fix $fix_files files $fix_lines lines, status $fix_status, $(tail -n 1 "$fixdb/seconds" 2>/dev/null || echo '?') s (see $fixdb/fix.diff)")
for b in ucontext cpc; do
    read -r pass run < <(run_coroutine_tests $b)
    summary+=("qemu-cpc: test-coroutine $b $pass/$run")
done
if [ "${QEMU_CPC_IOTESTS:-1}" != 0 ]; then
    for fmt in raw qcow2; do
        for b in ucontext cpc; do
            read -r pass run failed < <(run_iotests $b $fmt)
            summary+=("qemu-cpc: iotests $fmt $b $pass/$run${failed:+ failed: $failed}")
        done
    done
fi
# cpcc's CPU time on each file it compiled, beside gcc's on the same file
# in the ucontext build
while read -r tool file cpu; do
    [ "$tool" = cpcc ] || continue
    gcc_cpu=$(awk -v f="$src_ucontext/${file#$src/}" '$2 == f { print $3 }' "$out/build-ucontext/times" | tail -1)
    summary+=("qemu-cpc: translate ${file#$src/} $cpu ${gcc_cpu:-?}")
done < "$out/build-cpc/times"
printf '%s\n' "${summary[@]}"
