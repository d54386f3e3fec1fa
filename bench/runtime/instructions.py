#!/usr/bin/env python3
"""Instructions per operation of the runtime micro-benchmarks (callgrind).

    instructions.py BINDIR

Times on a shared 2-core machine move by 10-40% between runs; instruction
counts do not.  For each benchmark (switch, cond, spawn) and system
(bench-baseline, bench-coro, bench-cpc, bench-cpcc in BINDIR, those
present), runs the binary under `valgrind --tool=callgrind` at N and 2N
iterations and prints the difference per operation (the start-up and the
warm-up cancel out):

    BENCH instr.switch.cpc 48.3 instr

and, for cpc and cpcc, where those instructions go, by function, grouped:

    BENCH instr.switch.cpc.loop 7.8 instr       the scheduler's loop and
                                                trampoline (sched_*)
    BENCH instr.switch.cpc.primitive 5.0 instr  cpc_signal, cpc_wait,
                                                cpc_spawn_continuation (and
                                                cpc_yield as a function;
                                                optimised code yields inline,
                                                in its own code)
    BENCH instr.switch.cpc.alloc 0.0 instr      continuations made and freed
    BENCH instr.switch.cpc.thread 35.5 instr    the threads' own code (bodies,
                                                resume functions, spawn thunks)

An operation is what the benchmark's ns figure is per: a switch (one
thread's turn), half a cond round (a signal and a wait), one spawn.
BENCH_QUICK=1: smaller N.  Needs valgrind and callgrind_annotate; prints a
comment and nothing else without them.
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile

SYSTEMS = ["baseline", "coro", "cpc", "cpcc"]
BROKEN_DOWN = ("cpc", "cpcc")
# Operations per iteration count (see bench_report_ns in each program).
TESTS = {"switch": 2, "cond": 2, "spawn": 1}
GROUPS = [
    ("loop", re.compile(r"^(sched_|cpc__sched_)")),
    ("primitive", re.compile(r"^(cpc_yield__cps|cpc_signal|cpc_signal_all|cpc_wait__cps|cpc_wait_plain__cps|cpc_wait_plain_reserved__cps|"
                             r"cpc_spawn_continuation|cv_)")),
    ("alloc", re.compile(r"^(cpc_continuation_new|cpc__cont_|cont_|malloc|free|_int_)")),
]
FUNC = re.compile(r"^\s*([\d,]+)\s+\([^)]*\)\s+(?:\S*:)?([A-Za-z_][\w.]*)")


def group_of(fn):
    for name, rx in GROUPS:
        if rx.match(fn):
            return name
    return "thread"


def profile(binary, test, n, outdir):
    """{function: Ir} of one run, and the total."""
    out = os.path.join(outdir, "cg.%s.%d" % (test, n))
    p = subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=" + out,
                        binary, test, str(n)], capture_output=True, text=True, timeout=600)
    if p.returncode != 0:
        raise RuntimeError("%s %s %d: exit %d" % (binary, test, n, p.returncode))
    a = subprocess.run(["callgrind_annotate", "--threshold=100", "--auto=no", out],
                       capture_output=True, text=True).stdout
    funcs, total = {}, None
    for line in a.splitlines():
        if "PROGRAM TOTALS" in line:
            total = int(line.split()[0].replace(",", ""))
            continue
        m = FUNC.match(line)
        if m and total is not None:
            fn = m.group(2)
            funcs[fn] = funcs.get(fn, 0) + int(m.group(1).replace(",", ""))
    return funcs, total


def main(argv):
    if len(argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    if not (shutil.which("valgrind") and shutil.which("callgrind_annotate")):
        print("# instructions: valgrind or callgrind_annotate missing, skipped")
        return 0
    bindir = argv[1]
    quick = os.environ.get("BENCH_QUICK", "") not in ("", "0")
    n = 20000 if quick else 200000
    print("# instructions per operation (callgrind, %d and %d iterations)" % (n, 2 * n),
          flush=True)
    status = 0
    with tempfile.TemporaryDirectory(prefix="cpc-instr-") as tmp:
        for test, ops in TESTS.items():
            for s in SYSTEMS:
                binary = os.path.join(bindir, "bench-" + s)
                if not os.access(binary, os.X_OK):
                    continue
                try:
                    f1, t1 = profile(binary, test, n, tmp)
                    f2, t2 = profile(binary, test, 2 * n, tmp)
                except (RuntimeError, subprocess.TimeoutExpired) as e:
                    print("instructions.py: %s" % e, file=sys.stderr)
                    status = 1
                    continue
                per = float(n * ops)
                print("BENCH instr.%s.%s %.1f instr" % (test, s, (t2 - t1) / per))
                if s in BROKEN_DOWN:
                    groups = {}
                    for fn in set(f1) | set(f2):
                        g = group_of(fn)
                        groups[g] = groups.get(g, 0) + f2.get(fn, 0) - f1.get(fn, 0)
                    for g in ("loop", "primitive", "alloc", "thread"):
                        print("BENCH instr.%s.%s.%s %.1f instr"
                              % (test, s, g, groups.get(g, 0) / per))
                sys.stdout.flush()
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv))
