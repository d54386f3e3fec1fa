#!/bin/bash
# run.sh TOP WORKDIR -- `make test-install`: install CPC into a temporary
# prefix and use it as a user would.
#
# The prefix stands for /usr/local: the compiler and the loader find it
# through CPATH, LIBRARY_PATH, LD_LIBRARY_PATH, PKG_CONFIG_PATH and
# CMAKE_PREFIX_PATH, which add directories to their default search paths
# exactly as /usr/local is on them, so every build below is the plain
# command a user types (`cc prog.o -lcpc`, no -I or -L).
#
# Each check prints "ok   NAME" or "FAIL NAME: why"; the exit status is
# non-zero if one failed.
set -u
TOP=$1 WORK=$2
MAKE=${MAKE:-make}
rm -rf "$WORK"
mkdir -p "$WORK"
# The installation prefix.  Run as root, the tests below also use it as an
# unprivileged user (nobody): it then lies in a directory of its own that
# every user can enter, wherever the checkout is.
if [ "$(id -u)" = 0 ]; then
    PBASE=$(mktemp -d /tmp/cpc-install-test.XXXXXX) && chmod 755 "$PBASE" || exit 1
    trap 'rm -rf "$PBASE"' EXIT
    P=$PBASE/usr
else
    PBASE= P=$WORK/usr
fi
PROJECT=$TOP/tests/install/project
EXPECTED=$TOP/tests/install/seeder.expected
fails=0

ok()   { echo "ok   $1"; }
fail() { echo "FAIL $1: $2"; fails=$((fails + 1)); }
# expect_output NAME FILE COMMAND...: COMMAND's stdout must equal FILE.
expect_output() {
    local name=$1 want=$2; shift 2
    local out rc
    out=$("$@" 2>"$WORK/stderr"); rc=$?
    if [ $rc != 0 ]; then
        fail "$name" "exit status $rc ($(tail -3 "$WORK/stderr"))"
    elif [ "$out" != "$(cat "$want")" ]; then
        fail "$name" "output '$out', expected '$(cat "$want")'"
    else
        ok "$name"
    fi
}
# expect_link_error NAME MESSAGE COMMAND...: COMMAND fails, saying MESSAGE.
expect_link_error() {
    local name=$1 msg=$2; shift 2
    if "$@" >"$WORK/out" 2>&1; then
        fail "$name" "the link succeeded"
    elif ! grep -qF -- "$msg" "$WORK/out"; then
        fail "$name" "no '$msg' in: $(tail -3 "$WORK/out")"
    else
        ok "$name"
    fi
}
# no_files NAME DIR: nothing but (empty) directories left under DIR.
no_files() {
    local left
    left=$(find "$2" -mindepth 1 ! -type d 2>/dev/null | head -5)
    if [ -n "$left" ]; then fail "$1" "left behind: $left"; else ok "$1"; fi
}
run_make() { "$MAKE" --no-print-directory -s -C "$TOP" "$@" LDCONFIG=true >"$WORK/make.log" 2>&1; }

# ---- what each goal installs: the Debian packages its setup asks for (a dry
# run from a fresh build directory)
goal_packages() {
    "$MAKE" --no-print-directory -n -C "$TOP" "$1" BUILD="$WORK/fresh" 2>/dev/null |
        grep -o 'for p in [^;]*;' | sed -e 's/^for p in //' -e 's/;$//' | tr ' ' '\n' |
        grep . | sort -u | tr '\n' ' '
}
want_demo=$("$MAKE" --no-print-directory -s -C "$TOP" print-DEB_PACKAGES | tr ' ' '\n' | grep . | sort -u | tr '\n' ' ')
got=$(goal_packages demo)
[ -n "$got" ] && [ "$got" = "$want_demo" ] && ok "make demo asks only for its own packages ($got)" ||
    fail "make demo asks only for its own packages" "it asks for: $got (the demo needs: $want_demo)"
got=$(goal_packages setup-test)    # what `make test` asks for first
bench_only=
for p in nginx-light python3-matplotlib hyperfine libboost-context-dev creduce; do
    case " $got " in *" $p "*) bench_only="$bench_only $p";; esac
done
[ -z "$bench_only" ] && ok "make test asks for no benchmark-only package" ||
    fail "make test asks for no benchmark-only package" "it asks for:$bench_only"
case " $got " in *" cmake "*) ok "make test asks for the test suites' packages (cmake)";;
    *) fail "make test asks for the test suites' packages (cmake)" "no cmake in: $got";; esac
