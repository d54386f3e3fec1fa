#!/usr/bin/env python3
"""Translator benchmarks (`make bench-translator`).

(a) The paper's loop / call / cps-call benchmark (cpscall.cpc) compiled by `cpcc -O2`,
    pinned to one core (taskset -c BENCH_CPU), BENCH_RUNS (5) interleaved runs of each mode;
    medians and minima:

      BENCH translator.loop <ns> ns          (+ .min)
      BENCH translator.call <ns> ns          (+ .min)
      BENCH translator.cpscall <ns> ns       (+ .min)
      BENCH translator.cpscall.overhead <ns> ns    median cps call - median native call
                                                   (target <= 0.5 ns)
      BENCH translator.cpscall_trampoline.overhead <ns> ns   the same built with
                                                   -DCPC_NO_DIRECT_RETURN (every return
                                                   through the trampoline)

    The same program built with `cpcc -O0` must run a million-deep cps recursion and the
    cps-call loop without crashing (the C stack stays bounded):

      BENCH translator.cpscall.O0 <ns> ns
      BENCH translator.deep.O0 1 ok          (0 when it crashed)
      BENCH translator.deep.O2 1 ok          (the same at -O2)

(b) Translation speed: a generated 5,000-line CPC file (gen5k.py), `cpcc -O2 -c` versus
    `gcc -O2 -c` on the generated C (--save-temps); CPU time of the child processes (user +
    sys), median of BENCH_COMPILE_RUNS (3) interleaved runs:

      BENCH translator.compile.cpcc <s> s
      BENCH translator.compile.gcc <s> s
      BENCH translator.compile.ratio <x> x   (target <= 1.5)
      BENCH translator.compile.lines_per_source <x> x   generated C lines per CPC line
                                                        (target <= 3)

    The benchmark program is also run, translated and native (-DCPC_NATIVE), and the two
    checksums compared.

(c) Scaling (bench_scaling): translation CPU per 1,000 lines of gen5k's file and of one
    function of each shape of shapes.py, the largest `gotos` function translated in
    10 s of CPU, and the largest function of bigfunc.py (func10k's shape) translated,
    and translated and compiled (cpcc -O2 -c), in 10 s of CPU:

      BENCH translator.translate.kloc.<shape> <s> s
      BENCH translator.translate.max_lines_10s <lines> lines
      BENCH translator.translate.max_func_lines_10s <lines> lines
      BENCH translator.compile.max_func_lines_10s <lines> lines

(d) Real-code inputs (bench_real): glib and the C library's headers, lib/, examples/httpd
    and one 10,000-line cps function; per case cpcc, cc on the generated C, cc on the source
    as plain C, the ratio, and the translation's CPU per stage (bench/README.md):

      BENCH translator.real.<case>.{cpcc,cc,plain} <s> s
      BENCH translator.real.<case>.ratio <x> x

Knobs: BENCH_QUICK=1 (small counts, one run), BENCH_RUNS, BENCH_CPU, BENCH_COUNT (cps-call
iterations, default 1e8), BENCH_COMPILE_RUNS.  Exit status 1 if something crashed or gave a
wrong result (figures over target are reported, not failed).
"""

import os
import re
import resource
import signal
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.abspath(os.path.join(HERE, "..", ".."))
CPCC = os.environ.get("CPCC", os.path.join(TOP, "bin", "cpcc"))
CC = os.environ.get("CC", "cc")
OUT = os.path.join(TOP, "build", "bench", "translator")

quick = os.environ.get("BENCH_QUICK", "") not in ("", "0")
RUNS = int(os.environ.get("BENCH_RUNS", "1" if quick else "5"))
CPU = os.environ.get("BENCH_CPU", "0")
COUNT = int(float(os.environ.get("BENCH_COUNT", "1e7" if quick else "1e8")))
COMPILE_RUNS = int(os.environ.get("BENCH_COMPILE_RUNS", "1" if quick else "3"))
DEEP = 1000000

failures = []


def say(line):
    print(line, flush=True)


def run(cmd, **kw):
    return subprocess.run(cmd, capture_output=True, text=True, **kw)


