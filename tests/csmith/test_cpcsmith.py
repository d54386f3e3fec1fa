"""Unit tests of the Csmith-to-CPC transformation (tests/csmith/cpcsmith.py).

Run by `make test-csmith` before the differential run:  .venv/bin/python -m pytest -q tests/csmith
"""
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import cpcsmith  # noqa: E402

PROG = r'''
#include "csmith.h"
static int32_t g_1 = 3;
static int32_t func_1(void);
static int32_t func_2(int32_t p_3);
static int32_t func_4(int32_t p_5);
static int32_t func_6(int32_t p_7);
static int32_t (*g_fp)(int32_t) = &func_4;   /* address taken: func_4 stays native */
static int32_t func_1(void)
{
    int32_t l_8 = 1;
    l_8 = safe_add_func_int32_t_s_s(func_2(l_8), g_fp(2));
    return l_8 + func_6(1);
}
static int32_t func_2(int32_t p_3) { return p_3 * 2; }
static int32_t func_4(int32_t p_5) { return func_6(p_5) + 1; }   /* callee of a native */
static int32_t func_6(int32_t p_7) { return p_7 + g_1; }
int main (void)
{
    int print_hash_value = 0;
    crc32_gentab();
    func_1();
    transparent_crc(g_1, "g_1", print_hash_value);
    platform_main_end(crc32_context ^ 0xFFFFFFFFUL, print_hash_value);
    return 0;
}
'''


def decl_lines(text, name):
    return [l for l in text.splitlines() if re.search(r"\b%s\s*\(" % name, l)
            and re.match(r"\s*static\b", l)]


def test_cps_added_except_address_taken_and_their_callees():
    out, stats = cpcsmith.transform(PROG)
    for f in ("func_1", "func_2"):
        ds = decl_lines(out, f)
        assert len(ds) == 2 and all(" cps " in d for d in ds), ds
    for f in ("func_4", "func_6"):      # func_6 is called by native func_4
        ds = decl_lines(out, f)
        assert ds and all(" cps " not in d for d in ds), ds


def test_main_becomes_a_spawned_cps_function():
    out, _ = cpcsmith.transform(PROG)
    assert "static cps int cpc_csmith_main (void)" in out
    assert re.search(r"int main\(void\)\s*\{\s*cpc_spawn cpc_csmith_run\(\);\s*"
                     r"cpc_main_loop\(\);\s*return cpc_csmith_status;", out)


def test_runtime_is_flattened_pruned_and_cps():
    out, _ = cpcsmith.transform(PROG)
    assert '#include "csmith.h"' not in out
    assert re.search(r"static cps int32_t\s+safe_add_func_int32_t_s_s\(", out)
    assert "safe_mul_func_int64_t_s_s" not in out          # never reached: dropped
    assert re.search(r"static cps void\s+transparent_crc\b", out)


def test_helpers_native_mode():
    out, _ = cpcsmith.transform(PROG, helpers_native=True)
    assert re.search(r"static int32_t\s+safe_add_func_int32_t_s_s\(", out)
    assert all(" cps " in d for d in decl_lines(out, "func_2"))


def test_native_build_of_the_cpc_text_matches_csmith_program():
    out, _ = cpcsmith.transform(PROG)
    with tempfile.TemporaryDirectory() as d:
        a, b = os.path.join(d, "orig.c"), os.path.join(d, "prog.cpc")
        open(a, "w").write(PROG)
        open(b, "w").write(out)
        inc = cpcsmith.csmith_include_dir()
        subprocess.run(["cc", "-w", "-I", inc, "-o", a + ".x", a], check=True)
        subprocess.run(["cc", "-w", "-DCPC_NATIVE", "-x", "c", "-o", b + ".x", b], check=True)
        ra = subprocess.run([a + ".x"], capture_output=True)
        rb = subprocess.run([b + ".x"], capture_output=True)
        assert (ra.returncode, ra.stdout) == (rb.returncode, rb.stdout)
        assert ra.stdout.startswith(b"checksum = ")
