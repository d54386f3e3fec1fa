#!/usr/bin/env python3
"""Minimise a failing CPC program from the Csmith campaign and keep it as a regression test.

    reduce.py FILE.cpc --class CLASS --level -O1 [--signature SIG] [--name NAME]
    reduce.py --check CLASS LEVEL SIGFILE FILE      (the interestingness test; exit 0 = still
                                                    interesting)
    reduce.py --store FILE.cpc NAME                 (keep a hand-written reproducer, expected
                                                    output from its native build)

Reduction uses C-Reduce (Debian `creduce`) when it is installed, else a line-level delta
debugger of our own (ddmin over lines, then over top-level items).  A candidate is
interesting when

  * its native build (`cc -DCPC_NATIVE`, with -Werror on uninitialised variables, implicit
    declarations and missing returns, and under ASan+UBSan) runs cleanly and prints the same
    as a plain `cc -O0`/`cc -O1` native build -- so reduction cannot introduce undefined
    behaviour that would make the comparison meaningless;
  * cpcc still fails in the same way: the same failure class and, for translator/gcc/link
    failures, the same signature (message with numbers and names normalised); for
    wrong-output, any difference from the native output; for runtime-crash, the same signal.

The reduced program goes to tests/csmith/regressions/NAME.cpc with NAME.expected (stdout of
the native build) and NAME.status (its exit status); `make test-csmith` runs them.
"""

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import run  # noqa: E402

SANITIZE = ["-fsanitize=address,undefined", "-fno-sanitize-recover=all"]
STRICT = ["-Werror=implicit-function-declaration", "-Werror=return-type",
          "-Werror=uninitialized", "-Werror=maybe-uninitialized", "-Werror=implicit-int",
          "-Werror=int-conversion", "-Werror=incompatible-pointer-types",
          "-Werror=div-by-zero", "-Werror=array-bounds", "-Werror=shift-count-overflow",
          "-Werror=sequence-point", "-Werror=main"]


def native_reference(src, d, timeout=3.0):
    """Build src natively three ways; return (rc, stdout) if all agree and run cleanly."""
    outs = []
    for name, flags in (("nat-san", ["-O1", "-g"] + SANITIZE), ("nat-O0", ["-O0"]),
                        ("nat-O1", ["-O1"])):
        exe = os.path.join(d, name)
        rc, _, err, _ = run.sh([run.CC, "-DCPC_NATIVE", "-x", "c", "-w"] + STRICT + flags +
                               ["-o", exe, src], timeout=120)
        if rc != 0:
            return None
        rc, out, err, _ = run.sh([exe], timeout=timeout)
        if rc is None or rc < 0 or (name == "nat-san" and err.strip()):
            return None
        outs.append((rc, out))
    if any(o != outs[0] for o in outs):
        return None
    return outs[0]


REQUIRED = ["#ifndef CPC_NATIVE\n#include <cpc/cpc_runtime.h>\n#else\n#define cps\n"
            "#define cpc_spawn\n#define cpc_main_loop() ((void)0)\n#endif\n"]
DRIVER_RE = re.compile(r"\bint\s+main\s*\(\s*void\s*\)\s*\{\s*cpc_spawn\s+\w+\s*\(\s*\)\s*;"
                       r"\s*cpc_main_loop\s*\(\s*\)\s*;\s*return\s+\w+\s*;\s*\}")
COMPILE_CLASSES = ("translator-crash", "translator-invariant", "translator-diagnostic",
                   "translator-timeout",
                   "gcc-error", "link-error")


def native_compiles(src):
    rc, _, _, _ = run.sh([run.CC, "-DCPC_NATIVE", "-x", "c", "-w", "-fsyntax-only"] + STRICT +
                         [src], timeout=60)
    return rc == 0


def interesting(klass, level, sig, src):
    text = open(src, errors="replace").read()
    # Keep the prologue and the driver intact: they make it a CPC program.
    if any(r not in text for r in REQUIRED) or not DRIVER_RE.search(text):
        return False
    d = tempfile.mkdtemp(prefix="cpcred-")
    try:
        cpc_src = os.path.join(d, "prog.cpc")
        shutil.copy(src, cpc_src)
        # Cheapest checks first: valid C, then cpcc still fails, then a clean native run.
        if not native_compiles(cpc_src):
            return False
        exe, k, detail = run.build_cpc(cpc_src, level, os.path.join(d, "cpc"))
        if exe is None:
            if k != klass:
                return False
            return sig is None or run.signature({"class": k, "detail": detail}) == sig
        if klass in COMPILE_CLASSES:
            return False
        got = run.run_exe(exe, 5.0 if klass == "timeout" else 10.0, level)
        if klass == "runtime-crash" and (got[0] is None or got[0] >= 0):
            return False
        if klass == "asan-error" and b"AddressSanitizer" not in got[2]:
            return False
        if klass == "timeout" and got[0] is not None:
            return False
        ref = native_reference(cpc_src, d)
        if ref is None:
            return False
        k, detail = run.compare((ref[0], ref[1], b"", 0.05), got)
        if k != klass:
            return False
        if klass in ("runtime-crash", "asan-error"):
            return sig is None or run.signature({"class": k, "detail": detail}) == sig
        return True
    finally:
        shutil.rmtree(d, ignore_errors=True)


