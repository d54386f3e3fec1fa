"""gdb's breakpoint table (`maint info breakpoints`) rewritten as `info
breakpoints` shows it in the user's terms (info_breakpoints.py): pure
functions on its text, no gdb, so that tests/debug/test_bp_table.py runs
them on their own."""

import re

# the condition the extension adds to a user's breakpoint on a cps
# function's entry F__cps (entry_breakpoints.py)
FIRST_PASS = '$_cpc_first_pass()'
_BP_ROW_RE = re.compile(r'^(\d+(?:\.\d+)?\s.*? in )(\S+)( at )', re.M)


def user_breakpoint_table(text, wanted, one_inferior, rename):
    """gdb's `info breakpoints` table from its `maint info breakpoints`
    table `text`, for breakpoint numbers `wanted` (None: all), in the
    user's terms: the function names of its rows mapped with `rename`."""
    rows = []
    keep = multiple = True
    for line in text.splitlines(True):
        m = re.match(r'(-?\d+)(\.\d+)?\s', line)
        if m and m.group(2) is None:              # a breakpoint's row
            n = int(m.group(1))
            keep = n > 0 and (wanted is None or n in wanted)
            multiple = '<MULTIPLE>' in line
        elif m and not multiple:                  # its single location
            continue
        if keep:
            line = without_first_pass(line)
            if line:
                rows.append(re.sub(r' inf 1(?=\n|$)', '', line) if one_inferior else line)
    if not rows or not rows[0].startswith('Num ') or len(rows) == 1:
        return None
    # the Type column as wide as the longest type it lists (gdb widens it
    # for the internal breakpoints' types too)
    head = rows[0]
    col, disp = head.index('Type'), head.index('Disp')
    types = [x[col:disp].strip() for x in rows[1:] if re.match(r'\d+\s', x)]
    cut = disp - 1 - max([14] + [len(t) for t in types]) - col
    if cut > 0:
        rows = [x[:disp - cut] + x[disp:] if not x.startswith('\t') and
                x[disp - cut:disp].strip() == '' else x for x in rows]
    return _BP_ROW_RE.sub(lambda m: m.group(1) + rename(m.group(2)) + m.group(3),
                          ''.join(rows))


def without_first_pass(line):
    """A row of gdb's table without the condition the extension adds to a
    breakpoint on an entry (FIRST_PASS): the row is dropped when
    that was the whole condition, and the user's own is kept."""
    m = re.match(r'(\s+stop only if )(.*?)(\n?)$', line)
    if not m or FIRST_PASS not in m.group(2):
        return line
    cond = m.group(2)
    if cond == FIRST_PASS:
        return ''
    user = cond[:-len(' && ' + FIRST_PASS)] if cond.endswith(' && ' + FIRST_PASS) else cond
    if user.startswith('(') and user.endswith(')'):
        user = user[1:-1]
    return m.group(1) + user + m.group(3)
