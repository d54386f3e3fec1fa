"""The gdb extension's `info breakpoints` table made from gdb's `maint info
breakpoints` (tools/gdb/cpcgdb/bp_table.py), without gdb, on tables as gdb
13 prints them."""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__)))), 'tools', 'gdb'))
from cpcgdb.bp_table import FIRST_PASS, user_breakpoint_table, without_first_pass  # noqa: E402

HEAD = 'Num     Type           Disp Enb Address            What\n'
MAINT = HEAD + (
    '1       breakpoint     keep y   0x0000555555558750 in walk at chunked.cpc:13 inf 1\n'
    '1.1                         y   0x0000555555558750 in walk at chunked.cpc:13 inf 1\n'
    '2       breakpoint     keep y   0x00005555555584e8 in walk__body_2 at chunked.cpc:100 inf 1\n'
    '2.1                         y   0x00005555555584e8 in walk__body_2 at chunked.cpc:100 inf 1\n'
    '-1      shlib events   keep y   0x00007ffff7fcc060 <__GI__dl_debug_state> inf 1\n'
    '-1.1                        y   0x00007ffff7fcc060 <__GI__dl_debug_state> inf 1\n'
    '-2      longjmp master keep n   0x00007ffff7e0fda0 <__libc_siglongjmp> inf 1\n'
    '-2.1                        y-  0x00007ffff7e0fda0 <__libc_siglongjmp> inf 1\n')


def user_name(name):
    """(as the extension's user_name: F__body_K and the like -> F)"""
    return name.split('__')[0]


def test_the_table_lists_the_users_breakpoints_under_the_cps_functions_names():
    assert user_breakpoint_table(MAINT, None, True, user_name) == HEAD + (
        '1       breakpoint     keep y   0x0000555555558750 in walk at chunked.cpc:13\n'
        '2       breakpoint     keep y   0x00005555555584e8 in walk at chunked.cpc:100\n')


def test_the_locations_inferior_is_kept_when_there_are_several():
    out = user_breakpoint_table(MAINT, None, False, user_name)
    assert out.splitlines()[1].endswith('chunked.cpc:13 inf 1'), out


def test_only_the_wanted_breakpoints_are_listed():
    out = user_breakpoint_table(MAINT, {2}, True, user_name)
    assert out.splitlines()[1:] == [
        '2       breakpoint     keep y   0x00005555555584e8 in walk at chunked.cpc:100']


def test_no_wanted_breakpoint_gives_no_table():
    assert user_breakpoint_table(MAINT, {7}, True, user_name) is None
    assert user_breakpoint_table(HEAD, None, True, user_name) is None


def test_a_breakpoint_of_several_locations_keeps_their_rows():
    maint = HEAD + (
        '3       breakpoint     keep y   <MULTIPLE>                         inf 1\n'
        '3.1                         y   0x0000555555558750 in walk at chunked.cpc:13 inf 1\n'
        '3.2                         n   0x0000555555558900 in walk__resume_2 at chunked.cpc:13'
        ' inf 1\n')
    assert user_breakpoint_table(maint, None, True, user_name).splitlines()[1:] == [
        '3       breakpoint     keep y   <MULTIPLE>                        ',
        '3.1                         y   0x0000555555558750 in walk at chunked.cpc:13',
        '3.2                         n   0x0000555555558900 in walk at chunked.cpc:13']


def test_the_type_column_is_as_wide_as_the_types_listed():
    # (gdb widens it for an internal breakpoint's type)
    wide = ('Num     Type                  Disp Enb Address            What\n'
            '1       breakpoint            keep y   0x0000555555558750 in walk at x.cpc:3 inf 1\n'
            '1.1                                y   0x0000555555558750 in walk at x.cpc:3 inf 1\n'
            '-9      std::terminate master keep n   0x00007ffff7e0fda0 <_ZSt9terminatev> inf 1\n')
    assert user_breakpoint_table(wide, None, True, user_name) == HEAD + \
        '1       breakpoint     keep y   0x0000555555558750 in walk at x.cpc:3\n'


def test_the_extensions_condition_alone_is_not_shown():
    assert without_first_pass('\tstop only if %s\n' % FIRST_PASS) == ''


def test_a_users_condition_is_shown_without_the_extensions():
    assert without_first_pass('\tstop only if (n > 1) && %s\n' % FIRST_PASS) == \
        '\tstop only if n > 1\n'


def test_other_rows_are_left_alone():
    row = '\tbreakpoint already hit 2 times\n'
    assert without_first_pass(row) == row
    assert without_first_pass('\tstop only if n > 1\n') == '\tstop only if n > 1\n'