def child_cpu(cmd, cwd=None, cpu_limit=None):
    """Run cmd; return (returncode, cpu seconds of it and its children, wall, stderr).
    With `cpu_limit` (s) the child is stopped by the kernel (SIGXCPU) past it."""
    def limit():
        resource.setrlimit(resource.RLIMIT_CPU, (cpu_limit, cpu_limit + 1))
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.monotonic()
    p = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True,
                       preexec_fn=limit if cpu_limit else None)
    wall = time.monotonic() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return p.returncode, cpu, wall, p.stderr


def build(level, *flags):
    exe = os.path.join(OUT, "cpscall" + level + "".join(flags))
    p = run([CPCC, level, *flags, "-o", exe, os.path.join(HERE, "cpscall.cpc")])
    if p.returncode != 0:
        failures.append("cpcc %s cpscall.cpc failed" % level)
        say("# cpcc %s failed on cpscall.cpc:\n# %s" % (level, p.stderr.strip()[:2000]
                                                       .replace("\n", "\n# ")))
        return None
    return exe


def pinned(exe, *args):
    cmd = [exe] + [str(a) for a in args]
    if run(["taskset", "-c", CPU, "true"]).returncode == 0:
        cmd = ["taskset", "-c", CPU] + cmd
    return run(cmd, timeout=600)


LINE = re.compile(r"^BENCH translator\.(\w+) (\S+) ns$", re.M)


def bench_cpscall():
    exe = build("-O2")
    # the same program returning through the trampoline (cpc_runtime.h,
    # cpc_resume_caller), measured in the same interleaved runs
    trampoline = build("-O2", "-DCPC_NO_DIRECT_RETURN")
    if exe is None or trampoline is None:
        return
    modes = ["loop", "call", "cpscall", "cpscall_trampoline"]
    xs = {m: [] for m in modes}
    for _ in range(RUNS):
        for m in modes:
            if m == "cpscall_trampoline":
                p = pinned(trampoline, "cpscall", COUNT)
            else:
                p = pinned(exe, m, COUNT)
            ms = LINE.findall(p.stdout)
            if p.returncode != 0 or not ms:
                failures.append("cpscall -O2 %s: status %d %s" % (m, p.returncode,
                                                                 p.stderr.strip()[:300]))
                say("# cpscall -O2 %s failed (status %d): %s" % (m, p.returncode,
                                                               p.stderr.strip()[:300]))
                return
            xs[m].append(float(ms[0][1]))
    for m in modes:
        say("BENCH translator.%s %.3f ns" % (m, statistics.median(xs[m])))
        say("BENCH translator.%s.min %.3f ns" % (m, min(xs[m])))
    over = statistics.median(xs["cpscall"]) - statistics.median(xs["call"])
    say("BENCH translator.cpscall.overhead %.3f ns" % over)
    say("BENCH translator.cpscall.overhead.min %.3f ns" % (min(xs["cpscall"]) - min(xs["call"])))
    say("# cps call overhead %.2f ns per call (target <= 0.5 ns): %s" % (
        over, "ok" if over <= 0.5 else "OVER TARGET"))
    say("BENCH translator.cpscall_trampoline.overhead %.3f ns" % (
        statistics.median(xs["cpscall_trampoline"]) - statistics.median(xs["call"])))
    say("BENCH translator.cpscall_trampoline.overhead.min %.3f ns" % (
        min(xs["cpscall_trampoline"]) - min(xs["call"])))
    deep_recursion(exe, "O2")


