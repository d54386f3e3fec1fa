"""rewrite: applying text edits."""
import pytest

from cpc import rewrite as rw


def test_apply_puts_an_insertion_before_a_replacement_that_starts_at_it():
    text = b'{char b[9]; f(b);}'
    edits = [(1, 11, 'struct e *cpc_env;'), (1, 1, 'ALLOC; ')]
    assert rw.apply(text, edits) == b'{ALLOC; struct e *cpc_env; f(b);}'


def test_apply_keeps_insertions_at_one_place_in_the_order_they_were_made():
    assert rw.apply(b'ab', [(1, 1, 'x'), (1, 1, 'y'), (0, 1, 'A')]) == b'Axyb'


def test_apply_rejects_overlapping_replacements():
    with pytest.raises(ValueError, match='overlapping edits at 2'):
        rw.apply(b'abcdef', [(1, 4, 'x'), (2, 5, 'y')])
