"""cpsify: C programs written elsewhere made CPC programs."""
import os
import subprocess
import sys

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import cpsify  # noqa: E402

TOP = os.path.dirname(os.path.dirname(HERE))
CPCC = os.path.join(TOP, 'bin', 'cpcc')


def test_defined_functions_become_cps_and_library_ones_stay_native():
    out = cpsify.transform(b'int printf(const char *, ...);\nextern void abort(void);\n'
                           b'static int twice(int x) { return 2 * x; }\n'
                           b'int main(void) { if (twice(2) != 4) abort(); return 0; }\n')
    assert b'extern void abort(void);' in out
    assert b'static cps int twice(int x)' in out
    assert b'static cps int cpsify_main(void)' in out


def test_variadic_functions_and_their_callees_stay_native():
    out = cpsify.transform(b'int leaf(int x) { return x; }\n'
                           b'int sum(int n, ...) { return leaf(n); }\n'
                           b'int main(void) { return sum(1, 2) - 1; }\n')
    assert b'\nint leaf(int x)' in out and b'\nint sum(int n, ...)' in out


def test_implicit_int_main_falls_off_its_end_with_status_zero():
    out = cpsify.transform(b'f(x) { return x; }\nmain() { f(1); }\n')
    assert b'static cps int cpsify_main() { f(1);  return 0; }' in out
    assert b'cps f(x)' in out


def test_main_with_arguments_gets_as_many_as_it_declares():
    out = cpsify.transform(b'int main(int argc, char **argv) { return argc - 1; }\n')
    assert b'cpsify_main(cpsify_argc, cpsify_argv);' in out
    assert b'int main(int argc, char **argv, char **envp)\n{' in out
    out = cpsify.transform(b'int main(int level) { return level - 1; }\n')
    assert b'cpsify_main(cpsify_argc);' in out


def test_main_parameters_are_counted_by_the_parser_not_by_commas():
    # siod: a directive in the parameter list, with a parenthesis of its own
    out = cpsify.transform(b'int main(int argc, char **argv\n#if defined(__linux__)\n'
                           b', char **env\n#endif\n) { return argc - 1; }\n')
    assert b'cpsify_main(cpsify_argc, cpsify_argv, cpsify_envp);' in out


def test_an_address_taken_in_a_macro_argument_beside_a_call_stays_native():
    # Burg: `debug(flag, foreachList((ListFn) dump, ops))`; the reference and the callee
    # share the invocation's place, which must not make the reference a call
    out = cpsify.transform(b'#define debug(a, b) if (a) b\n'
                           b'typedef void (*fn)(int);\n'
                           b'void each(fn f, int n) { while (n--) f(n); }\n'
                           b'void dump(int x) { }\n'
                           b'int main(void) { debug(1, each((fn) dump, 2)); return 0; }\n')
    assert b'\nvoid dump(int x)' in out


def test_an_extern_declaration_of_main_declares_the_static_function_that_replaces_it():
    out = cpsify.transform(b'extern int main(int argc, char **argv);\n'
                           b'int main(int argc, char **argv) { return argc - 1; }\n')
    assert b'/* extern */ static cps int cpsify_main(int argc, char **argv);' in out


def test_specifiers_out_of_a_macro_take_cps_before_the_name():
    out = cpsify.transform(b'#define REAL float\n#define inline static\n'
                           b'REAL half(REAL x);\n'
                           b'REAL half(REAL x) { return x / 2; }\n'
                           b'inline int one(void) { return 1; }\n'
                           b'int main(void) { return half(2) != one(); }\n')
    assert out.count(b'#define REAL float\n#define inline static\n') == 1
    assert b'REAL cps half(REAL x);' in out
    assert b'REAL cps half(REAL x) {' in out
    assert b'inline int cps one(void) {' in out


def test_a_pointer_result_out_of_a_macro_stays_native():
    out = cpsify.transform(b'#define T char\nT *id(T *p) { return p; }\n'
                           b'int main(void) { return *id("") ; }\n')
    assert b'\nT *id(T *p) {' in out
    assert b'static cps int cpsify_main(void)' in out


def test_a_function_a_header_declares_too_stays_native():
    out = cpsify.transform(b'#include <stdlib.h>\n'
                           b'static unsigned long next = 1;\n'
                           b'int rand(void) { return (int)(next = next * 3 + 1) & 0x7fff; }\n'
                           b'int main(void) { return rand() != 4; }\n')
    assert b'\nint rand(void) {' in out