def bench_O0():
    exe = build("-O0")
    if exe is None:
        say("BENCH translator.deep.O0 0 ok")
        return
    p = pinned(exe, "cpscall", max(COUNT // 10, 1000000))
    ms = LINE.findall(p.stdout)
    if p.returncode == 0 and ms:
        say("BENCH translator.cpscall.O0 %.3f ns" % float(ms[0][1]))
    else:
        failures.append("cpscall -O0 crashed (status %d)" % p.returncode)
        say("# cpscall -O0 crashed (status %d): %s" % (p.returncode, p.stderr.strip()[:300]))
    deep_recursion(exe, "O0")


def deep_recursion(exe, level):
    """Bounded C stack: a million-deep cps recursion under a 1 MiB stack
    limit (at -O2 every return jumps straight into the caller's resume
    function, under the call budget)."""
    cmd = "ulimit -s 1024; exec %s deep %d" % (exe, DEEP)
    p = run(["bash", "-c", cmd], timeout=600)
    ok = p.returncode == 0 and ("deep %d" % DEEP) in p.stdout
    say("BENCH translator.deep.%s %d ok" % (level, 1 if ok else 0))
    if not ok:
        failures.append("cps recursion %d deep at -%s with a 1 MiB stack: status %d" % (
            DEEP, level, p.returncode))
        say("# deep recursion at -%s failed (status %d): %s" % (level, p.returncode,
                                                              p.stderr.strip()[:300]))


def bench_compile():
    d = os.path.join(OUT, "compile")
    os.makedirs(d, exist_ok=True)
    src = os.path.join(d, "gen5k.cpc")
    p = run([sys.executable, os.path.join(HERE, "gen5k.py"), "--lines", "5000"])
    with open(src, "w") as f:
        f.write(p.stdout)
    lines = p.stdout.count("\n")
    gen_c = None
    t_cpcc, t_gcc, w_cpcc, w_gcc = [], [], [], []
    for _ in range(COMPILE_RUNS):
        for f in os.listdir(d):
            if f != "gen5k.cpc":
                os.unlink(os.path.join(d, f))
        rc, cpu, wall, err = child_cpu([CPCC, "-O2", "-c", "--save-temps", "-o",
                                        os.path.join(d, "gen5k.o"), src], cwd=d)
        if rc != 0:
            failures.append("cpcc -O2 -c on the generated %d-line file failed" % lines)
            say("# cpcc failed on %s:\n# %s" % (src, err.strip()[:2000].replace("\n", "\n# ")))
            return
        t_cpcc.append(cpu)
        w_cpcc.append(wall)
        gens = [f for f in os.listdir(d) if f.endswith(".c") or f.endswith(".i")]
        if not gens:
            failures.append("cpcc --save-temps left no generated C")
            say("# cpcc --save-temps left no generated C in %s" % d)
            return
        gen_c = os.path.join(d, sorted(gens, key=lambda f: (not f.endswith(".c"), f))[0])
        rc, cpu, wall, err = child_cpu([CC, "-O2", "-c", "-I", os.path.join(TOP, "runtime",
                                                                            "include"),
                                        "-o", os.path.join(d, "gcc.o"), gen_c], cwd=d)
        if rc != 0:
            failures.append("gcc -O2 -c on the generated C failed")
            say("# gcc failed on %s: %s" % (gen_c, err.strip()[:1000]))
            return
        t_gcc.append(cpu)
        w_gcc.append(wall)
    c, g = statistics.median(t_cpcc), statistics.median(t_gcc)
    gen_lines = sum(1 for _ in open(gen_c))
    say("# translation speed: %d-line CPC file -> %d-line C file (%s)" % (
        lines, gen_lines, os.path.basename(gen_c)))
    say("BENCH translator.compile.cpcc %.3f s" % c)
    say("BENCH translator.compile.gcc %.3f s" % g)
    say("BENCH translator.compile.ratio %.2f x" % (c / g))
    say("BENCH translator.compile.source_lines %d n" % lines)
    say("BENCH translator.compile.generated_lines %d n" % gen_lines)
    say("BENCH translator.compile.lines_per_source %.2f x" % (gen_lines / lines))
    say("# wall: cpcc %.2f s, gcc %.2f s; translation alone ~%.2f s CPU; ratio target <= 1.5: %s"
        % (statistics.median(w_cpcc), statistics.median(w_gcc), c - g,
           "ok" if c / g <= 1.5 else "OVER TARGET"))
    # The program must compute what its native build computes.
    exe_cpc, exe_nat = os.path.join(d, "gen5k-cpc"), os.path.join(d, "gen5k-native")
    a = run([CPCC, "-O2", "-o", exe_cpc, src])
    b = run([CC, "-O2", "-w", "-DCPC_NATIVE", "-x", "c", "-o", exe_nat, src])
    if a.returncode or b.returncode:
        failures.append("building the generated program failed")
        return
    ra, rb = run([exe_cpc], timeout=120), run([exe_nat], timeout=120)
    if (ra.returncode, ra.stdout) != (rb.returncode, rb.stdout):
        failures.append("generated program: cpcc build prints %r (status %d), native %r (%d)"
                        % (ra.stdout.strip(), ra.returncode, rb.stdout.strip(), rb.returncode))
        say("# WRONG OUTPUT: the translated 5,000-line program prints %r, native %r" % (
            ra.stdout.strip(), rb.stdout.strip()))
    else:
        say("# the translated program prints what the native one prints: %s" % rb.stdout.strip())


TRANSLATE = ("import sys; sys.path.insert(0, %r); from cpc import pipeline; "
             "f = sys.argv[1]; pipeline.translate(open(f, 'rb').read(), f, dataflow=sys.argv[2])"
             % os.path.join(TOP, "translator"))

# How variables live across cps calls in the translations measured: as cpcc
# -O1 and above translates (in the frame, read in place), and as cpcc -O0
# does (lifted into C locals, restored at each resume point).
DATAFLOWS = (("frame", ""), ("lifting", "_lifting"))


def translate_cpu(src, dataflow="frame", budget=None):
    """CPU seconds of translating file `src` (the translator alone, in a child
    process), or None when it failed.  With `budget` a translation is
    stopped a little past it and counts as over it (float('inf'))."""
    rc, cpu, _wall, err = child_cpu([sys.executable, "-c", TRANSLATE, src, dataflow],
                                    cpu_limit=int(budget) + 2 if budget else None)
    if budget and rc in (-signal.SIGXCPU, -signal.SIGKILL):
        return float("inf")
    if rc != 0:
        say("# translation of %s failed: %s" % (src, err.strip()[-500:].replace("\n", "\n# ")))
        return None
    return cpu


def shape_file(shape, n):
    import shapes
    path = os.path.join(OUT, "%s_%d.cpc" % (shape, n))
    with open(path, "w") as f:
        f.write(shapes.source(shape, n))
    return path


def bench_scaling():
    """(c) Translation time per 1,000 lines of cps code: gen5k's file, and one
    function of each shape of shapes.py (deep expressions, long if chains,
    thousands of returns of calls, goto-heavy code, thousands of locals,
    macro-expanded blocks, with cps calls or with cleanup variables and
    none):

      BENCH translator.translate.kloc.<shape> <s> s    CPU per 1,000 lines

    and the largest function of the `gotos` shape (a label, a cps call and a
    backward goto per line) translated in 10 s of CPU (sizes doubling, the
    size at the budget interpolated between the two around it), as -O1 and
    above translate it and as -O0 does (DATAFLOWS):

      BENCH translator.translate.max_lines_10s <lines> lines
      BENCH translator.translate.max_lines_10s_lifting <lines> lines"""
    sys.path.insert(0, HERE)
    gen = os.path.join(OUT, "gen5k.cpc")
    p = run([sys.executable, os.path.join(HERE, "gen5k.py"), "--lines", "5000"])
    with open(gen, "w") as f:
        f.write(p.stdout)
    cases = [("gen5k", gen)]
    sizes = {"and_chain": 2000, "sum": 600, "else_if": 330, "returns": 2000, "gotos": 1000, "locals": 3000,
             "blocks": 12, "cleanup_blocks": 14}
    expanded = ("blocks", "cleanup_blocks")       # sizes are powers of two
    if quick:
        sizes = {k: (v if k in expanded else v // 2) for k, v in sizes.items()}
        sizes["blocks"] = 10
        sizes["cleanup_blocks"] = 12
    for shape, n in sizes.items():
        cases.append((shape, shape_file(shape, n)))
    for name, path in cases:
        cpu = translate_cpu(path)
        if cpu is None:
            failures.append("translation of %s" % name)
            continue
        with open(path) as f:
            lines = sum(1 for _ in f)
        if name in expanded:          # counted as expanded: a line per block
            lines = 2 ** sizes[name]
        say("BENCH translator.translate.kloc.%s %.3f s" % (name, cpu * 1000.0 / lines))
        say("# %s: %d lines in %.2f s CPU" % (name, lines, cpu))
    budget = 10.0
    for dataflow, suffix in DATAFLOWS:
        say("BENCH translator.translate.max_lines_10s%s %d lines"
            % (suffix, max_gotos_lines(dataflow, budget)))
    bench_bigfunc_max(budget)


def max_gotos_lines(dataflow, budget):
    """The largest `gotos` function translated in `budget` s of CPU: sizes
    doubling from 250 labels, then growing by a quarter from the last one
    under the budget (at most three more), the size at the budget
    interpolated between the two measured around it (a translation stopped
    at the budget counts as the last size under it)."""
    points = []

    def measure(n):
        path = shape_file("gotos", n)
        cpu = translate_cpu(path, dataflow, budget)
        if cpu is None:
            return None
        with open(path) as f:
            lines = sum(1 for _ in f)
        points.append((lines, cpu))
        say("# gotos (%s), %d labels: %d lines in %.2f s CPU" % (dataflow, n, lines, cpu))
        return cpu

    n = 250
    while n <= 64000:
        cpu = measure(n)
        if cpu is None:
            return 0
        if cpu > budget:
            break
        n *= 2
    n //= 2
    for _ in range(3):
        n += n // 4
        cpu = measure(n)
        if cpu is None or cpu > budget:
            break
    points.sort()
    return at_budget(points, budget)


def at_budget(points, budget):
    """The size at which CPU reaches `budget`, from [(size, cpu)] measured at
    growing sizes: linear between the last size under the budget and the
    first over it (the largest measured when none went over)."""
    under = [(n, t) for n, t in points if t <= budget]
    if not under:
        return 0
    n0, t0 = under[-1]
    over = [(n, t) for n, t in points if t > budget and n > n0]
    if not over:
        return n0
    n1, t1 = over[0]
    return int(n0 + (n1 - n0) * (budget - t0) / (t1 - t0))


def bench_bigfunc_max(budget):
    """The largest function of bigfunc.py (one cps function, a suspension on
    every line: func10k's shape) that the translator translates in `budget`
    s of CPU as cpcc -O2 does (frame-resident variables), and that cpcc -O2 -c
    translates and compiles in it (sizes doubling from
    1,250 lines; the size at the budget interpolated between the two
    around it):

      BENCH translator.translate.max_func_lines_10s <lines> lines
      BENCH translator.compile.max_func_lines_10s <lines> lines"""
    d = os.path.join(OUT, "bigfunc")
    os.makedirs(d, exist_ok=True)
    trans, full = [], []
    n = 1250
    while n <= (5000 if quick else 40000):
        src = generated("bigfunc.py", os.path.join(d, "bigfunc_%d.cpc" % n), "--lines", n)
        if not trans or trans[-1][1] <= budget:
            cpu = translate_cpu(src, "frame", budget)
            if cpu is None:
                failures.append("translation of %s" % src)
                return
            trans.append((n, cpu))
        if not full or full[-1][1] <= budget:
            rc, cpu, _w, err = child_cpu([CPCC, "-O2", "-c", src, "-o", src + ".o"], cwd=d)
            if rc != 0:
                failures.append("cpcc -O2 -c %s" % src)
                say("# cpcc failed on %s: %s" % (src, err.strip()[:500]))
                return
            full.append((n, cpu))
        say("# bigfunc, %d lines: translation %s, cpcc -O2 -c %s" % (
            n, "%.2f s" % trans[-1][1] if trans[-1][0] == n else "-",
            "%.2f s" % full[-1][1] if full[-1][0] == n else "-"))
        if trans[-1][1] > budget and full[-1][1] > budget:
            break
        n *= 2
    say("BENCH translator.translate.max_func_lines_10s %d lines" % at_budget(trans, budget))
    say("BENCH translator.compile.max_func_lines_10s %d lines" % at_budget(full, budget))


STAGES = ("import json, sys, time; t0 = time.process_time(); sys.path.insert(0, %r); "
          "from cpc import pipeline; t1 = time.process_time(); f = sys.argv[1]; "
          "times = {'start-up (imports)': t1 - t0}; "
          "pipeline.translate(open(f, 'rb').read(), f, sys.argv[2:], timings=times, "
          "cc=[%r, '-I' + %r, '-O2'] + sys.argv[2:]); "
          "print(json.dumps(times))" % (os.path.join(TOP, "translator"), CC,
                                        os.path.join(TOP, "runtime", "include")))


def stage_times(src, flags):
    """{stage: CPU seconds} of one translation of `src` (in a child process,
    as cpcc -O2 runs it: `conditionals` asks the C compiler, whose CPU is
    charged to it), or None when it failed."""
    p = run([sys.executable, "-c", STAGES, src] + flags)
    if p.returncode != 0:
        say("# stage times of %s failed: %s" % (src, p.stderr.strip()[-300:]))
        return None
    import json
    return json.loads(p.stdout.splitlines()[-1])


def generated(script, path, *args):
    p = run([sys.executable, os.path.join(HERE, script)] + [str(a) for a in args])
    with open(path, "w") as f:
        f.write(p.stdout)
    return path


def real_cases():
    """(name, [(source, flags, plain)], what it is): the inputs that look like real
    code.  `plain` tells whether the source is also a C program (-DCPC_NATIVE)."""
    d = os.path.join(OUT, "real")
    os.makedirs(d, exist_ok=True)
    glib = run(["pkg-config", "--cflags", "glib-2.0"]).stdout.split()
    big = 2000 if quick else 10000
    cases = [
        ("gen5k", [(generated("gen5k.py", os.path.join(d, "gen5k.cpc"), "--lines", 5000),
                    [], True)], "5,000 lines of cps code, small headers"),
        ("glib_300", [(generated("gen5k.py", os.path.join(d, "glib_300.cpc"), "--lines", 300,
                                 "--headers", "glib", "--native", 0.7), glib, True)],
         "300 lines, 30% cps functions, glib and the C library's large headers"),
        ("glib_5k", [(generated("gen5k.py", os.path.join(d, "glib_5k.cpc"), "--lines", 5000,
                                "--headers", "glib", "--native", 0.7), glib, True)],
         "5,000 lines, 30% cps functions, glib and the C library's large headers"),
        ("cfile_5k", [(generated("gen5k.py", os.path.join(d, "cfile_5k.cpc"), "--lines", 5000,
                                 "--headers", "glib", "--native", 1), glib, True)],
         "a C file of a CPC project: 5,000 lines, glib and the C library's headers and the "
         "runtime's, no cps code"),
        ("libc_1k5", [(generated("gen5k.py", os.path.join(d, "libc_1k5.cpc"), "--lines",
                                 1500, "--headers", "libc", "--native", 0.7), [], True)],
         "1,500 lines, 30% cps functions, the C library's large headers"),
        ("lib", [(os.path.join(TOP, "lib", f), ["-I" + os.path.join(TOP, "lib")], False)
                 for f in sorted(os.listdir(os.path.join(TOP, "lib"))) if f.endswith(".cpc")],
         "the CPC library, lib/*.cpc (sum over its files)"),
        ("httpd", [(os.path.join(TOP, "examples", "httpd", "httpd.cpc"),
                    ["-I" + os.path.join(TOP, "examples", "httpd")], False)],
         "examples/httpd/httpd.cpc"),
        ("func%dk" % (big // 1000), [(generated("bigfunc.py", os.path.join(d, "bigfunc.cpc"),
                                                "--lines", big), [], True)],
         "one %d-line cps function, a suspension on every line" % big),
    ]
    return cases


def add_cpu(total, rc, cpu):
    """total + cpu, or None once a compilation failed (rc != 0), this one or
    an earlier one (total None)."""
    return total + cpu if total is not None and rc == 0 else None


def bench_real():
    """(d) Real-code inputs: per case the CPU time of `cpcc -O2 -c` (translation and
    C compiler), of `cc -O2 -c` on the generated C, and of `cc -O2 -c` on the source
    compiled as plain C where it is one; medians of BENCH_COMPILE_RUNS runs:

      BENCH translator.real.<case>.cpcc <s> s
      BENCH translator.real.<case>.cc <s> s          on the generated C
      BENCH translator.real.<case>.plain <s> s       on the source as plain C
      BENCH translator.real.<case>.ratio <x> x       cpcc / cc (target <= 1.3)

    (for the one large function the ratio is to plain C: target <= 3), then each
    case's translation CPU per stage (one translation in a child process)."""
    inc = "-I" + os.path.join(TOP, "runtime", "include")
    d = os.path.join(OUT, "real")
    all_stages = {}
    for name, files, what in real_cases():
        t_cpcc, t_cc, t_plain = [], [], []
        ok = True
        for _ in range(COMPILE_RUNS):
            a = b = c = 0.0
            for src, flags, plain in files:
                base = os.path.join(d, name + "-" + os.path.basename(src))
                rc, cpu, _w, err = child_cpu([CPCC, "-O2", "-c", "--save-temps"] + flags +
                                             [src, "-o", base + ".o"], cwd=d)
                if rc != 0:
                    failures.append("cpcc -O2 -c %s" % src)
                    say("# cpcc failed on %s: %s" % (src, err.strip()[:500]))
                    ok = False
                    break
                a += cpu
                gen = os.path.join(d, os.path.splitext(os.path.basename(src))[0] + ".cpc.c")
                rc, cpu, _w, err = child_cpu([CC, "-O2", "-c", inc] + flags +
                                             ["-iquote", os.path.dirname(src), gen,
                                              "-o", base + ".gen.o"], cwd=d)
                if rc != 0:
                    failures.append("cc -O2 -c on the C generated from %s" % src)
                    ok = False
                    break
                b += cpu
                if plain:
                    rc, cpu, _w, err = child_cpu([CC, "-O2", "-c", "-w", "-DCPC_NATIVE", "-x",
                                                  "c"] + flags + [src, "-o", base + ".nat.o"],
                                                 cwd=d)
                    c = add_cpu(c, rc, cpu)
                else:
                    c = None
            if not ok:
                break
            t_cpcc.append(a)
            t_cc.append(b)
            t_plain.append(c)
        if not ok:
            continue
        a, b = statistics.median(t_cpcc), statistics.median(t_cc)
        say("# %s: %s" % (name, what))
        say("BENCH translator.real.%s.cpcc %.3f s" % (name, a))
        say("BENCH translator.real.%s.cc %.3f s" % (name, b))
        c = None
        if None not in t_plain:
            c = statistics.median(t_plain)
            say("BENCH translator.real.%s.plain %.3f s" % (name, c))
        if name.startswith("func"):
            if c:
                say("BENCH translator.real.%s.ratio %.2f x" % (name, a / c))
        else:
            say("BENCH translator.real.%s.ratio %.2f x" % (name, a / b))
        stages = {}
        for src, flags, _plain in files:
            t = stage_times(src, flags)
            for k, v in (t or {}).items():
                stages[k] = stages.get(k, 0.0) + v
        all_stages[name] = stages
    # the table of bench/README.md: translation CPU per stage, per case
    names = list(all_stages)
    order = []
    for st in all_stages.values():
        for k in st:
            if k not in order:
                order.append(k)
    say("# translation CPU per stage (s), one run each:")
    say("# | stage | " + " | ".join(names) + " |")
    say("# |---|" + "---:|" * len(names))
    for k in order:
        say("# | %s | " % k + " | ".join("%.3f" % all_stages[n].get(k, 0.0) for n in names)
            + " |")
    say("# | total | " + " | ".join("%.3f" % sum(all_stages[n].values()) for n in names)
        + " |")


def main():
    os.makedirs(OUT, exist_ok=True)
    if not os.access(CPCC, os.X_OK):
        say("# bench-translator: %s missing" % CPCC)
        return 1
    what = sys.argv[1:] or ["cpscall", "O0", "compile", "real", "scaling"]
    if "cpscall" in what:
        bench_cpscall()
    if "O0" in what:
        bench_O0()
    if "compile" in what:
        bench_compile()
    if "real" in what:
        bench_real()
    if "scaling" in what:
        bench_scaling()
    for f in failures:
        say("# FAILED: " + f)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
