#!/usr/bin/env python3
"""The papers' other benchmarks (`make bench-papers`).

    run.py BINDIR

(a) "One-shot continuations" (docs/references.md), fig. 5: THREADS (100) threads each compute fib(20), switching
    every 1, 2, 4 ... 512 calls; CPC (every call a cps call) against
    stackful threads (boost.context's fcontext, ucontext) and the plain
    computation without threads:
        BENCH fib.<sys>.e<every> <median> ms     (+ .min)
        BENCH fib.crossover.<sys> <every> calls  (smallest switch interval at
                                                  which <sys> beats CPC, 0: never)
(b) "Generating events with style", Table 1: the two data-flow schemes (--dataflow=lifting, environments)
    on cps call, switch, condvar, spawn and the tic-tac-toe generator
    (manual and automatic allocation):
        BENCH dataflow.<test>.<scheme> <median> <unit>
        BENCH dataflow.<test>.ratio <environments / lifting> x
(c) "Continuation-Passing C", fig. 4: bytes per idle thread for nptl and GNU Pth (the other
    systems are in the runtime micro-benchmarks):
        BENCH runtime.idle.<sys> <bytes> B

Every run is a fresh process pinned to BENCH_CPU (0), BENCH_RUNS (5; 1 when
BENCH_QUICK=1) runs interleaved.
"""
import os
import re
import statistics
import subprocess
import sys
import time

QUICK = os.environ.get("BENCH_QUICK", "") not in ("", "0")
RUNS = int(os.environ.get("BENCH_RUNS", "1" if QUICK else "5"))
CPU = os.environ.get("BENCH_CPU", "0")
FIB_THREADS = 100
FIB_SYSTEMS = ["cpc", "boost", "ucontext", "native"]
FIB_EVERY = [1, 2, 4, 8, 16, 32, 64, 128, 256, 512]
TTT_TASKS = 10 if QUICK else 50
# GNU Pth scans all its threads at each switch: its spawning is quadratic, so its
# crowd stays small.
IDLE = {"nptl": 500 if QUICK else 2000, "pth": 2000 if QUICK else 5000}
# (test, argv after the binary, binary per scheme, unit)
DATAFLOW = [
    ("cpscall", ["cpscall", 2_000_000 if QUICK else 50_000_000], "cpscall-%s", "ns"),
    ("switch", ["switch", 1_000_000 if QUICK else 20_000_000], "bench-cpcc-%s", "ns"),
    ("cond", ["cond", 500_000 if QUICK else 10_000_000], "bench-cpcc-%s", "ns"),
    ("spawn", ["spawn", 500_000 if QUICK else 10_000_000], "bench-cpcc-%s", "ns"),
    ("tictactoe.manual", [TTT_TASKS], "ttt-manual-%s", "ms"),
    ("tictactoe.automatic", [TTT_TASKS], "ttt-auto-%s", "ms"),
]
SCHEMES = ["lifting", "environments"]
VALUE = re.compile(r"^BENCH \S+ (\S+) (\S+)\s*$", re.M)
failures = []


def say(line):
    print(line, flush=True)


def run(binary, args):
    cmd = ["taskset", "-c", CPU, binary] + [str(a) for a in args]
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    except subprocess.TimeoutExpired:
        failures.append("%s: timed out after 300 s" % " ".join(cmd))
        return None, None
    m = VALUE.search(p.stdout)
    if p.returncode != 0 or not m:
        failures.append("%s: status %d %s" % (" ".join(cmd), p.returncode,
                                              p.stderr.strip()[-300:]))
        return None, None
    checksum = [l for l in p.stdout.splitlines() if l.startswith("#")]
    return float(m.group(1)), checksum


def med(xs):
    return statistics.median(xs) if xs else None


def bench_fib(bindir):
    xs = {(s, e): [] for s in FIB_SYSTEMS for e in FIB_EVERY}
    sums = set()
    for r in range(RUNS):
        for e in FIB_EVERY:
            k = r % len(FIB_SYSTEMS)
            for s in FIB_SYSTEMS[k:] + FIB_SYSTEMS[:k]:
                v, cs = run(os.path.join(bindir, "fib-" + s), [FIB_THREADS, e])
                if v is not None:
                    xs[(s, e)].append(v)
                    sums.update(cs)
    if len(sums) > 1:
        failures.append("fib: the systems computed different sums: %s" % sorted(sums))
    say("# fib(20) in %d threads, a switch every N calls; ms per run (CPU time)"
        % FIB_THREADS)
    for s in FIB_SYSTEMS:
        for e in FIB_EVERY:
            if xs[(s, e)]:
                say("BENCH fib.%s.e%d %.3f ms" % (s, e, med(xs[(s, e)])))
                say("BENCH fib.%s.e%d.min %.3f ms" % (s, e, min(xs[(s, e)])))
    for s in ("boost", "ucontext"):
        wins = [e for e in FIB_EVERY if xs[(s, e)] and xs[("cpc", e)]
                and med(xs[(s, e)]) < med(xs[("cpc", e)])]
        say("BENCH fib.crossover.%s %d calls" % (s, wins[0] if wins else 0))


def bench_dataflow(bindir):
    xs = {(t, sc): [] for t, *_ in DATAFLOW for sc in SCHEMES}
    sums = {}
    for r in range(RUNS):
        order = SCHEMES if r % 2 == 0 else SCHEMES[::-1]
        for t, args, pattern, _ in DATAFLOW:
            for sc in order:
                v, cs = run(os.path.join(bindir, pattern % sc), args)
                if v is not None:
                    xs[(t, sc)].append(v)
                    if t.startswith("tictactoe"):
                        sums.setdefault(t, set()).update(cs)
    for t, s in sums.items():
        if len(s) > 1:
            failures.append("%s: the two schemes computed different results: %s"
                            % (t, sorted(s)))
    say("# data flow: lambda lifting (CPC) against shared environments (eCPC)")
    for t, _, _, unit in DATAFLOW:
        for sc in SCHEMES:
            if xs[(t, sc)]:
                say("BENCH dataflow.%s.%s %.3f %s" % (t, sc, med(xs[(t, sc)]), unit))
        if xs[(t, "lifting")] and xs[(t, "environments")]:
            say("BENCH dataflow.%s.ratio %.2f x" % (
                t, med(xs[(t, "environments")]) / med(xs[(t, "lifting")])))


def bench_idle(bindir):
    for s, n in IDLE.items():
        v, _ = run(os.path.join(bindir, "idle-" + s), [n])
        if v is not None:
            say("BENCH runtime.idle.%s %.1f B" % (s, v))
    say("# idle thread counts: " + ", ".join("%s %d" % kv for kv in IDLE.items()))


def main(argv):
    if len(argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    start = time.time()
    say("# papers' benchmarks: %d run(s) each, pinned to cpu %s%s"
        % (RUNS, CPU, ", quick" if QUICK else ""))
    bench_fib(argv[1])
    bench_dataflow(argv[1])
    bench_idle(argv[1])
    say("# %.0f s" % (time.time() - start))
    for f in failures:
        say("# FAILED: " + f)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