rm -rf "$WORK/fresh"

# ---- staged install (DESTDIR): everything lands under it, nothing names it
STAGE=$WORK/stage
if run_make install DESTDIR="$STAGE" PREFIX=/usr/local; then
    top=$(cd "$STAGE" && find . -mindepth 1 -maxdepth 2 | sort | tr '\n' ' ')
    [ "$top" = "./usr ./usr/local " ] && ok "destdir: files only under DESTDIR/PREFIX" ||
        fail "destdir: files only under DESTDIR/PREFIX" "found $top"
    named=$(grep -rlI -- "$STAGE" "$STAGE" | head -3)
    [ -z "$named" ] && ok "destdir: no installed file names the staging directory" ||
        fail "destdir: no installed file names the staging directory" "$named"
    [ -x "$STAGE/usr/local/bin/cpcc" ] && [ -f "$STAGE/usr/local/lib/libcpc.so.0" ] &&
        [ -f "$STAGE/usr/local/include/cpc/cpc_runtime.h" ] &&
        [ -f "$STAGE/usr/local/share/man/man7/cpc.7" ] && ok "destdir: the layout" ||
        fail "destdir: the layout" "bin/cpcc, lib/libcpc.so.0, include/cpc, man7 missing"
    run_make uninstall DESTDIR="$STAGE" PREFIX=/usr/local ||
        fail "destdir: uninstall" "$(tail -3 "$WORK/make.log")"
    no_files "destdir: uninstall leaves nothing" "$STAGE"
else
    fail "destdir: make install" "$(tail -5 "$WORK/make.log")"
fi

# ---- staged install into gdb's own prefix: the extension goes where gdb
# trusts it by default (its data directory's auto-load/), the libraries name
# that copy, and make install says gdb needs no setting
gdbdata=$(gdb -nx -batch -ex 'show data-directory' 2>/dev/null |
          sed -n 's/^GDB.s data directory is "\(.*\)"\.$/\1/p')
if [ -n "$gdbdata" ]; then
    STAGE=$WORK/stage-gdb
    script=$gdbdata/auto-load/cpc/cpc-gdb.py
    if run_make install DESTDIR="$STAGE" PREFIX=/usr datarootdir="$(dirname "$gdbdata")"; then
        named=$(readelf -p .debug_gdb_scripts "$STAGE/usr/lib/libcpc.so.0" 2>/dev/null |
                sed -n 's/^ *\[ *[0-9]*\] *//p')
        [ -f "$STAGE$script" ] && [ ! -e "$STAGE/usr/share/cpc/gdb" ] &&
            [ "$named" = "$script" ] &&
            grep -qF "gdb loads the CPC extension ($script, in its auto-load directory) by itself" \
                "$WORK/make.log" && ! grep -q "add-auto-load-safe-path" "$WORK/make.log" &&
            ok "gdb's prefix: the extension installed where gdb trusts it ($script)" ||
            fail "gdb's prefix: the extension installed where gdb trusts it" \
                 "file: $(cd "$STAGE" && find . -name cpc-gdb.py); section: $named; $(tail -2 "$WORK/make.log")"
        run_make uninstall DESTDIR="$STAGE" PREFIX=/usr datarootdir="$(dirname "$gdbdata")" ||
            fail "gdb's prefix: uninstall" "$(tail -3 "$WORK/make.log")"
        no_files "gdb's prefix: uninstall leaves nothing" "$STAGE"
    else
        fail "gdb's prefix: make install" "$(tail -5 "$WORK/make.log")"
    fi
fi

# ---- the real thing -------------------------------------------------------
if ! run_make install PREFIX="$P"; then
    fail "make install" "$(tail -5 "$WORK/make.log")"
    exit 1
fi
ok "make install PREFIX=$P"
# gdb declines the extension until its directory is trusted: make install says how
grep -qF "add-auto-load-safe-path $P/share/cpc/gdb" "$WORK/make.log" &&
    ok "make install says how gdb trusts the extension" ||
    fail "make install says how gdb trusts the extension" "$(tail -3 "$WORK/make.log")"
