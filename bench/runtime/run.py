#!/usr/bin/env python3
"""Run the runtime micro-benchmarks: CPC and its peers, side by side.

    run.py BINDIR

BINDIR holds bench-cpc, bench-cpc_shared (bench-cpc linked with libcpc.so),
bench-cpc_ev and bench-cpc_uv (the same, the
scheduler driven from a libev or a libuv loop; optional), bench-cpcc (the same benchmarks compiled from CPC
source by cpcc; optional), bench-cpc_nocache (the runtime without its
continuation cache: spawn and idle only), bench-baseline, bench-coro,
bench-boost, bench-st (bench/runtime/runtime-bench.mk builds them).  Every (benchmark, system)
pair runs RUNS times, interleaved (round r runs every pair once, in an
order rotated from round to round), each run a fresh process pinned to one
core.  Every binary runs from a copy written sequentially into a temporary
directory: on the virtual machines these figures come from, the same bytes
ran a yield ping-pong at 3.1 ns from the file the linker wrote and at
2.85 ns from any copy of it (a symlink changed nothing), so the placement
of the file's pages, not the code, decided 10%; copying gives every
system the same footing.  Prints, per pair,

    BENCH runtime.<test>.<system> <median> <unit>
    BENCH runtime.<test>.<system>.min <min> <unit>

then a side-by-side table (report.py).

Environment:
    BENCH_QUICK=1      smoke run: small counts, one run
    BENCH_RUNS=N       runs per pair (default 7; 1 when quick): the medians of
                       five runs moved by up to 20% between make bench runs
    BENCH_CPU=N        core to pin to (default 0)
    BENCH_SYSTEMS=...  subset of systems, e.g. "cpc baseline"
    BENCH_TESTS=...    subset of benchmarks, e.g. "switch cond"
"""
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import report  # noqa: E402

SYSTEMS = ["cpc", "cpc_shared", "cpcc", "cpc_nocache", "cpc_ev", "cpc_uv", "baseline", "coro", "boost",
           "st"]
TESTS = ["switch", "cond", "spawn", "spawn_sched2", "idle"]

# Operation counts per run (switch and cond: iterations per thread, 2
# operations each; spawn: threads; idle: waiting threads).  Sized so that a
# timed run lasts 50-500 ms.  Stackful peers cannot hold ten million
# threads in 24 GiB (one 4 KiB page each at least): their idle figure is
# per thread of a smaller crowd, which does not change the per-thread cost.
# A system missing from a benchmark's table does not run it.
COUNTS = {
    "switch": {"cpc": 20_000_000, "cpc_shared": 20_000_000, "cpcc": 20_000_000,
               "cpc_ev": 20_000_000, "cpc_uv": 20_000_000,
               "baseline": 20_000_000, "coro": 20_000_000,
               "boost": 10_000_000, "st": 500_000},
    "cond": {"cpc": 10_000_000, "cpc_shared": 10_000_000, "cpcc": 10_000_000,
             "cpc_ev": 10_000_000, "cpc_uv": 10_000_000,
             "baseline": 10_000_000, "coro": 10_000_000,
             "boost": 5_000_000, "st": 5_000_000},
    "spawn": {"cpc": 10_000_000, "cpc_shared": 10_000_000, "cpcc": 10_000_000, "cpc_nocache": 10_000_000,
              "cpc_ev": 10_000_000, "cpc_uv": 10_000_000,
              "baseline": 10_000_000, "coro": 10_000_000,
              "boost": 5_000_000, "st": 3_000_000},
    # spawn on a scheduler other than the default (bench-cpc only).
    "spawn_sched2": {"cpc": 10_000_000},
    "idle": {"cpc": 10_000_000, "cpc_shared": 10_000_000, "cpcc": 10_000_000, "cpc_nocache": 10_000_000,
             "baseline": 10_000_000, "coro": 10_000_000,
             "boost": 200_000, "st": 200_000},
}
QUICK_DIV = {"switch": 20, "cond": 20, "spawn": 20, "spawn_sched2": 20, "idle": 50}
UNITS = {"switch": "ns", "cond": "ns", "spawn": "ns", "spawn_sched2": "ns", "idle": "B"}
TIMEOUT = 120  # seconds, one run

