#!/usr/bin/env python3
"""Run the multicore benchmarks (bench/multicore/scaling.cpc).

    run.py BINARY

For each CPU-bound workload (fib, tictactoe), the wall time with one
scheduler and with two (each driven by its own OS thread), RUNS runs each,
interleaved; the figure is the best run (the least disturbed: the machine
is shared) and the scaling ratio is best(1) / best(2):

    BENCH multicore.fib.1sched 0.21 s
    BENCH multicore.fib.2sched 0.11 s
    BENCH multicore.scaling.fib 1.91 x
    BENCH multicore.fib.cpu_2sched_vs_1 1.02 x   (CPU time, all OS threads)
    BENCH multicore.scaling_cpu.fib 1.95 x        (busiest OS thread's CPU time)

and the cost of a wake-up across schedulers: a ball passed between two
threads over shared condvars, both on one scheduler, then on two:

    BENCH multicore.pingpong.1sched 70 ns        (per pass of the ball)
    BENCH multicore.pingpong.2sched 520 ns
    BENCH multicore.pingpong.cross_vs_local 17 x
    BENCH multicore.pingpong.2sched.cpu 900 ns      (CPU time per pass, both
                                                     OS threads, same run)
    BENCH multicore.pingpong.2sched.sleeps 0.01 /pass  (voluntary context
                                                     switches: sleeps on the
                                                     eventfd or a lock)

and the machine's floor for such a wake-up: two OS threads (no CPC)
passing a flag over one cache line, spinning, and the ping-pong's pass
counted in those hand-offs.  The floor says where the host runs the two
OS threads: 20-25 ns on two hyperthreads of one core, 100-230 ns on two
cores (this virtual machine has shown both, from one minute to the
next), and a pass's nanoseconds are only comparable between runs with
the same floor:

    BENCH multicore.handoff.2threads 190 ns       (per pass of the flag)
    BENCH multicore.pingpong.in_handoffs 3.8 x

The CPU figure says whether an idle scheduler burns its core: a scheduler
waiting for the ball spins at most 50 us before it sleeps, so a pass
costs about twice its wall time in CPU when the ball comes back within
the spin, and little more than its wall time's worth when the schedulers
sleep.  On a shared machine, runs alternate between passes that never
sleep and passes that each sleep and wait for a wake-up (tens of
microseconds when another program holds the core): the sleeps per pass
tell which kind a figure is.

Every run also prints a check value, which must not depend on the number
of schedulers.  Environment: BENCH_QUICK=1 (smaller sizes, one run),
BENCH_RUNS=N (default 5).
"""
import os
import resource
import subprocess
import sys

QUICK = os.environ.get("BENCH_QUICK") == "1"
RUNS = 1 if QUICK else int(os.environ.get("BENCH_RUNS", "5"))
SIZES = {"fib": "21" if QUICK else "29", "tictactoe": "1" if QUICK else "32",
         "pingpong": "10000" if QUICK else "100000",
         "handoff": "100000" if QUICK else "1000000"}


def cpu_children():
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def run(binary, workload, nsched):
    """Wall time, check value, CPU time (all OS threads), the busiest OS
    thread's CPU time, voluntary context switches (sleeps)."""
    cpu0 = cpu_children()
    vcsw0 = resource.getrusage(resource.RUSAGE_CHILDREN).ru_nvcsw
    out = subprocess.run([binary, workload, str(nsched), SIZES[workload]],
                         capture_output=True, text=True, timeout=300)
    if out.returncode != 0:
        sys.exit("multicore: %s %s %d failed: %s" % (binary, workload, nsched,
                                                     out.stderr.strip()))
    vcsw = resource.getrusage(resource.RUSAGE_CHILDREN).ru_nvcsw - vcsw0
    f = out.stdout.split()
    return float(f[1]), f[3], cpu_children() - cpu0, float(f[5]), vcsw


def best(binary, workload):
    """The runs with the best wall times at 1 and 2 schedulers, each
    (wall, CPU time of all OS threads, sleeps), and the least CPU time of
    the busiest OS thread at 1 and 2."""
    runs = {1: [], 2: []}
    checks = set()
    for _ in range(RUNS):
        for n in (1, 2):
            t, c, cpu, busiest, vcsw = run(binary, workload, n)
            runs[n].append((t, cpu, busiest, vcsw))
            checks.add(c)
    if len(checks) != 1:
        sys.exit("multicore: %s computed different results: %s" %
                 (workload, sorted(checks)))
    pick = lambda r: (r[0], r[1], r[3])   # noqa: E731
    return pick(min(runs[1])), pick(min(runs[2])), \
        min(r[2] for r in runs[1]), min(r[2] for r in runs[2])


def main():
    binary = sys.argv[1]
    print("# multicore: best of %d runs; wall clock on a shared machine "
          "(noisy when others are busy)" % RUNS)
    for w in ("fib", "tictactoe"):
        (t1, c1, _), (t2, c2, _), b1, b2 = best(binary, w)
        print("BENCH multicore.%s.1sched %.3f s" % (w, t1))
        print("BENCH multicore.%s.2sched %.3f s" % (w, t2))
        print("BENCH multicore.scaling.%s %.2f x" % (w, t1 / t2))
        # Whatever the machine's load: the work done (CPU time of all OS
        # threads at 2 schedulers over 1; 1.0 means no overhead), and the
        # critical path (CPU time of the busiest scheduler's OS thread at 1
        # over at 2): the scaling with a free core per scheduler.
        print("BENCH multicore.%s.cpu_2sched_vs_1 %.2f x" % (w, c2 / c1))
        print("BENCH multicore.scaling_cpu.%s %.2f x" % (w, b1 / b2))
    (t1, _, _), (t2, cpu2, sleeps2), _, _ = best(binary, "pingpong")
    passes = 2 * int(SIZES["pingpong"])
    print("BENCH multicore.pingpong.1sched %.0f ns" % (t1 * 1e9 / passes))
    print("BENCH multicore.pingpong.2sched %.0f ns" % (t2 * 1e9 / passes))
    print("BENCH multicore.pingpong.cross_vs_local %.1f x" % (t2 / t1))
    # The CPU time and sleeps of that (the fastest) run.
    print("BENCH multicore.pingpong.2sched.cpu %.0f ns" % (cpu2 * 1e9 / passes))
    print("BENCH multicore.pingpong.2sched.sleeps %.3f /pass" % (sleeps2 / passes))
    # The floor: one cache line passed between two spinning OS threads,
    # measured next to the ping-pong (best of as many runs).
    ho = min(run(binary, "handoff", 2)[0] for _ in range(RUNS))
    ho_ns = ho * 1e9 / (2 * int(SIZES["handoff"]))
    print("BENCH multicore.handoff.2threads %.0f ns" % ho_ns)
    print("BENCH multicore.pingpong.in_handoffs %.1f x" % (t2 * 1e9 / passes / ho_ns))


if __name__ == "__main__":
    main()
