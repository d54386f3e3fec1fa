#!/usr/bin/env python3
"""Differential testing of cpcc against the C compiler, on Csmith programs.

For each seed: generate a Csmith program, build it natively (`cc -O1`), turn it into a CPC
program in which every function that can be is cps (cpcsmith.py), build that with
`bin/cpcc -O<L>`, run both under a timeout and compare stdout and exit status.  Every seed
runs at -O1; one seed in ten also at -O0, one in ten at -O2, one in five at
-O1 with AddressSanitizer (-O1+asan), one in five at -O1 with `cpc_yield();` at the start
of every cps function (-O1+yield, tests/translator/corpus/yieldify.py), so that every cps call
suspends and resumes through the scheduler, one in five at -O1 with the environments
data-flow scheme, `--dataflow=environments` (-O1+env), and one in ten at -O1 with the lifting
scheme, `--dataflow=lifting` (-O1+lift: cpcc's default at -O1 and above is frame-resident
variables, at -O0 lifting).

Failures are classified:
  translator-crash       cpcc died with a Python traceback or a signal
  translator-invariant   a translator pass broke its invariant (cpcc runs with
                         --cpc-check-invariants; the message names the pass and the place)
  translator-diagnostic  cpcc rejected the program with a diagnostic of its own
  translator-timeout     cpcc did not finish
  gcc-error              the generated C does not compile
  link-error             the objects do not link (e.g. a missing __cps entry point)
  runtime-crash          the CPC program died of a signal (segfault, abort, ...)
  asan-error             AddressSanitizer found a memory error in the CPC program (the
                         -O1+asan builds of one seed in five)
  wrong-output           stdout or exit status differ from the native build
  timeout                the CPC program ran far longer than the native one
  harness                the transformation itself changed the program's meaning (the
                         -DCPC_NATIVE build of the .cpc differs from the Csmith program)
Seeds whose native program does not finish in time are skipped (the fixed list in seeds.txt
has none).

Modes:
  run.py test   [--seed-file F | --seeds A-B] [-j 2]   the fixed seeds + regressions/
  run.py fuzz   --seeds A-B [--reduce-max N]          a campaign; failures are reduced
                                                      (reduce.py) into regressions/
  run.py regressions                                  only regressions/
  run.py harness --seeds A-B                          check the transformation alone
                                                      (no cpcc): front-end parse + the
                                                      -DCPC_NATIVE build vs the native one
The last line is `csmith: N passed, N failed` (with `, N skipped` when some were skipped).
"""

import argparse
import concurrent.futures as cf
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.abspath(os.path.join(HERE, "..", ".."))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(TOP, "tests", "translator", "corpus"))
import cpcsmith  # noqa: E402
import yieldify  # noqa: E402

_COMMON_OPTIONS = ["--no-argc", "--max-block-depth", "3", "--max-expr-complexity", "6",
                   "--max-array-dim", "2", "--max-array-len-per-dim", "4",
                   "--max-struct-fields", "5", "--max-union-fields", "3"]
# `make test-csmith` (200 seeds in a few minutes): small programs, ~600 lines once flattened.
CSMITH_OPTIONS_TEST = _COMMON_OPTIONS + ["--max-funcs", "4", "--max-block-size", "3"]
# `make fuzz`: larger programs (~1,500 lines), more constructs per seed.
CSMITH_OPTIONS_FUZZ = _COMMON_OPTIONS + ["--max-funcs", "6", "--max-block-size", "4"]
CSMITH_OPTIONS = CSMITH_OPTIONS_TEST
NATIVE_TIMEOUT = 5.0        # the fixed seeds are screened (< 0.5 s); fuzz lowers it to 1 s
COMPILE_TIMEOUT = 180.0
CC = os.environ.get("CC", "cc")
CPCC = os.environ.get("CPCC", os.path.join(TOP, "bin", "cpcc"))
RUNTIME_INC = os.path.join(TOP, "runtime", "include")
REGRESSIONS = os.path.join(HERE, "regressions")

CLASSES = ["translator-crash", "translator-invariant", "translator-diagnostic", "translator-timeout", "gcc-error",
           "link-error", "runtime-crash", "asan-error", "wrong-output", "timeout", "harness"]