def test_constructors_and_destructors_stay_native():
    out = cpsify.transform(b'static int n;\n'
                           b'static void __attribute__((constructor)) up(void) { n++; }\n'
                           b'static int get(void) { return n; }\n'
                           b'int main(void) { return get() != 1; }\n')
    assert b'static void __attribute__((constructor)) up(void)' in out
    assert b'static cps int get(void)' in out


def test_cleanup_functions_stay_native():
    out = cpsify.transform(b'static void done$(int *p) { *p = 0; }\n'
                           b'int main(void) { int x __attribute__((__cleanup__(done$))) = 1;'
                           b' return x - 1; }\n')
    assert b'\nstatic void done$(int *p)' in out


def test_a_program_that_calls_main_is_refused():
    with pytest.raises(cpsify.CpsifyError, match='main is used'):
        cpsify.transform(b'int n;\nint main(void) { return n++ < 2 ? main() : 0; }\n')


def test_the_cpc_program_prints_what_the_c_program_prints(tmp_path):
    src = (b'#include <stdio.h>\n'
           b'struct p { int a, b; };\n'
           b'static int fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }\n'
           b'int main(int argc, char **argv) {\n'
           b'    struct p v;\n'
           b'    v.a = fib(10);\n'
           b'    v.b = fib(argc + 5);\n'
           b'    printf("%d %d %s\\n", v.a, v.b, argv[1]);\n'
           b'}\n')
    prog = tmp_path / 'p.cpc'
    prog.write_bytes(cpsify.transform(src))
    exe = tmp_path / 'p'
    subprocess.run([CPCC, '-w', '-o', str(exe), str(prog)], check=True)
    r = subprocess.run([str(exe), 'arg'], capture_output=True, timeout=30)
    assert (r.returncode, r.stdout) == (0, b'55 13 arg\n')


def program(tmp_path, files):
    """Write a program's files under tmp_path; transform_program's arguments for it."""
    root = str(tmp_path)
    for name, text in files.items():
        (tmp_path / name).write_bytes(text)
    sources = {os.path.join(root, n): t for n, t in files.items() if n.endswith('.c')}
    return sources, lambda p: os.path.abspath(p).startswith(root + os.sep), ['-I', root]


def test_a_program_of_several_files_gets_cps_in_its_own_header(tmp_path):
    sources, own, args = program(tmp_path, {
        'lib.h': b'int twice(int x);\n',
        'lib.c': b'#include "lib.h"\nint twice(int x) { return 2 * x; }\n',
        'main.c': b'#include <stdlib.h>\n#include "lib.h"\n'
                  b'int main(void) { return twice(2) != 4; }\n'})
    out = cpsify.transform_program(sources, own, args)
    assert out[str(tmp_path / 'lib.h')] == b'cps int twice(int x);\n'
    assert b'cps int twice(int x) {' in out[str(tmp_path / 'lib.c')]
    assert b'cpsify_main' in out[str(tmp_path / 'main.c')]
    assert b'cpsify_main' not in out[str(tmp_path / 'lib.c')]


def test_a_function_another_file_calls_undeclared_stays_native(tmp_path):
    sources, own, args = program(tmp_path, {
        'lib.c': b'int leaf(int x) { return x; }\nint twice(int x) { return 2 * leaf(x); }\n',
        'main.c': b'int main(void) { return twice(2) != 4; }\n'})
    out = cpsify.transform_program(sources, own, args)
    assert b'\nint twice(int x)' in out[str(tmp_path / 'lib.c')]
    assert b'\nint leaf(int x)' in out[str(tmp_path / 'lib.c')]


def test_a_function_whose_address_one_file_takes_stays_native_in_all(tmp_path):
    sources, own, args = program(tmp_path, {
        'lib.h': b'int one(void);\n',
        'lib.c': b'#include "lib.h"\nint one(void) { return 1; }\n',
        'main.c': b'#include "lib.h"\nint (*p)(void) = one;\n'
                  b'int main(void) { return one() - p(); }\n'})
    out = cpsify.transform_program(sources, own, args)
    assert out.get(str(tmp_path / 'lib.h'), b'int one(void);\n') == b'int one(void);\n'
    assert b'cps' not in out[str(tmp_path / 'lib.c')].split(b'\n', 1)[1]