# the extension is the script gdb loads and its package, every module of it
# (and nothing else: no compiled leftovers of the checkout)
want=$(cd "$TOP/tools/gdb" && ls cpc-gdb.py cpcgdb/*.py)
got=$(cd "$P/share/cpc/gdb" 2>/dev/null && find . -type f | sed 's|^\./||' | sort)
[ -n "$want" ] && [ "$got" = "$(printf '%s\n' $want | sort)" ] &&
    ok "the installed gdb extension is cpc-gdb.py and its package ($(echo "$want" | wc -l) files)" ||
    fail "the installed gdb extension is cpc-gdb.py and its package" \
         "$(printf '%s\n' $want | sort | diff - <(echo "$got") | head -5 | tr '\n' ' ')"
# the translator's C helper is installed beside its package, and the
# installed translator loads it from there (not from the checkout's build)
helper=$(cd / && "$P/lib/cpc/venv/bin/python" -c 'from cpc import native, cursors; import os
f = cursors._lister(); print(f is not None and os.path.exists(native.candidates()[0]))' 2>&1)
[ "$helper" = True ] &&
    ok "the installed translator loads its C helper (cursor_facts.so)" ||
    fail "the installed translator loads its C helper (cursor_facts.so)" "$helper"

# A user's environment: the prefix is on the default search paths, the
# checkout is not (an empty PYTHONPATH, another working directory).
export PATH="$P/bin:/usr/bin:/bin" CPATH="$P/include" LIBRARY_PATH="$P/lib" \
       LD_LIBRARY_PATH="$P/lib" PKG_CONFIG_PATH="$P/lib/pkgconfig" \
       CMAKE_PREFIX_PATH="$P" PYTHONPATH=
unset CC CFLAGS LDFLAGS MAKEFLAGS MFLAGS MAKELEVEL

# cpcc runs from anywhere, also through a symbolic link elsewhere on PATH.
mkdir -p "$WORK/links"
ln -s "$P/bin/cpcc" "$WORK/links/cpcc"
cp "$PROJECT/worker.cpc" "$PROJECT/seeder.h" "$WORK/links/"
(cd "$WORK/links" && PATH="$WORK/links:/usr/bin:/bin" cpcc -c worker.cpc -o worker.o) \
    >"$WORK/out" 2>&1 && [ -f "$WORK/links/worker.o" ] && ok "cpcc through a symbolic link" ||
    fail "cpcc through a symbolic link" "$(tail -3 "$WORK/out")"

# 1. A Makefile written for the original CPC, with nothing but CPC=cpcc.
M=$WORK/make
cp -R "$PROJECT" "$M"
if make -s -C "$M" CPC=cpcc >"$WORK/out" 2>&1; then
    expect_output "make CPC=cpcc: the program runs" "$EXPECTED" "$M/seeder"
    ldd "$M/seeder" | grep -q "libcpc.so.0 => $P/lib/libcpc.so.0" &&
        ok "make CPC=cpcc: plain -lcpc links the installed libcpc.so" ||
        fail "make CPC=cpcc: plain -lcpc links the installed libcpc.so" "$(ldd "$M/seeder" | grep cpc)"
else
    fail "make CPC=cpcc" "$(tail -5 "$WORK/out")"
fi

# 2. Debug and release objects do not mix.
make -s -C "$M" clean
expect_link_error "debug objects linked with -lcpc fail, naming the fix" \
    cpc_built_with_cpc_debug__link_with_libcpc_debug \
    make -s -C "$M" CPC=cpcc CPCOPTS=--cpc-debug CFLAGS="-O0 -g -DCPC_DEBUG"
make -s -C "$M" clean
if make -s -C "$M" CPC=cpcc CPCOPTS=--cpc-debug CFLAGS="-O0 -g -DCPC_DEBUG" \
        LDLIBS=-lcpc_debug >"$WORK/out" 2>&1; then
    expect_output "debug objects with -lcpc_debug run" "$EXPECTED" "$M/seeder"
else
    fail "debug objects with -lcpc_debug" "$(tail -5 "$WORK/out")"
fi
make -s -C "$M" clean
expect_link_error "release objects linked with -lcpc_debug fail, naming the fix" \
    cpc_built_without_cpc_debug__link_with_libcpc_not_libcpc_debug \
    make -s -C "$M" CPC=cpcc LDLIBS=-lcpc_debug

# 3. A compilation database from cpcc -MJ.
make -s -C "$M" clean
if make -s -C "$M" CPC=cpcc 'CPCOPTS=-MJ $@.json' >"$WORK/out" 2>&1; then
    (cd "$M" && sed -e '1s/^/[\n/' -e '$s/,$/\n]/' main.o.json worker.o.json \
        > compile_commands.json)
    if "$TOP/.venv/bin/python" - "$M" >"$WORK/out" 2>&1 <<'EOF'
import json, os, sys
d = sys.argv[1]
db = json.load(open(os.path.join(d, 'compile_commands.json')))
got = sorted((e['file'], e['output'], e['directory']) for e in db)
assert got == [('main.cpc', 'main.o', d), ('worker.cpc', 'worker.o', d)], got
for e in db:
    a = e['arguments']
    assert a[:2] == ['cpcc', '-D__CPC_FRONTEND__'], a
    assert '-O2' in a and '-Wall' in a, a
    assert not any(x.startswith('-MJ') for x in a), a
    assert a[-4:] == ['-c', e['file'], '-o', e['output']], a
EOF
    then ok "cpcc -MJ: compile_commands.json for the .cpc files"
    else fail "cpcc -MJ: compile_commands.json for the .cpc files" "$(tail -3 "$WORK/out")"
    fi
else
    fail "cpcc -MJ" "$(tail -5 "$WORK/out")"
fi

# 4. pkg-config: a C file using the runtime API, and the project.
echo "condvar waiters 0" > "$WORK/api_user.expected"
for pc in cpc cpc_debug; do
    if cc $(pkg-config --cflags $pc) "$PROJECT/api_user.c" $(pkg-config --libs $pc) \
            -o "$WORK/api_user_$pc" >"$WORK/out" 2>&1; then
        expect_output "pkg-config $pc: a C program using the API" \
            "$WORK/api_user.expected" "$WORK/api_user_$pc"
    else
        fail "pkg-config $pc: a C program using the API" "$(tail -3 "$WORK/out")"
    fi
done
K=$WORK/pkgconfig
cp -R "$PROJECT" "$K"
if (cd "$K" && cpcc -O2 -c main.cpc worker.cpc &&
        cc -O2 $(pkg-config --cflags cpc) -c stats.c &&
        cc main.o worker.o stats.o $(pkg-config --libs cpc) -o seeder) >"$WORK/out" 2>&1; then
    expect_output "pkg-config cpc: the project" "$EXPECTED" "$K/seeder"
else
    fail "pkg-config cpc: the project" "$(tail -5 "$WORK/out")"
fi

# 5. CMake: find_package(CPC) and cpc_add_sources.
C=$WORK/cmake
if cmake -S "$PROJECT" -B "$C" -DCMAKE_BUILD_TYPE=Release >"$WORK/out" 2>&1 &&
        cmake --build "$C" -j 2 >>"$WORK/out" 2>&1; then
    expect_output "cmake: the project (libcpc.so)" "$EXPECTED" "$C/seeder"
    expect_output "cmake: the project, DEBUG STATIC" "$EXPECTED" "$C/seeder_debug"
    ldd "$C/seeder" | grep -q "libcpc.so.0 => $P/lib" && ! ldd "$C/seeder_debug" | grep -q libcpc &&
        ok "cmake: CPC::cpc is the shared library, CPC::cpc_debug_static the archive" ||
        fail "cmake: CPC::cpc is the shared library, CPC::cpc_debug_static the archive" \
             "$(ldd "$C/seeder" "$C/seeder_debug" | grep cpc)"
    # Header dependencies are tracked: touching seeder.h rebuilds the objects.
    cp -R "$PROJECT" "$WORK/cmake-src"
    cmake -S "$WORK/cmake-src" -B "$WORK/cmake-dep" >/dev/null 2>&1 &&
        cmake --build "$WORK/cmake-dep" --target seeder >/dev/null 2>&1
    sleep 1; touch "$WORK/cmake-src/seeder.h"
    cmake --build "$WORK/cmake-dep" --target seeder 2>&1 | grep -q "Building CPC object worker.cpc.o" &&
        ok "cmake: a header change rebuilds the .cpc objects" ||
        fail "cmake: a header change rebuilds the .cpc objects" "worker.cpc.o not rebuilt"
    # With Ninja, whatever the project's CMP0116, a second build does nothing.
    if cmake -G Ninja -S "$WORK/cmake-src" -B "$WORK/cmake-ninja" >"$WORK/out" 2>&1 &&
            cmake --build "$WORK/cmake-ninja" >>"$WORK/out" 2>&1; then
        cmake --build "$WORK/cmake-ninja" 2>&1 | grep -q "ninja: no work to do" &&
            ok "cmake (Ninja): cpc_add_sources: a second build does nothing" ||
            fail "cmake (Ninja): cpc_add_sources: a second build does nothing" \
                 "$(cd "$WORK/cmake-ninja" && ninja -d explain 2>&1 | head -2)"
    else
        fail "cmake (Ninja): cpc_add_sources" "$(tail -5 "$WORK/out")"
    fi
else
    fail "cmake" "$(tail -8 "$WORK/out")"
fi

# 6. cpcc -shared: a shared library of CPC code, used by a program.
S=$WORK/shared
cp -R "$PROJECT" "$S"
if (cd "$S" && cpcc -O2 -fPIC -shared worker.cpc -o libworker.so &&
        cpcc -O2 -c main.cpc && cc -O2 -c stats.c &&
        cc main.o stats.o -L. -lworker -lcpc -Wl,-rpath,"$S" -o seeder) >"$WORK/out" 2>&1; then
    expect_output "cpcc -shared: a CPC shared library in a program" "$EXPECTED" "$S/seeder"
    readelf -d "$S/libworker.so" | grep -q 'NEEDED.*\[libcpc.so.0\]' &&
        ok "cpcc -shared: the library depends on libcpc.so.0" ||
        fail "cpcc -shared: the library depends on libcpc.so.0" "$(readelf -d "$S/libworker.so" | grep NEEDED)"
    # The static runtime in the program and libcpc.so through the library:
    # two runtimes, refused at start.
    if cc "$S/main.o" "$S/stats.o" -L"$S" -lworker "$P/lib/libcpc.a" -pthread -Wl,-rpath,"$S" \
            -o "$S/seeder_two" >"$WORK/out" 2>&1; then
        "$S/seeder_two" >"$WORK/out" 2>&1 && fail "two runtimes in one process are refused" "it ran" ||
            { grep -q "two CPC runtimes in one process" "$WORK/out" &&
              ok "two runtimes in one process are refused" ||
              fail "two runtimes in one process are refused" "$(tail -3 "$WORK/out")"; }
    else
        fail "two runtimes in one process: the link" "$(tail -3 "$WORK/out")"
    fi
else
    fail "cpcc -shared" "$(tail -5 "$WORK/out")"
fi

# 7. The exported symbols are exactly the API the installed headers declare.
"$TOP/.venv/bin/python" -c 'import sys; sys.path[:0] = [sys.argv[1] + "/translator", sys.argv[1] + "/runtime"]
import api_symbols; print("\n".join(api_symbols.api_symbols(sys.argv[2])))' "$TOP" "$P/include" \
    > "$WORK/api" 2>"$WORK/out" || fail "api list from the installed headers" "$(tail -3 "$WORK/out")"
for flavour in cpc cpc_debug; do
    if [ $flavour = cpc ]; then other=cpc_built_with_cpc_debug__link_with_libcpc_debug
    else other=cpc_built_without_cpc_debug__link_with_libcpc_not_libcpc_debug; fi
    grep -vx "$other" "$WORK/api" > "$WORK/api.$flavour"
    nm -D --defined-only "$P/lib/lib$flavour.so" | awk '{print $3}' | sort > "$WORK/so.$flavour"
    if diff "$WORK/api.$flavour" "$WORK/so.$flavour" > "$WORK/diff"; then
        ok "lib$flavour.so exports exactly the headers' API ($(wc -l < "$WORK/api.$flavour") names)"
    else
        fail "lib$flavour.so exports exactly the headers' API" "$(head -5 "$WORK/diff" | tr '\n' ' ')"
    fi
    nm -g --defined-only "$P/lib/lib$flavour.a" | awk 'NF == 3 {print $3}' | sort -u > "$WORK/a.$flavour"
    stray=$(comm -13 "$WORK/api.$flavour" "$WORK/a.$flavour" | grep -v '^cpc__' | head -5)
    missing=$(comm -23 "$WORK/api.$flavour" "$WORK/a.$flavour" | head -5)
    if [ -z "$stray$missing" ]; then
        ok "lib$flavour.a: every global is the API or cpc__-prefixed, and the API is all there"
    else
        fail "lib$flavour.a: every global is the API or cpc__-prefixed" \
             "not in the headers: $stray; not defined: $missing"
    fi
done

# gdb loads the CPC extension by itself for programs built against the
# installed runtime, static or shared: with only the auto-load safe path
# (which gdb requires of any script it loads), `info cpc-threads` works.
if command -v gdb >/dev/null; then
    G=$WORK/gdb
    mkdir -p "$G"
    cat > "$G/stop.cpc" <<'CPC'
#include <cpc/cpc_runtime.h>
cps void stop(void) { cpc_yield(); __builtin_trap(); }
int main(void) { cpc_spawn stop(); cpc_main_loop(); return 0; }
CPC
    for how in static shared; do
        if [ $how = static ]; then
            build=(cpcc -g -O0 "$G/stop.cpc" -o "$G/stop-$how")
        else
            build=(sh -c "cpcc -g -O0 -c '$G/stop.cpc' -o '$G/stop.o' && cc '$G/stop.o' -o '$G/stop-$how' -lcpc")
        fi
        if ! "${build[@]}" >"$WORK/out" 2>&1; then
            fail "gdb auto-load ($how)" "$(tail -3 "$WORK/out")"
            continue
        fi
        gdb -q -batch -nx -iex "add-auto-load-safe-path $P" -ex run -ex "info cpc-threads" \
            -ex "show user hook-next" "$G/stop-$how" >"$WORK/out" 2>&1
        grep -q "#0  stop () at $G/stop.cpc:2" "$WORK/out" &&
            grep -q "cpc-before-next" "$WORK/out" &&
            ok "gdb auto-loads the installed extension ($how runtime)" ||
            fail "gdb auto-loads the installed extension ($how runtime)" "$(tail -4 "$WORK/out")"
    done
fi

# A gdb whose data directory is in the prefix (GDB_DATADIR=PREFIX/share/gdb:
# gdb started with -data-directory there, its Python modules linked in) loads
# the installed extension with no auto-load setting at all.
if [ -n "$gdbdata" ] && [ -d "$gdbdata/python" ]; then
    PG=$WORK/usr-gdb
    if run_make install PREFIX="$PG" GDB_DATADIR="$PG/share/gdb"; then
        ln -s "$gdbdata/python" "$PG/share/gdb/python"
        if "$PG/bin/cpcc" -g -O0 -I"$PG/include" -L"$PG/lib" "$G/stop.cpc" -o "$G/stop-pg" \
                >"$WORK/out" 2>&1; then
            gdb -q -batch -nx -data-directory "$PG/share/gdb" -ex run -ex "info cpc-threads" \
                "$G/stop-pg" >"$WORK/out" 2>&1
            grep -q "#0  stop () at $G/stop.cpc:2" "$WORK/out" &&
                ok "gdb loads the extension from its data directory with no setting" ||
                fail "gdb loads the extension from its data directory with no setting" \
                     "$(tail -4 "$WORK/out")"
        else
            fail "gdb's data directory: build" "$(tail -3 "$WORK/out")"
        fi
        rm -f "$PG/share/gdb/python"
        run_make uninstall PREFIX="$PG" GDB_DATADIR="$PG/share/gdb"
        no_files "gdb's data directory: uninstall leaves nothing" "$PG"
    else
        fail "gdb's data directory: make install" "$(tail -5 "$WORK/make.log")"
    fi
fi

# ---- as another user, outside the checkout --------------------------------
# The installation works for every user who can read the prefix, and names
# nothing of the build machine's home directories.  Run as root, the builds
# below run as nobody in a directory of its own; otherwise as this user.
# The prefix is not one the compiler and the loader know (no CPATH,
# LIBRARY_PATH, LD_LIBRARY_PATH): what a user of a non-default prefix has is
# PATH, PKG_CONFIG_PATH and CMAKE_PREFIX_PATH.
home=$(cd ~ 2>/dev/null && pwd -P)
if [ -n "$home" ] && [ "$home" != / ]; then
    named=$(grep -rlI -- "$home/" "$P" | head -3)
    [ -z "$named" ] && ok "no installed file names the installer's home directory" ||
        fail "no installed file names the installer's home directory" "$named"
fi
U=$(mktemp -d /tmp/cpc-user-test.XXXXXX) && chmod 755 "$U"
cp -R "$PROJECT" "$U/make"
cp -R "$PROJECT" "$U/pc"
mkdir -p "$U/uv"
cp "$TOP/embed/handoff.cpc" "$U/uv/"
# a C file whose flush() calls a cooperative function without being annotated
mkdir -p "$U/fix"
printf '%s\n' '#define coroutine_fn' 'void coroutine_fn co_yield(void) { }' \
    'int flush(int x) { co_yield(); return x; }' >"$U/fix/fix.c"
user_env=(env -u CPATH -u LIBRARY_PATH -u LD_LIBRARY_PATH PATH="$P/bin:/usr/bin:/bin"
          PKG_CONFIG_PATH="$P/lib/pkgconfig" CMAKE_PREFIX_PATH="$P" HOME="$U")
if [ "$(id -u)" = 0 ]; then
    chown -R nobody "$U"
    as_user() { setpriv --reuid=nobody --regid=nogroup --clear-groups --reset-env \
                    "${user_env[@]}" "$@"; }
    who=nobody
else
    as_user() { "${user_env[@]}" "$@"; }
    who=$(id -un)
fi
# in_dir DIR COMMAND...: as the user, in DIR, output to $WORK/out.
in_dir() { local d=$1; shift; (cd "$d" && as_user "$@") >"$WORK/out" 2>&1; }

if in_dir "$U" cpcc --version && grep -q "^cpcc (CPC) " "$WORK/out"; then
    ok "$who: the installed cpcc runs"
else
    fail "$who: the installed cpcc runs" "$(tail -3 "$WORK/out")"
fi
# cpc-check's inference (--infer=patch) and rewriting (--fix), which need
# the installed cpc_check_fix module.
FIX_ARGS=(--coroutine-attr coroutine_fn --primitive co_yield)
fixed='int coroutine_fn flush(int x) { co_yield(); return x; }'
in_dir "$U/fix" cpc-check "${FIX_ARGS[@]}" --infer=patch fix.c
grep -qxF "+$fixed" "$WORK/out" &&
    ok "$who: the installed cpc-check --infer=patch prints the annotation" ||
    fail "$who: the installed cpc-check --infer=patch prints the annotation" "$(tail -4 "$WORK/out")"
if ! in_dir "$U/fix" cpc-check "${FIX_ARGS[@]}" --fix fix.c; then
    fail "$who: the installed cpc-check --fix" "it failed: $(tail -4 "$WORK/out")"
elif ! grep -qxF "$fixed" "$U/fix/fix.c"; then
    fail "$who: the installed cpc-check --fix annotates the file" "fix.c: $(cat "$U/fix/fix.c")"
else
    ok "$who: the installed cpc-check --fix annotates the file"
fi
# A Makefile project linked by cpcc (`make CC=cpcc`: cpcc compiles with cc).
if in_dir "$U/make" make -s CPC=cpcc CC=cpcc LDLIBS=; then
    expect_output "$who: a Makefile project (CC=cpcc) builds and runs" "$EXPECTED" \
        as_user "$U/make/seeder"
else
    fail "$who: a Makefile project (CC=cpcc) builds" "$(tail -5 "$WORK/out")"
fi
# pkg-config: cc with --cflags/--libs cpc; the program finds libcpc.so.
if in_dir "$U/pc" sh -c 'cpcc -O2 -c main.cpc worker.cpc &&
        cc -O2 $(pkg-config --cflags cpc) -c stats.c &&
        cc main.o worker.o stats.o $(pkg-config --libs cpc) -o seeder'; then
    expect_output "$who: cc \$(pkg-config --libs cpc): the program runs" "$EXPECTED" \
        as_user "$U/pc/seeder"
else
    fail "$who: cc \$(pkg-config --libs cpc)" "$(tail -5 "$WORK/out")"
fi
# A libuv program handing work to CPC from its callbacks: -lcpc_uv found by
# cpcc, and the same through pkg-config cpc_uv.
if in_dir "$U/uv" cpcc -O2 -DHOST_UV handoff.cpc -o handoff -lcpc_uv -luv; then
    expect_output "$who: cpcc x.cpc -lcpc_uv: a libuv program runs" \
        "$TOP/embed/handoff.expected" as_user "$U/uv/handoff"
else
    fail "$who: cpcc x.cpc -lcpc_uv" "$(tail -5 "$WORK/out")"
fi
if in_dir "$U/uv" sh -c 'cpcc -O2 -DHOST_UV $(pkg-config --cflags cpc_uv) handoff.cpc \
        -o handoff_pc $(pkg-config --libs cpc_uv)'; then
    expect_output "$who: pkg-config cpc_uv: a libuv program runs" \
        "$TOP/embed/handoff.expected" as_user "$U/uv/handoff_pc"
else
    fail "$who: pkg-config cpc_uv" "$(tail -5 "$WORK/out")"
fi
# A CPC shared library in a program linked by cpcc: the program uses
# libcpc.so too (one runtime), and finds it.
if in_dir "$U/pc" sh -c 'cpcc -O2 -fPIC -shared worker.cpc -o libworker.so &&
        cpcc -O2 main.cpc stats.c -L. -lworker -Wl,-rpath,"$PWD" -o seeder_shared'; then
    expect_output "$who: cpcc links a CPC shared library's program with libcpc.so" \
        "$EXPECTED" as_user "$U/pc/seeder_shared"
else
    fail "$who: cpcc with a CPC shared library" "$(tail -5 "$WORK/out")"
fi
# CMake: .cpc files as sources of targets (CMake's CPC language), with the
# Makefile and the Ninja generators: the programs run, a second build does
# nothing, a header change rebuilds the .cpc objects, and cpc-check -p finds
# the compile commands of the .cpc files.
for gen in "Unix Makefiles" Ninja; do
    g=$(echo "$gen" | tr -d ' ' | tr A-Z a-z)
    src=$U/cmake-src-$g bld=$U/cmake-$g
    cp -R "$PROJECT" "$src" && cp "$TOP"/tests/install/cmake-lang/* "$src/" && rm -f "$src/Makefile"
    # Ninja: the language named in project(), its modules on CMAKE_MODULE_PATH.
    modules=
    if [ "$gen" = Ninja ]; then
        sed -i 's/^project(seeder C)$/project(seeder C CPC)/' "$src/CMakeLists.txt"
        modules=-DCMAKE_MODULE_PATH=$P/lib/cmake/CPC
    fi
    [ "$(id -u)" = 0 ] && chown -R nobody "$src"
    if ! in_dir "$U" sh -c "cmake -G '$gen' -S '$src' -B '$bld' -DCMAKE_BUILD_TYPE=Release $modules &&
            cmake --build '$bld'"; then
        fail "$who: cmake ($gen): .cpc sources" "$(tail -8 "$WORK/out")"
        continue
    fi
    expect_output "$who: cmake ($gen): a program of .cpc and .c sources runs" "$EXPECTED" \
        as_user "$bld/seeder"
    expect_output "$who: cmake ($gen): a program with a library of .cpc sources runs" \
        "$EXPECTED" as_user "$bld/seeder_lib"
    if ! in_dir "$U" cmake --build "$bld"; then
        fail "$who: cmake ($gen): a second build does nothing" "it failed: $(tail -4 "$WORK/out")"
    elif grep -qE "Building|Linking" "$WORK/out"; then
        fail "$who: cmake ($gen): a second build does nothing" "$(grep -E "Building|Linking" "$WORK/out" | head -3)"
    else
        ok "$who: cmake ($gen): a second build does nothing"
    fi
    sleep 1; touch "$src/seeder.h"
    in_dir "$U" cmake --build "$bld" &&
        grep -q "Building CPC object .*worker.cpc.o" "$WORK/out" &&
        ok "$who: cmake ($gen): a header change rebuilds the .cpc objects" ||
        fail "$who: cmake ($gen): a header change rebuilds the .cpc objects" "$(tail -4 "$WORK/out")"
    in_dir "$U" cpc-check -p "$bld"
    grep -q "blocking.cpc:6:27: error: call to blocking_fn function .slow_read. from cps function .reader." "$WORK/out" &&
        ok "$who: cmake ($gen): cpc-check -p checks the .cpc files" ||
        fail "$who: cmake ($gen): cpc-check -p checks the .cpc files" "$(tail -4 "$WORK/out")"
done
rm -rf "$U"

# ---- the installed manual pages name installed files ------------------------
named=$(grep -ho '[^ ]*\.md' "$P/share/man/man1/cpcc.1" "$P/share/man/man7/cpc.7" | sort -u)
missing=$(for f in $named; do case $f in "$P"/*) [ -f "$f" ] || echo "$f";; *) echo "$f";; esac; done)
if [ -z "$named" ]; then
    fail "the manual pages name installed documents" "cpc.7 names no document"
elif [ -n "$missing" ]; then
    fail "the manual pages name installed documents" "not installed: $missing"
else
    ok "the manual pages name installed documents ($(echo $named | tr '\n' ' '))"
fi

# ---- uninstall -------------------------------------------------------------
if run_make uninstall PREFIX="$P"; then
    no_files "make uninstall leaves nothing" "$P"
    left=$(find "$P" -mindepth 1 | head -5)
    [ -z "$left" ] && ok "make uninstall leaves no empty directory" ||
        fail "make uninstall leaves no empty directory" "$left"
else
    fail "make uninstall" "$(tail -5 "$WORK/make.log")"
fi

[ $fails = 0 ] && echo "install tests: all passed" || echo "install tests: $fails failed"
[ $fails = 0 ]