def opt_levels(seed):
    """A level is `-O<n>`, `-O<n>+asan` (built with -fsanitize=address and run with
    detect_stack_use_after_return, which catches a variable left on the C stack of a body
    that returned to the trampoline, even when the output happens to be right),
    `-O<n>+yield` (a yield at the entry of every cps function), `-O<n>+env` (the
    environments data-flow scheme) or `-O<n>+lift` (the lifting scheme)."""
    levels = ["-O1"]
    if seed % 10 == 0:
        levels.append("-O0")
    if seed % 10 == 5:
        levels.append("-O2")
    if seed % 10 == 2 or seed % 10 == 7:
        levels.append("-O1+asan")
    if seed % 10 == 3 or seed % 10 == 8:
        levels.append("-O1+yield")
    if seed % 10 == 4 or seed % 10 == 9:
        levels.append("-O1+env")
    if seed % 10 == 1:
        levels.append("-O1+lift")
    return levels


def level_flags(level):
    """The C compiler's flags of a level."""
    opt, _, variant = level.partition("+")
    flags = [opt]
    if variant == "asan":
        flags += ["-g", "-fsanitize=address", "-fno-omit-frame-pointer"]
    return flags


def cpcc_flags(level):
    """cpcc's flags of a level: the C compiler's, and the data-flow scheme (`+env`:
    environments; `+lift`: lifting; otherwise cpcc's default: frame-resident variables
    from -O1 on, lifting at -O0)."""
    flags = level_flags(level)
    variant = level.partition("+")[2]
    if variant == "env":
        flags.append("--dataflow=environments")
    elif variant == "lift":
        flags.append("--dataflow=lifting")
    return flags


def level_dir(level):
    return level.lstrip("-").replace("+", "-")


ASAN_ENV = {"ASAN_OPTIONS": "detect_stack_use_after_return=1:detect_leaks=0:"
                            "abort_on_error=0:exitcode=86"}


def helpers_native(seed):
    """One seed in four keeps the Csmith runtime native (mixes cps and native calls)."""
    return seed % 4 == 3


COMPILE_MEMORY = 4 << 30     # address-space limit for cpcc and gcc (a runaway gcc fails)


def _limit_memory():
    import resource
    resource.setrlimit(resource.RLIMIT_AS, (COMPILE_MEMORY, COMPILE_MEMORY))