def test_a_program_of_several_files_builds_and_runs(tmp_path):
    sources, own, args = program(tmp_path, {
        'lib.h': b'int sum(int n);\n',
        'lib.c': b'#include "lib.h"\nint sum(int n) { return n ? n + sum(n - 1) : 0; }\n',
        'main.c': b'#include <stdio.h>\n#include "lib.h"\n'
                  b'int main(void) { printf("%d\\n", sum(10)); return 0; }\n'})
    for path, text in cpsify.transform_program(sources, own, args).items():
        with open(path, 'wb') as f:
            f.write(text)
    exe = str(tmp_path / 'prog')
    subprocess.run([CPCC, '-o', exe, '-x', 'cpc'] + sorted(sources), check=True)
    assert subprocess.run([exe], capture_output=True).stdout == b'55\n'


def test_a_function_a_header_declares_out_of_a_macro_stays_native(tmp_path):
    header = b'#define EXTERN(t) extern t\nEXTERN(char *) name(void);\nint twice(int x);\n'
    sources, own, args = program(tmp_path, {
        'lib.h': header,
        'lib.c': b'#include "lib.h"\nchar *name(void) { return "x"; }\n'
                 b'int twice(int x) { return 2 * x; }\n',
        'main.c': b'#include "lib.h"\nint main(void) { return twice(*name()) != 240; }\n'})
    out = cpsify.transform_program(sources, own, args)
    assert out[str(tmp_path / 'lib.h')] == header.replace(b'int twice', b'cps int twice')
    assert b'\nchar *name(void) {' in out[str(tmp_path / 'lib.c')]


def test_a_declaration_out_of_a_macro_of_another_header_stays_native(tmp_path):
    header = b'#include "cfg.h"\nEXTERN(int) twice ARGS((int x));\n'
    sources, own, args = program(tmp_path, {
        'cfg.h': b'#define EXTERN(t) extern t\n#define ARGS(a) a\n',
        'lib.h': header,
        'lib.c': b'#include "lib.h"\nint twice(int x) { return 2 * x; }\n',
        'main.c': b'#include "lib.h"\nint main(void) { return twice(2) != 4; }\n'})
    out = cpsify.transform_program(sources, own, args)
    assert out.get(str(tmp_path / 'lib.h'), header) == header
    assert b'\nint twice(int x) {' in out[str(tmp_path / 'lib.c')]


def test_a_declaration_in_a_body_gets_cps_too():
    out = cpsify.transform(b'int main(void) { int sub(int); return sub(0); }\n'
                           b'int sub(int x) { return x; }\n')
    assert b'{ cps int sub(int);' in out and b'\ncps int sub(int x)' in out


def test_declarators_sharing_specifiers_with_a_library_function_stay_native():
    out = cpsify.transform(b'double sqrt(), half();\n'
                           b'double half(x) double x; { return x / 2; }\n'
                           b'int main(void) { return half(2.0) != 1.0; }\n')
    assert b'\ndouble sqrt(), half();' in out and b'\ndouble half(x)' in out


def test_a_function_declared_after_variables_stays_native():
    out = cpsify.transform(b'int main(void) { int a, *b, next(); a = 1; b = &a; return next() - *b; }\n'
                           b'int next(void) { return 1; }\n')
    assert b'{ int a, *b, next();' in out and b'\nint next(void)' in out


def test_a_function_declared_before_variables_stays_native():
    out = cpsify.transform(b'int f(void), a = 1;\nint f(void) { return a; }\n'
                           b'int main(void) { return f() - 1; }\n')
    assert out.startswith(cpsify.PROLOGUE + b'int f(void), a = 1;\nint f(void) {')


def test_a_function_called_before_any_declaration_stays_native():
    out = cpsify.transform(b'int z(void) { return f(2); }\n'
                           b'int main(void) { return z() != 4; }\n'
                           b'int f(int x) { return 2 * x; }\n')
    assert b'\nint f(int x)' in out and b'cps int z(void)' in out


def test_a_program_with_functions_a_macro_defines_is_refused():
    # (libclang does not show what they call)
    src = (b'int leaf(int x) { return x; }\n#define T(S) \\\nint use##S(int x) { return leaf(x); }\n'
           b'T(A)\nint main(void) { return useA(0); }\n')
    with pytest.raises(cpsify.CpsifyError, match='out of a macro'):
        cpsify.transform(src)