LINE = re.compile(r"^BENCH runtime\.(\w+)\.(\w+) (\S+) (\S+)\s*$")


def env_list(name, default):
    v = os.environ.get(name, "").split()
    return [x for x in default if x in v] if v else list(default)


def run_one(binary, test, count, cpu):
    cmd = [binary, test, str(count)]
    if shutil.which("taskset"):
        cmd = ["taskset", "-c", str(cpu)] + cmd
    try:
        p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           text=True, timeout=TIMEOUT)
    except subprocess.TimeoutExpired:
        return None, "timed out after %d s" % TIMEOUT
    for line in p.stdout.splitlines():
        m = LINE.match(line)
        if m and m.group(1) == test:
            if p.returncode != 0:
                break
            return float(m.group(3)), None
    return None, "exit %d: %s" % (p.returncode, (p.stderr or p.stdout).strip()[-300:])


def main(argv):
    if len(argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    bindir = argv[1]
    quick = os.environ.get("BENCH_QUICK", "") not in ("", "0")
    runs = int(os.environ.get("BENCH_RUNS", "1" if quick else "7"))
    cpu = int(os.environ.get("BENCH_CPU", "0"))
    systems = env_list("BENCH_SYSTEMS", SYSTEMS)
    tests = env_list("BENCH_TESTS", TESTS)

    missing = [s for s in systems
               if not os.access(os.path.join(bindir, "bench-" + s), os.X_OK)]
    for s in missing:
        print("run.py: %s/bench-%s missing, skipped" % (bindir, s), file=sys.stderr)
    systems = [s for s in systems if s not in missing]

    def count(test, system):
        n = COUNTS[test][system]
        return max(1000, n // QUICK_DIV[test]) if quick else n

    copies = tempfile.TemporaryDirectory(prefix="cpc-bench-")
    binaries = {}
    for s in systems:
        binaries[s] = os.path.join(copies.name, "bench-" + s)
        shutil.copyfile(os.path.join(bindir, "bench-" + s), binaries[s])
        shutil.copymode(os.path.join(bindir, "bench-" + s), binaries[s])

    print("# runtime benchmarks: %d run(s) each, pinned to cpu %d%s"
          % (runs, cpu, ", quick" if quick else ""), flush=True)
    pairs = [(t, s) for t in tests for s in systems if s in COUNTS[t]]
    samples = {p: [] for p in pairs}
    errors = []
    start = time.time()
    for r in range(runs):
        shift = r % max(1, len(systems))
        for t in tests:
            order = systems[shift:] + systems[:shift]
            for s in order:
                if (t, s) not in samples:
                    continue
                v, err = run_one(binaries[s], t, count(t, s), cpu)
                if v is None:
                    errors.append("%s.%s: %s" % (t, s, err))
                    print("run.py: runtime.%s.%s failed: %s" % (t, s, err),
                          file=sys.stderr, flush=True)
                else:
                    samples[(t, s)].append(v)
    lines = []
    for t, s in pairs:
        xs = samples[(t, s)]
        if not xs:
            continue
        u = UNITS[t]
        prec = "%.1f" if u == "B" else "%.2f"
        lines.append(("BENCH runtime.%s.%s " + prec + " %s") % (t, s, statistics.median(xs), u))
        lines.append(("BENCH runtime.%s.%s.min " + prec + " %s") % (t, s, min(xs), u))
    for line in lines:
        print(line)
    print()
    counts = ({s: count("idle", s) for s in systems if s in COUNTS["idle"]}
              if "idle" in tests else None)
    print(report.table(report.parse(lines), counts))
    print("# %.0f s" % (time.time() - start))
    if errors:
        print("run.py: %d run(s) failed" % len(errors), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
