"""The gdb extension's decoding of the translator's tables of dead
variables (tools/gdb/cpcgdb/decode.py), without gdb: the texts the
translator writes (translator/cpc/emit/dead_table.py) read back."""
import os
import random
import sys

TOP = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path[:0] = [os.path.join(TOP, 'tools', 'gdb'), os.path.join(TOP, 'translator')]

from cpc.emit import dead_table                        # noqa: E402
from cpcgdb.decode import dead_items, unset_names     # noqa: E402


def test_a_whole_set_is_read_as_written():
    assert dead_items(['', '0 3 5'], 1) == [0, 3, 5]


def test_an_empty_entry_is_the_empty_set_even_after_a_full_one():
    assert dead_items(['', '1 2', ''], 2) == []


def test_changes_apply_to_the_last_whole_set_before_them():
    texts = ['', '1 4', '+2 -4', '=', '-1 +7']
    assert [dead_items(texts, n) for n in range(5)] == [[], [1, 4], [1, 2], [1, 2], [2, 7]]


def test_an_entry_of_changes_at_the_start_changes_the_empty_set_of_entry_0():
    assert dead_items(['', '+3', '+1 -3'], 2) == [1]


def test_the_translators_entries_decode_to_its_sets():
    rnd = random.Random(35)
    for _ in range(200):
        sets = [rnd.getrandbits(rnd.choice((3, 8, 20))) for _ in range(rnd.randrange(1, 12))]
        texts = [''] + dead_table.entries(sets)
        for n, m in enumerate(sets, 1):
            assert dead_items(texts, n) == [b for b in range(m.bit_length()) if m >> b & 1], \
                (sets, texts, n)


def test_a_variable_not_set_since_the_resume_holds_no_value():
    assert unset_names(['x@30', 'y@12'], resumed=20, here=25) == {'x', 'y'}


def test_a_variable_set_between_the_resume_and_here_holds_its_value():
    assert unset_names(['x@22', 'y@25', 'z@20'], resumed=20, here=25) == {'y'}


def test_after_a_loop_went_round_lines_after_the_resume_or_before_here_count():
    # (resumed on line 20, now on line 12 of the loop's next round)
    assert unset_names(['a@25', 'b@5', 'c@15', 'd@12'], resumed=20, here=12) == {'c', 'd'}


def test_a_variable_of_several_setting_lines_holds_a_value_if_any_was_passed():
    assert unset_names(['x@10,40,23'], resumed=20, here=30) == set()
    assert unset_names(['x@10,40'], resumed=20, here=30) == {'x'}


def test_a_variable_no_statement_sets_stays_without_value():
    assert unset_names(['p@'], resumed=3, here=9) == {'p'}