# ---------------------------------------------------------------------------------------
# Our own reducer (fallback when creduce is missing)
# ---------------------------------------------------------------------------------------

def ddmin_lines(lines, test, deadline):
    n = 2
    while len(lines) >= 2 and time.monotonic() < deadline:
        chunk = max(1, len(lines) // n)
        removed = False
        i = 0
        while i < len(lines) and time.monotonic() < deadline:
            cand = lines[:i] + lines[i + chunk:]
            if cand and test(cand):
                lines = cand
                removed = True
            else:
                i += chunk
        if not removed:
            if chunk == 1:
                break
            n = min(len(lines), n * 2)
    return lines


def top_level_items(lines):
    """Group lines into top-level items (a function, a declaration, a directive)."""
    items, cur, depth = [], [], 0
    for line in lines:
        cur.append(line)
        stripped = re.sub(r'"(\\.|[^"\\])*"|\'(\\.|[^\'\\])*\'', "", line)
        depth += stripped.count("{") - stripped.count("}")
        st = line.strip()
        if depth == 0 and (st.endswith((";", "}")) or st.startswith("#") or st == ""
                           or st.endswith("*/")):
            items.append(cur)
            cur = []
    if cur:
        items.append(cur)
    return items


def own_reduce(path, test, deadline):
    """Delta debugging: top-level items first, then lines.  The prologue (up to the last
    #include) and the CPC driver at the end are kept."""
    lines = open(path).read().splitlines(keepends=True)
    last_inc = max([i for i, l in enumerate(lines) if l.startswith("#include")] or [-1])
    drv = next((i for i, l in enumerate(lines) if "--- CPC driver" in l), len(lines))
    head, mid, tail = lines[:last_inc + 1], lines[last_inc + 1:drv], lines[drv:]

    def write(ls):
        with open(path, "w") as f:
            f.writelines(head + ls + tail)

    def t_items(its):
        write([l for it in its for l in it])
        return test(path)

    items = ddmin_lines(top_level_items(mid), t_items, deadline)
    mid = [l for it in items for l in it]

    def t_lines(ls):
        write(ls)
        return test(path)

    mid = ddmin_lines(mid, t_lines, deadline)
    write(mid)


# ---------------------------------------------------------------------------------------

def reduce_file(src, klass, level, sig, out_dir, name, timeout, log=print):
    work = os.path.join(out_dir, "work-" + name)
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    target = os.path.join(work, "prog.c")     # .c so that creduce's C passes apply
    shutil.copy(src, target)
    sigfile = os.path.join(work, "signature")
    with open(sigfile, "w") as f:
        f.write(sig or "")
    if not interesting(klass, level, sig or None, target):
        log("reduce: %s: the failure does not reproduce in isolation; kept unreduced" % name)
        return None
    script = os.path.join(work, "interesting.sh")
    with open(script, "w") as f:
        f.write("#!/bin/sh\nexec %s %s --check %s %s %s prog.c\n" % (
            sys.executable, os.path.abspath(__file__), klass, level, sigfile))
    os.chmod(script, 0o755)
    t0 = time.monotonic()
    deadline = t0 + timeout
    # Fast first stage of our own (whole functions, then lines), then C-Reduce if any.
    test = lambda p: interesting(klass, level, sig or None, p)
    own_reduce(target, test, t0 + timeout * 0.5)
    stage1 = target + ".stage1"
    shutil.copy(target, stage1)
    log("reduce: %s: %d -> %d lines by delta debugging in %.0fs" % (
        name, sum(1 for _ in open(src)), sum(1 for _ in open(target)), time.monotonic() - t0))
    creduce = shutil.which("creduce")
    timeout = max(30, int(deadline - time.monotonic()))
    if creduce:
        env = dict(os.environ, CPATH=run.RUNTIME_INC)
        rc, out, err, secs = run.sh([creduce, "--n", "2", "--timeout", "60", "--tidy",
                                     script, target], cwd=work, timeout=timeout)
        if rc is None:
            log("reduce: %s: creduce stopped after %ds (keeping the best so far)" %
                (name, timeout))
    if not interesting(klass, level, sig or None, target):
        log("reduce: %s: C-Reduce's result no longer fails; keeping the first stage's" % name)
        shutil.copy(stage1, target)
    log("reduce: %s: %d -> %d lines in %.0fs" % (
        name, sum(1 for _ in open(src)), sum(1 for _ in open(target)), time.monotonic() - t0))
    return target


def store_regression(reduced, klass, level, name, origin):
    """Write regressions/NAME.{cpc,expected,status}; expected output from the native build."""
    os.makedirs(run.REGRESSIONS, exist_ok=True)
    body = open(reduced).read()
    head = ("/* cpcsmith-regression: levels=%s class=%s origin=%s\n"
            "   Reduced from a Csmith program; expected output from the native build "
            "(cc -DCPC_NATIVE). */\n" % (level, klass, origin))
    dst = os.path.join(run.REGRESSIONS, name + ".cpc")
    with open(dst, "w") as f:
        f.write(head + body)
    d = tempfile.mkdtemp(prefix="cpcreg-")
    try:
        ref = native_reference(dst, d)
    finally:
        shutil.rmtree(d, ignore_errors=True)
    if ref is None:
        os.unlink(dst)
        return None
    with open(os.path.join(run.REGRESSIONS, name + ".expected"), "wb") as f:
        f.write(ref[1])
    with open(os.path.join(run.REGRESSIONS, name + ".status"), "w") as f:
        f.write("%d\n" % ref[0])
    return dst


def reduce_failures(failed, workdir, max_count, timeout, signature):
    """From run.py fuzz: reduce one failure per signature, at most max_count."""
    seen = set()
    existing = set(os.listdir(run.REGRESSIONS)) if os.path.isdir(run.REGRESSIONS) else set()
    done = 0
    for r in sorted(failed, key=lambda r: str(r["seed"])):
        if done >= max_count:
            break
        sig = signature(r)
        if sig in seen or r["class"] == "harness" or not r.get("dir"):
            continue
        seen.add(sig)
        src = os.path.join(r["dir"], "prog.cpc")
        if not os.path.exists(src):
            continue
        name = "%s-s%s%s" % (r["class"], r["seed"], r["level"].replace("-", "-"))
        if name + ".cpc" in existing:
            continue
        print("reduce: %s (%s)" % (name, sig), flush=True)
        reduced = reduce_file(src, r["class"], r["level"],
                              sig if r["class"] not in ("wrong-output", "timeout") else "",
                              os.path.join(workdir, "reduce"), name, timeout)
        if reduced:
            dst = store_regression(reduced, r["class"], r["level"], name,
                                   "csmith seed %s" % r["seed"])
            print("reduce: stored %s" % dst if dst else
                  "reduce: %s: the reduced program has no clean native reference" % name)
        done += 1


def store_handwritten(src, name):
    """Store a hand-minimised program (already headed with its cpcsmith-regression line)."""
    os.makedirs(run.REGRESSIONS, exist_ok=True)
    dst = os.path.join(run.REGRESSIONS, name + ".cpc")
    if os.path.abspath(src) != dst:
        shutil.copy(src, dst)
    d = tempfile.mkdtemp(prefix="cpcreg-")
    try:
        ref = native_reference(dst, d)
    finally:
        shutil.rmtree(d, ignore_errors=True)
    if ref is None:
        raise SystemExit("reduce: %s has no clean native reference (UB or no build)" % src)
    with open(os.path.join(run.REGRESSIONS, name + ".expected"), "wb") as f:
        f.write(ref[1])
    with open(os.path.join(run.REGRESSIONS, name + ".status"), "w") as f:
        f.write("%d\n" % ref[0])
    print("reduce: stored %s (status %d)" % (dst, ref[0]))


def main():
    if len(sys.argv) > 1 and sys.argv[1] == "--store":
        # reduce.py --store FILE.cpc NAME: keep a hand-written reproducer as a regression
        store_handwritten(sys.argv[2], sys.argv[3])
        return
    if len(sys.argv) > 1 and sys.argv[1] == "--check":
        klass, level, sigfile, src = sys.argv[2:6]
        sig = open(sigfile).read().strip() or None
        sys.exit(0 if interesting(klass, level, sig, src) else 1)
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("file")
    ap.add_argument("--class", dest="klass", required=True, choices=run.CLASSES)
    ap.add_argument("--level", default="-O1")
    ap.add_argument("--signature", default="",
                    help="signature to preserve (default: computed from a first build)")
    ap.add_argument("--name")
    ap.add_argument("--timeout", type=int, default=900)
    ap.add_argument("--store", action="store_true", help="store in regressions/")
    a = ap.parse_args()
    sig = a.signature
    if not sig and a.klass not in ("wrong-output", "timeout"):
        d = tempfile.mkdtemp(prefix="cpcsig-")
        exe, k, detail = run.build_cpc(os.path.abspath(a.file), a.level, d)
        if exe is None:
            sig = run.signature({"class": k, "detail": detail})
        else:
            k, detail = run.compare((0, b"", b"", 0), run.run_exe(exe, 10, a.level))
            if k in ("runtime-crash", "asan-error"):
                sig = run.signature({"class": k, "detail": detail})
        shutil.rmtree(d, ignore_errors=True)
        print("reduce: signature: %s" % sig)
    name = a.name or os.path.splitext(os.path.basename(a.file))[0] + "-reduced"
    out = reduce_file(os.path.abspath(a.file), a.klass, a.level, sig,
                      os.path.join(run.TOP, "build", "reduce"), name, a.timeout)
    if out and a.store:
        print(store_regression(out, a.klass, a.level, name, a.file))
    elif out:
        print(out)


if __name__ == "__main__":
    main()
