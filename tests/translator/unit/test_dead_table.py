"""emit/dead_table: the table of dead variables gdb reads (its entries'
form, what they decode to, and its size on large functions)."""
import os
import random
import re
import sys

from cpc.emit import dead_table
from helpers import emit

TOP = os.path.abspath(os.path.join(os.path.dirname(__file__), '..', '..', '..'))
sys.path.insert(0, os.path.join(TOP, 'bench', 'translator'))
import shapes  # noqa: E402  (bench/translator/shapes.py)


def mask(numbers):
    m = 0
    for i in numbers:
        m |= 1 << i
    return m


def table_of(out, fn):
    """(items, entries' texts) of fn's table in the generated C `out`."""
    names = re.search(r'static const char %s__dead_vars\[\] __attribute__\(\(used\)\) = "([^"]*)";'
                      % fn, out)
    arrays = dict(re.findall(r'static const char (%s__dead_\d+)\[\] __attribute__\(\(used\)\) '
                             r'= "([^"]*)";' % fn, out))
    body = re.search(r'static const char \*const %s__dead\[\d+\] __attribute__\(\(used\)\) = '
                     r'\{ "", (.*?) \};' % fn, out)
    texts = [a if b == '' else arrays[b]
             for a, b in re.findall(r'"([^"]*)"|(\w+__dead_\d+)', body.group(1))]
    return names.group(1).split(), texts


def test_entries_decode_to_the_sets_they_were_written_from():
    r = random.Random(7)
    for _ in range(200):
        n = r.randrange(1, 40)
        sets = []
        cur = set()
        for _ in range(r.randrange(1, 30)):
            if r.random() < 0.2:
                cur = {i for i in range(n) if r.random() < 0.5}
            else:
                for _ in range(r.randrange(0, 3)):
                    cur ^= {r.randrange(n)}
            sets.append(set(cur))
        assert dead_table.decode(dead_table.entries([mask(s) for s in sets])) == sets


def test_an_entry_is_the_whole_set_or_its_changes_whichever_is_shorter():
    sets = [mask([0, 1, 2, 3]), mask([1, 2, 3]), mask([1, 2, 3]), mask([5]), 0, mask([2, 4])]
    assert dead_table.entries(sets) == ['0 1 2 3', '-0', '=', '5', '', '2 4']
    assert dead_table.entries([mask(range(10)), mask([0] + list(range(2, 11)))]) == \
        ['0 1 2 3 4 5 6 7 8 9', '-1 +10']


def test_entries_give_the_variables_numbers_when_the_bits_are_numbered_otherwise():
    # bits 4, 9, 2 are variables 0, 1, 2 of the table
    number = {4: 0, 9: 1, 2: 2}
    assert dead_table.entries([mask([9, 2]), mask([9, 2, 4])], number) == ['1 2', '+0']


def test_an_entry_several_resume_points_share_is_written_once():
    sets = [mask(range(30)), 0, mask(range(30)), 0]
    c = dead_table.table('f', ['v%d@' % i for i in range(30)], sets)
    whole = ' '.join(map(str, range(30)))
    assert c.count(whole) == 1, c
    assert 'static const char f__dead_1[] __attribute__((used)) = "%s";' % whole in c, c
    assert c.endswith('f__dead[5] __attribute__((used)) = { "", f__dead_1, "", f__dead_1, "" };')


def test_the_table_lists_each_variable_once_with_the_lines_that_set_it():
    out = emit('cps int square(int v) { cpc_yield(); return v * v; }\n'
               'cps int f(int n) {\n    int a, b, c;\n    a = square(n);\n'
               '    b = square(a);\n    c = square(b);\n    return a + b + c;\n}\n')
    items, texts = table_of(out, 'f')
    assert items == ['n@', 'a@5', 'b@6', 'c@7'], out
    sets = [{items[i] for i in s} for s in dead_table.decode(texts)]
    assert sets == [{'n@', 'a@5', 'b@6', 'c@7'}, {'n@', 'b@6', 'c@7'}, {'n@', 'c@7'}], out


def dead_table_bytes(labels):
    out = emit(shapes.source('gotos', labels).replace('#include <cpc/cpc_runtime.h>\n', ''))
    return sum(len(ln) for ln in out.split('\n') if '__dead' in ln)


def test_the_table_of_a_function_of_many_labels_grows_linearly():
    # (shapes.py gotos: at the resume point after label k, the variables
    # of the labels after it are dead; written whole at each resume point
    # the table grew as the square of the labels)
    small, large = dead_table_bytes(150), dead_table_bytes(600)
    assert large < 6 * small, (small, large)
