"""The texts of the translator's tables of dead variables decoded
(translator/cpc/emit/dead_table.py writes them): pure functions, no gdb,
so that tests/debug/test_decode.py runs them on their own.

F__dead_vars is one string of items `NAME@LINES` (LINES: the source lines
that set the variable, comma-separated); F__dead[N], for each resume point
N, lists the numbers of the items dead across that point's call: as a whole
set (`0 3 5`), or as its changes from entry N-1 (`+K -K`, `=` for none).
Entry 0 is not a resume point's (the empty set)."""


def dead_items(texts, n):
    """The numbers of the items in entry n of a table whose entries are
    `texts` (texts[0], entry 0, is ''), sorted: from the last whole set at
    or before entry n, with the changes after it applied."""
    start = n
    while texts[start] == '=' or texts[start][:1] in ('+', '-'):
        start -= 1
    cur = {int(tok) for tok in texts[start].split()}
    for text in texts[start + 1:n + 1]:
        for tok in text.split():
            if tok[0] == '+':
                cur.add(int(tok[1:]))
            elif tok[0] == '-':
                cur.discard(int(tok[1:]))
    return sorted(cur)


def unset_names(items, resumed, here):
    """The names of the items `NAME@LINES` (dead across the call a thread
    resumed from, on line `resumed`) that hold no value on line `here`:
    no line that sets one was passed since the resume.  When `here` follows
    the resume's line, the lines passed are those between them; when it
    comes before (a loop went round), those after the resume or before
    `here`."""
    out = set()
    for item in items:
        name, _, sets = item.partition('@')
        at = [int(x) for x in sets.split(',') if x]
        if here >= resumed:
            live = any(resumed <= a < here for a in at)
        else:
            live = any(a >= resumed or a < here for a in at)
        if not live:
            out.add(name)
    return out
