"""reprint: functions re-printed from their macro-expanded form."""
from cpc import reprint


def test_clang_atomics_become_gcc_builtins_on_the_plain_type():
    assert reprint.gcc_atomics('x = __c11_atomic_fetch_add(&a, 3, 5);') == \
        'x = __atomic_fetch_add((__typeof__((void)0, *(&a)) *)(&a), 3, 5);'


def test_compare_exchange_gets_gcc_weak_flag():
    assert reprint.gcc_atomics('__c11_atomic_compare_exchange_weak(p, &e, f(1, 2), 5, 2)') == \
        '__atomic_compare_exchange_n((__typeof__((void)0, *(p)) *)(p), &e, f(1, 2), 1, 5, 2)'


def test_nested_atomics_and_fences():
    assert reprint.gcc_atomics('__c11_atomic_store(p, __c11_atomic_load(q, 2), 3); '
                               '__c11_atomic_thread_fence(5);') == \
        ('__atomic_store_n((__typeof__((void)0, *(p)) *)(p), '
         '__atomic_load_n((__typeof__((void)0, *(q)) *)(q), 2), 3); '
         '__atomic_thread_fence(5);')


def test_text_without_atomics_is_unchanged():
    text = 'int f(void) {\n    return g(__c11_atomic_x);\n}'
    assert reprint.gcc_atomics(text) == text


def test_clang_atomic_flag_operations_become_gcc_flag_builtins():
    # Clang's atomic_flag is a struct with an atomic_bool `_Value`; gcc's
    # has no such member and takes the flag itself
    assert reprint.gcc_atomics('int was = __c11_atomic_exchange(&(&fl)->_Value, 1, 5);') == \
        'int was = __atomic_test_and_set((&fl), 5);'
    assert reprint.gcc_atomics('__c11_atomic_store(&(p)->_Value, 0, 3);') == \
        '__atomic_clear((p), 3);'


def test_alignment_specifiers_go_back_in_front_of_their_declaration():
    assert reprint.alignas_first('    char x _Alignas(long), y _Alignas(long);') == \
        '    _Alignas(long) char x, y;'
    # Clang leaves the argument out after the first declarator
    assert reprint.alignas_first('    char x _Alignas(32), y _Alignas();') == \
        '    _Alignas(32) char x, y;'


def test_alignment_specifiers_inside_a_statement_expression_stay_in_it():
    assert reprint.alignas_first('s = f(({ int *p _Alignas(sizeof(int [2])); g(&p); }));') == \
        's = f(({ _Alignas(sizeof(int [2])) int *p; g(&p); }));'


def test_a_line_without_alignment_specifiers_is_unchanged():
    line = '    x = _Alignof(long) + sizeof(char);'
    assert reprint.alignas_first(line) == line


def test_keywords_take_the_spellings_every_c_mode_reads():
    assert reprint.portable_spellings('typeof (y) z = y; asm volatile ("" : "=r" (y));\n'
                                      '    static_assert(1, "one");') == \
        '__typeof__ (y) z = y; __asm__ volatile ("" : "=r" (y));\n' \
        '    _Static_assert(1, "one");'


def test_calls_and_strings_named_like_keywords_are_kept():
    text = 'x = typeof(y) + asm(1) + static_assert(2); s = "typeof (y) asm (";'
    assert reprint.portable_spellings(text) == text


def test_pragmas_of_a_rendered_function_go_before_the_item_that_follows_them():
    from helpers import stage
    # (a cps call in a macro: the function is rendered)
    src = ('#define YIELD() cpc_yield()\ncps int f(void) {\n    int n = 1;\n'
           '#pragma pack(push, 1)\n    struct s { char a; int b; } v = { 1, 2 };\n'
           '#pragma pack(pop)\n    YIELD();\n    return v.b + n;\n'
           '#pragma GCC diagnostic pop\n}\n')
    out = stage('macros', src)
    lines = [ln for ln in out.split('\n') if not ln.startswith('#line')]
    body = lines[[i for i, ln in enumerate(lines) if ln.endswith('f(void) {')][0] + 1:]
    assert body[:5] == ['    int n = 1;', '#pragma pack(push, 1)', '    struct s {',
                        '        char a;', '        int b;'], body
    assert body[6:9] == ['#pragma pack(pop)', '    cpc_yield();',
                         '    return v.b + n;'], body
    assert body[9:11] == ['#pragma GCC diagnostic pop', '}'], body


def test_pragma_operators_of_a_rendered_function_become_pragma_lines():
    from helpers import stage
    src = ('#define YIELD() cpc_yield()\ncps int f(void) {\n'
           '    _Pragma("GCC diagnostic ignored \\"-Wunused\\"") int n = 1;\n'
           '    YIELD();\n    return n;\n}\n')
    out = stage('macros', src)
    lines = [ln for ln in out.split('\n') if not ln.startswith('#line')]
    i = lines.index('#pragma GCC diagnostic ignored "-Wunused"')
    assert lines[i + 1] == '    int n = 1;', lines


def test_attributes_clang_ignores_are_written_back_on_a_rendered_function():
    from helpers import stage
    src = ('#define YIELD() cpc_yield()\n__attribute__((optimize("wrapv"), cold)) '
           'cps int f(int x) {\n    YIELD();\n    return x + 1 > x;\n}\n')
    out = stage('macros', src)
    head = [ln for ln in out.split('\n') if 'f(int x) {' in ln][0]
    assert head.startswith('__attribute__((optimize ( "wrapv" ))) '), head


def test_the_broken_vector_attribute_of_later_declarators_goes():
    line = ('    __attribute__((__vector_size__(4 * sizeof(float)))) float f1, '
            '__attribute__((__vector_size__(4 * sizeof()))) f2;')
    assert reprint.vector_declarators(line) == \
        '    __attribute__((__vector_size__(4 * sizeof(float)))) float f1, f2;'


def test_macro_names_inside_literals_are_not_shielded():
    from helpers import stage
    # (a cps call in a macro: the function is rendered; W and cps are
    # macros, written only inside a string and a character constant)
    src = ('#define YIELD() cpc_yield()\n#define W 3\nint printf(const char *, ...);\n'
           'cps int f(int x) {\n    printf("cps: W\\n");\n    x = \'W\';\n'
           '    YIELD();\n    return x;\n}\n')
    out = stage('macros', src)
    assert 'cps int f(int x)' not in out and 'printf("cps: W\\n");' in out, out
    assert 'push_macro' not in out and '#undef' not in out, out


def source_line_of(out, k):
    """The line of the source that #line directives give line k of out."""
    n = None
    for ln in out[:k]:
        if ln.startswith('#line '):
            n = int(ln.split()[1])
        elif n is not None:
            n += 1
    return n


def test_braces_in_a_string_do_not_shift_the_lines_of_block_ends():
    from helpers import HDR, stage
    src = ('#define YIELD() cpc_yield()\nint printf(const char *, ...);\n'
           'cps int f(int x) {\n    if (x) {\n        printf("{{{\\n");\n'
           '        x = 2;\n    }\n    YIELD();\n    return x;\n}\n')
    out = stage('macros', src).split('\n')
    end = [i for i, ln in enumerate(out) if ln == '    }']
    assert len(end) == 1, out
    closing = (HDR + src).split('\n').index('    }') + 1
    assert source_line_of(out, end[0]) == closing, out
