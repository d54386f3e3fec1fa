"""spawn: spawned statements are outlined into cps functions."""
import pytest

from helpers import (before, check, stage,
                     without_line_directives)


def test_spawn_of_block_is_outlined_with_free_locals_as_parameters():
    out = without_line_directives(stage('spawn', 'cps void g(int);\nint main(void) { int x = 1, y = 2; '
                                        'cpc_spawn { g(x); g(y); } return 0; }\n'))
    assert out == ('cps void g(int);\n/* the statement spawned at t.cpc:3 */\n'
                   'static cps void main__spawn_1(int x, int y)\n{\n'
                   '                                             { g(x); g(y); } }\n'
                   'int main(void) { int x = 1, y = 2; cpc_spawn main__spawn_1(x, y); return 0; }\n')


def test_spawn_of_call_with_pure_arguments_is_not_outlined():
    src = 'cps void g(int);\nint main(void) { int x = 1; cpc_spawn g(x + 1); return 0; }\n'
    assert stage('spawn', src) == src


def test_spawn_of_call_with_cps_argument_runs_it_in_the_thread():
    out = without_line_directives(stage('spawn', 'cps int h(int);\ncps void g(int);\n'
                                        'int main(void) { int x = 1; cpc_spawn g(h(x)); return 0; }\n'))
    assert 'static cps void main__spawn_1(int x)\n{\n                                      g(h(x)); }\n' in out
    assert 'int main(void) { int x = 1; cpc_spawn main__spawn_1(x); return 0; }\n' in out


def test_return_in_spawned_statement_ends_the_thread():
    out = stage('spawn', 'int main(void) { int x = 1; cpc_spawn { if (x) return 3; } return 0; }\n')
    assert '\n                                      { if (x) { (void)(3); return; } } }\n' in out


def test_nested_spawns_are_outlined_one_level_per_round():
    out = stage('spawn', 'cps void g(int);\nint main(void) { int x = 1; '
                'cpc_spawn { cpc_spawn { g(x); g(x); } } return 0; }\n')
    assert 'static cps void main__spawn_1__spawn_1(int x)' in out
    assert 'cpc_spawn main__spawn_1__spawn_1(x);' in out


def test_check_finds_a_spawned_block_before_outlining():
    u, ctx = before('spawn', 'cps void g(int);\nint main(void) {\n  int x = 1;\n'
                    '  cpc_spawn { g(x); }\n  return 0;\n}\n')
    assert check('spawn', u, ctx) == [
        'a spawned statement of `main` is not a call of a cps function with spawn-pure arguments']


def test_spawned_statement_declares_again_the_local_typedefs_and_enums_it_uses():
    out = stage('spawn', 'int main(void) { typedef long T; enum { A = 4 }; '
                'cpc_spawn { T x = A; (void)x; } return 0; }\n')
    assert ('static cps void main__spawn_1(void)\n{\n'
            'typedef long T __attribute__((unused));\nenum { A = 4 };\n') in out, out



def test_a_free_variable_written_before_it_is_read_is_the_new_functions_own():
    out = without_line_directives(stage('spawn', 'cps void g(int);\nint main(void) { int i, n = 3; '
                                        'cpc_spawn for (i = 0; i < n; i++) g(i); return 0; }\n'))
    assert 'static cps void main__spawn_1(int n)\n{\nint i;\n' in out, out
    assert '{ (void)i; cpc_spawn main__spawn_1(n); }' in out, out
