"""spawn: spawned statements are outlined into cps functions.
Its exact results on characteristic cases: expected/spawn/ (test_pass_outputs.py)."""
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


def test_check_finds_a_spawned_block_before_outlining():
    u, ctx = before('spawn', 'cps void g(int);\nint main(void) {\n  int x = 1;\n'
                    '  cpc_spawn { g(x); }\n  return 0;\n}\n')
    assert check('spawn', u, ctx) == [
        'a spawned statement of `main` is not a call of a cps function with spawn-pure arguments']