def sh(cmd, cwd=None, timeout=None, input=None, limit_memory=False, env=None):
    """Run cmd; return (returncode, stdout, stderr, seconds); returncode None on timeout."""
    t0 = time.monotonic()
    try:
        p = subprocess.Popen(cmd, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                             stdin=subprocess.PIPE if input is not None else subprocess.DEVNULL,
                             start_new_session=True, env=env,
                             preexec_fn=_limit_memory if limit_memory else None)
    except OSError as e:
        return 127, b"", str(e).encode(), 0.0
    try:
        out, err = p.communicate(input=input, timeout=timeout)
        return p.returncode, out, err, time.monotonic() - t0
    except subprocess.TimeoutExpired:
        try:
            os.killpg(p.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        out, err = p.communicate()
        return None, out, err, time.monotonic() - t0


def text(b, limit=4000):
    s = b.decode("utf-8", "replace") if isinstance(b, bytes) else b
    return s if len(s) <= limit else s[:limit] + "\n[... cut ...]\n"


def cpcc_available():
    return os.access(CPCC, os.X_OK)


def cpc_timeout(native_secs):
    return max(10.0, 50.0 * native_secs)


# ---------------------------------------------------------------------------------------
# Building and running one CPC program
# ---------------------------------------------------------------------------------------

def build_failure(rc, log):
    """The class of a failed cpcc build, from its status and output; None when only
    the generated C can tell a gcc error from a diagnostic of cpcc's."""
    if rc is None:
        return "translator-timeout"
    if re.search(r"out of memory|virtual memory exhausted|Killed signal terminated", log):
        return "gcc-error"
    if rc < 0 or "Traceback (most recent call last)" in log:
        return "translator-crash"
    if "error: internal error: " in log:
        return "translator-invariant"
    if re.search(r"undefined reference|ld returned|collect2", log):
        return "link-error"
    return None


def build_cpc(src, level, d, extra=()):
    """Compile src (a .cpc file) with cpcc into d; return (exe or None, klass, detail)."""
    os.makedirs(d, exist_ok=True)
    exe = os.path.join(d, "prog")
    if "+yield" in level:
        with open(src, "rb") as f:
            yielding = yieldify.yieldify(f.read(), os.path.basename(src), (RUNTIME_INC,))
        src = os.path.join(d, "prog-yield.cpc")
        with open(src, "wb") as f:
            f.write(yielding)
    before = set(os.listdir(d))
    rc, out, err, secs = sh([CPCC] + cpcc_flags(level) + ["-w", "--save-temps",
                                                           "--cpc-check-invariants", "-o", exe, src]
                            + list(extra), cwd=d, timeout=COMPILE_TIMEOUT,
                            limit_memory="+asan" not in level)
    log = text(out) + text(err)
    if rc == 0 and os.access(exe, os.X_OK):
        return exe, None, ""
    klass = build_failure(rc, log)
    if klass is not None:
        return None, klass, log
    # Did the translator produce C that gcc then rejected?
    generated = [f for f in set(os.listdir(d)) - before
                 if f.endswith((".c", ".i")) and os.path.join(d, f) != src]
    srcbase = os.path.splitext(os.path.basename(src))[0]
    cands = sorted(generated) + [f for f in os.listdir(d)
                                 if f.startswith(srcbase) and f.endswith((".c", ".i"))]
    for g in cands:
        grc, gout, gerr, _ = sh([CC] + level_flags(level) + ["-w", "-c", "-I", RUNTIME_INC,
                                 "-o", "/dev/null",
                                 os.path.join(d, g)], cwd=d, timeout=COMPILE_TIMEOUT,
                                limit_memory=True)
        if grc not in (0, None):
            return None, "gcc-error", log + "\n--- gcc on %s ---\n" % g + text(gerr)
    return None, "translator-diagnostic", log


def run_exe(exe, timeout, level=""):
    env = None
    if "+asan" in level:
        env = dict(os.environ, **ASAN_ENV)
    return sh([exe], timeout=timeout, env=env)


def compare(native, cpc):
    """native, cpc: (rc, out, err, secs).  Return (klass, detail) or (None, '')."""
    rc, out, err, secs = cpc
    nrc, nout, _, _ = native
    if rc is None:
        return "timeout", "CPC program killed after %.1fs (native took %.3fs)" % (secs, native[3])
    if rc < 0:
        return "runtime-crash", "killed by signal %d\nstderr: %s\nstdout: %s" % (
            -rc, text(err, 1500), text(out, 500))
    m = re.search(rb"ERROR: AddressSanitizer: ([\w-]+)", err)
    if m:
        frames = re.findall(rb"#\d+ 0x[0-9a-f]+ in (\S+)", err)
        return "asan-error", "AddressSanitizer: %s in %s\n%s" % (
            m.group(1).decode(), b" <- ".join(frames[:4]).decode(), text(err, 2500))
    if rc != nrc or out != nout:
        return "wrong-output", "native: status %d, stdout %r\ncpc:    status %d, stdout %r%s" % (
            nrc, text(nout, 300), rc, text(out, 300),
            ("\nstderr: " + text(err, 1500)) if err else "")
    return None, ""


# ---------------------------------------------------------------------------------------
# One seed
# ---------------------------------------------------------------------------------------

def generate(seed, d):
    os.makedirs(d, exist_ok=True)
    prog = os.path.join(d, "csmith.c")
    rc, out, err, _ = sh(["csmith", "--seed", str(seed)] + CSMITH_OPTIONS, cwd=d, timeout=60)
    if rc != 0:
        raise RuntimeError("csmith failed on seed %d: %s" % (seed, text(err)))
    with open(prog, "wb") as f:
        f.write(out)
    return prog, out.decode()


def build_native(src, d, name="native", extra=()):
    exe = os.path.join(d, name)
    rc, out, err, _ = sh([CC, "-O1", "-w", "-I", cpcsmith.csmith_include_dir(), "-o", exe,
                          src] + list(extra), timeout=COMPILE_TIMEOUT)
    if rc != 0:
        raise RuntimeError("native build failed: %s" % text(err))
    return exe


def run_seed(seed, workdir, mode, keep=False):
    """Return a list of result dicts (one per optimisation level)."""
    d = os.path.join(workdir, "s%d" % seed)
    shutil.rmtree(d, ignore_errors=True)
    results = []
    try:
        prog, prog_text = generate(seed, d)
        native_exe = build_native(prog, d)
        native = run_exe(native_exe, NATIVE_TIMEOUT)
        if native[0] is None or native[0] < 0:
            shutil.rmtree(d, ignore_errors=True)
            return [{"seed": seed, "level": "-", "status": "skipped",
                     "detail": "native program does not finish in %.0fs" % NATIVE_TIMEOUT}]
        cpc_text, stats = cpcsmith.transform(prog_text, helpers_native(seed))
        cpc_src = os.path.join(d, "prog.cpc")
        with open(cpc_src, "w") as f:
            f.write(cpc_text)
    except Exception as e:  # the harness itself failed: report, do not hide
        return [{"seed": seed, "level": "-", "status": "failed", "class": "harness",
                 "detail": "%s: %s" % (type(e).__name__, e), "dir": d}]

    if mode == "harness":
        levels = ["native-check"]
    else:
        levels = opt_levels(seed)
    for level in levels:
        r = {"seed": seed, "level": level, "helpers_native": helpers_native(seed),
             "dir": d, "cps_functions": stats["cps"], "native_functions": stats["native"]}
        if mode == "harness":
            klass, detail = check_harness(cpc_src, d, native)
        else:
            ld = os.path.join(d, level_dir(level))
            exe, klass, detail = build_cpc(cpc_src, level, ld)
            if exe is not None:
                cpc = run_exe(exe, cpc_timeout(native[3]), level)
                klass, detail = compare(native, cpc)
        if klass is not None and mode != "harness" and klass == "wrong-output":
            # Is it the harness?  The same text built natively must match Csmith's program.
            hk, hd = check_native_of_cpc(cpc_src, d, native)
            if hk is not None:
                klass, detail = "harness", hd + "\n(cpcc result: " + detail + ")"
        r["status"] = "passed" if klass is None else "failed"
        if klass is not None:
            r["class"] = klass
            r["detail"] = detail
            r["expected"] = native[1].decode("utf-8", "replace")
        results.append(r)
    if all(r["status"] == "passed" for r in results) and not keep:
        shutil.rmtree(d, ignore_errors=True)
    return results


def check_native_of_cpc(cpc_src, d, native):
    exe = os.path.join(d, "cpc-native")
    rc, out, err, _ = sh([CC, "-O1", "-w", "-DCPC_NATIVE", "-x", "c", "-o", exe, cpc_src],
                         timeout=COMPILE_TIMEOUT)
    if rc != 0:
        return "harness", "the .cpc does not build natively (-DCPC_NATIVE): " + text(err)
    got = run_exe(exe, max(NATIVE_TIMEOUT, 10 * native[3]))
    if got[0] != native[0] or got[1] != native[1]:
        return "harness", "-DCPC_NATIVE build of the .cpc: status %r stdout %r; Csmith: %r %r" % (
            got[0], text(got[1], 200), native[0], text(native[1], 200))
    return None, ""


def check_harness(cpc_src, d, native):
    """Without cpcc: the .cpc parses in front-end mode and means what Csmith's program means."""
    k, detail = check_native_of_cpc(cpc_src, d, native)
    if k:
        return k, detail
    errs = frontend_errors(cpc_src)
    if errs:
        return "harness", "front-end parse errors: " + "\n".join(errs[:5])
    return None, ""


def frontend_errors(path):
    import clang.cindex as ci
    args = ["-x", "c", "-std=gnu11", "-D__CPC_FRONTEND__", "-I", RUNTIME_INC,
            "-Wno-int-conversion", "-Wno-incompatible-pointer-types"]
    rd = cpcsmith.resource_dir()
    if rd:
        args += ["-resource-dir", rd]
    tu = ci.Index.create().parse(path, args=args, options=0x1000)
    return [str(x) for x in tu.diagnostics if x.severity >= ci.Diagnostic.Error]


# ---------------------------------------------------------------------------------------
# Regression programs
# ---------------------------------------------------------------------------------------

def regression_cases():
    if not os.path.isdir(REGRESSIONS):
        return []
    return sorted(os.path.join(REGRESSIONS, f) for f in os.listdir(REGRESSIONS)
                  if f.endswith(".cpc"))


def regression_levels(path):
    """`/* cpcsmith-regression: levels=-O0,-O1 ... */` on the first lines; default -O1."""
    with open(path) as f:
        head = f.read(2000)
    m = re.search(r"levels=([-+a-zO0-9,]+)", head)
    return m.group(1).split(",") if m else ["-O1"]


def run_regression(path, workdir):
    name = os.path.splitext(os.path.basename(path))[0]
    exp_out = open(os.path.splitext(path)[0] + ".expected", "rb").read()
    st_path = os.path.splitext(path)[0] + ".status"
    exp_rc = int(open(st_path).read().strip()) if os.path.exists(st_path) else 0
    native = (exp_rc, exp_out, b"", 0.2)
    results = []
    for level in regression_levels(path):
        d = os.path.join(workdir, "regress", name, level_dir(level))
        shutil.rmtree(d, ignore_errors=True)
        exe, klass, detail = build_cpc(path, level, d)
        if exe is not None:
            klass, detail = compare(native, run_exe(exe, 20.0, level))
        r = {"seed": "regression:" + name, "level": level,
             "status": "passed" if klass is None else "failed", "dir": d}
        if klass:
            r["class"], r["detail"] = klass, detail
        else:
            shutil.rmtree(d, ignore_errors=True)
        results.append(r)
    return results


# ---------------------------------------------------------------------------------------
# Driver
# ---------------------------------------------------------------------------------------

def parse_seeds(args):
    seeds = []
    if args.seed_file:
        with open(args.seed_file) as f:
            for line in f:
                line = line.split("#", 1)[0].strip()
                if line:
                    seeds.append(int(line))
    if args.seeds:
        for part in args.seeds.split(","):
            if "-" in part:
                a, b = part.split("-")
                seeds.extend(range(int(a), int(b) + 1))
            elif part:
                seeds.append(int(part))
    if args.count:
        seeds = seeds[:args.count]
    return seeds


def signature(r):
    """A short key grouping failures of the same kind (for reports and deduplication)."""
    detail = r.get("detail", "")
    k = r.get("class", "")
    line = ""
    if k == "translator-crash":
        lines = [l for l in detail.splitlines() if l.strip()]
        tb = [l for l in lines if re.match(r"\s*File \".*\", line \d+, in ", l)]
        last = lines[-1] if lines else ""
        line = (tb[-1].strip() if tb else "") + " | " + last
    elif k in ("translator-invariant", "translator-diagnostic", "gcc-error", "link-error"):
        for l in detail.splitlines():
            if re.search(r"error|out of memory|memory exhausted|Killed signal", l):
                line = l
                break
    elif k == "runtime-crash":
        m = re.search(r"signal (\d+)", detail)
        line = "signal " + (m.group(1) if m else "?")
    elif k == "asan-error":
        line = detail.splitlines()[0] if detail else ""
        line = re.sub(r" in \S+?__", " in F__", line)
    line = re.sub(r"/[^ :\"]*/", "", line)
    line = re.sub(r"\b(g|l|p|func|si|ui|s|c)_\d+\b", r"\1_N", line)
    line = re.sub(r"\d+", "N", line)
    return k + ": " + line.strip()[:200]


def screen_one(seed, workdir):
    d = os.path.join(workdir, "screen", "s%d" % seed)
    try:
        prog, _ = generate(seed, d)
        exe = build_native(prog, d)
        rc, out, err, secs = run_exe(exe, 2.0)
    finally:
        shutil.rmtree(d, ignore_errors=True)
    return seed, rc, secs


def screen(seeds, args):
    """Print the seeds whose native program finishes in under 0.5 s (to build seeds.txt)."""
    with cf.ThreadPoolExecutor(max_workers=max(1, args.jobs)) as ex:
        res = sorted(ex.map(lambda s: screen_one(s, args.workdir), seeds))
    for seed, rc, secs in res:
        if rc is not None and rc >= 0 and secs < 0.5:
            print(seed)
    return 0


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("mode", choices=["test", "fuzz", "regressions", "harness", "screen"])
    ap.add_argument("--seeds", help="A-B,C,... ranges of seeds")
    ap.add_argument("--seed-file")
    ap.add_argument("--count", type=int)
    ap.add_argument("-j", "--jobs", type=int, default=2)
    ap.add_argument("--workdir", default=os.path.join(TOP, "build", "csmith"))
    ap.add_argument("--keep", action="store_true", help="keep the files of passing seeds")
    ap.add_argument("--reduce-max", type=int, default=int(os.environ.get("FUZZ_REDUCE_MAX", 6)),
                    help="fuzz: reduce at most this many failures, one per signature")
    ap.add_argument("--reduce-timeout", type=int,
                    default=int(os.environ.get("FUZZ_REDUCE_TIMEOUT", 900)))
    ap.add_argument("--no-regressions", action="store_true")
    ap.add_argument("-q", "--quiet", action="store_true")
    args = ap.parse_args(argv)

    if args.mode in ("test", "fuzz", "regressions") and not cpcc_available():
        print("csmith: %s is missing: build the translator first" % CPCC, file=sys.stderr)
        print("csmith: 0 passed, 1 failed")
        return 1

    global NATIVE_TIMEOUT, CSMITH_OPTIONS
    if args.mode == "fuzz":
        NATIVE_TIMEOUT = 1.0
        CSMITH_OPTIONS = CSMITH_OPTIONS_FUZZ
    os.makedirs(args.workdir, exist_ok=True)
    seeds = parse_seeds(args) if args.mode != "regressions" else []
    if args.mode == "screen":
        return screen(seeds, args)
    t0 = time.monotonic()
    lock = threading.Lock()
    results = []
    done = [0]

    def report(rs):
        with lock:
            results.extend(rs)
            done[0] += 1
            for r in rs:
                if r["status"] == "failed":
                    print("FAIL %s %s [%s] %s" % (r["seed"], r["level"], r["class"],
                                                 r.get("dir", "")), flush=True)
                    if not args.quiet:
                        for l in r.get("detail", "").splitlines()[:12]:
                            print("    " + l)
            if done[0] % (100 if args.quiet else 50) == 0:
                npass = sum(1 for r in results if r["status"] == "passed")
                nfail = sum(1 for r in results if r["status"] == "failed")
                nskip = sum(1 for r in results if r["status"] == "skipped")
                print("csmith: %d programs done (%.0fs): %d builds passed, %d failed, "
                      "%d skipped" % (done[0], time.monotonic() - t0, npass, nfail, nskip),
                      flush=True)

    jobs = []
    with cf.ThreadPoolExecutor(max_workers=max(1, args.jobs)) as ex:
        for s in seeds:
            jobs.append(ex.submit(run_seed, s, args.workdir,
                                  "harness" if args.mode == "harness" else "cpc", args.keep))
        if args.mode in ("test", "regressions") and not args.no_regressions:
            for p in regression_cases():
                jobs.append(ex.submit(run_regression, p, args.workdir))
        for j in cf.as_completed(jobs):
            try:
                report(j.result())
            except Exception as e:
                report([{"seed": "?", "level": "-", "status": "failed", "class": "harness",
                         "detail": repr(e)}])

    failed = [r for r in results if r["status"] == "failed"]
    passed = [r for r in results if r["status"] == "passed"]
    skipped = [r for r in results if r["status"] == "skipped"]
    by_class = {}
    sigs = {}
    for r in failed:
        by_class[r["class"]] = by_class.get(r["class"], 0) + 1
        sigs.setdefault(signature(r), []).append("%s%s" % (r["seed"], r["level"]))
    summary = {"mode": args.mode, "seeds": len(seeds), "builds_passed": len(passed),
               "builds_failed": len(failed), "skipped": len(skipped),
               "seconds": round(time.monotonic() - t0, 1), "by_class": by_class,
               "signatures": sigs,
               "failed_seeds": sorted({r["seed"] for r in failed}, key=str)}
    with open(os.path.join(args.workdir, "summary-%s.json" % args.mode), "w") as f:
        json.dump({"summary": summary, "failures": failed}, f, indent=1, default=str)

    print("csmith: %d seeds, %d builds in %.0fs" % (len(seeds), len(results),
                                                   time.monotonic() - t0))
    for k in CLASSES:
        if k in by_class:
            print("csmith:   %-22s %d" % (k, by_class[k]))
    if sigs:
        print("csmith: failure signatures:")
        for s, where in sorted(sigs.items(), key=lambda kv: -len(kv[1])):
            print("  %3d  %s   (e.g. %s)" % (len(where), s, ", ".join(where[:4])))

    if args.mode == "fuzz" and failed:
        import reduce as reducer
        reducer.reduce_failures(failed, args.workdir, args.reduce_max, args.reduce_timeout,
                                signature)

    line = "csmith: %d passed, %d failed" % (len(passed), len(failed))
    if skipped:
        line += ", %d skipped" % len(skipped)
    print(line)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
