"""docs/debugging.md's gdb sessions are what gdb prints today.

Each session in the page is a fenced block of `(gdb) COMMAND` lines and
their output, after a comment naming the program of this directory and its
cpcc flags:

    <!-- session: lines -O0 -->

The test runs the commands in gdb (batch mode) on that program and compares
its output with the block, both with addresses, process and OS thread
numbers, times, the runtime's own line numbers and the checkout's path made
neutral (CPC thread numbers and the lines of lib/ are compared).
`CPC_UPDATE_DOCS=1 make test-debug` writes what gdb printed into the page
where it differs, and those sessions fail ("updated") until the next run.
"""
import os
import re

import pytest

from test_gdb import HERE, TOP, build, gdb, normalise

DOC = os.path.join(TOP, 'docs', 'debugging.md')
SESSION_RE = re.compile(r'<!-- session: (\S+)((?: \S+)*) -->\n\n```\n(.*?)```\n', re.S)
# what gdb prints that depends on the machine, not on CPC
NOISE_RE = re.compile(r'^(\[Thread debugging using libthread_db enabled\]|Using host libthread_db'
                      r'|Starting program: |\[New Thread |\[Thread 0x.* exited\]|\[Inferior 1 '
                      r'|Kill the program being debugged\?|warning: Error disabling address '
                      r'space randomization'
                      # (a session's command file: a command's error ends it, so an
                      # error is its last command's, as typed at a terminal)
                      r'|\S+\.gdb:\d+: Error in sourced command file:$)')


def sessions():
    with open(DOC) as f:
        text = f.read()
    return text, list(SESSION_RE.finditer(text))


def run_session(name, flags, block):
    commands = [ln[len('(gdb) '):] for ln in block.splitlines() if ln.startswith('(gdb) ')]
    script = ''.join('echo (gdb) %s\\n\n%s\n' % (c.replace('\\', '\\\\'), c) for c in commands)
    out = gdb(build(name, *flags), script=script + 'kill\n')
    out = re.sub(r'^Thread (\d+) "[^"]*" hit', r'Thread \1 "%s" hit' % name[:15], out,
                 flags=re.M)           # (the program's name, not its build's)
    lines = [ln.rstrip() for ln in out.replace(HERE + '/', '').replace(TOP, 'CPC').splitlines()
             if not NOISE_RE.match(ln)]
    while lines and lines[-1] == '':
        lines.pop()
    return '\n'.join(lines) + '\n'


def neutral(text):
    """normalise() (addresses, LWPs, OS thread numbers), and what moves
    with the machine or the runtime: times, and the lines of the runtime's
    own sources (frames below the user's code).  CPC thread numbers and the
    lines of the user's code and of lib/ are compared."""
    text = normalise(text)
    text = re.sub(r'\d+\.\d+ s (left|\))', r'T s \1', text)
    text = re.sub(r'timeout in \d+\.\d+ s', 'timeout in T s', text)
    text = re.sub(r'(CPC/runtime/[\w/.-]+):\d+', r'\1:N', text)
    return text


def session_ids():
    return ['%d-%s' % (i, m.group(1)) for i, m in enumerate(sessions()[1])]


@pytest.mark.parametrize('index', range(len(sessions()[1])), ids=session_ids())
def test_the_session_in_debugging_md_is_what_gdb_prints(index):
    text, found = sessions()
    m = found[index]
    got = run_session(m.group(1), m.group(2).split(), m.group(3))
    check_or_update(DOC, index, got, bool(os.environ.get('CPC_UPDATE_DOCS')))


class SessionUpdated(AssertionError):
    """A session of the page was rewritten: the test did not pass."""


def check_or_update(doc, index, got, update):
    """Session `index` of `doc` shows `got` (what gdb printed), up to what
    neutral() makes neutral; with `update`, a session that differs is
    rewritten and the test fails with SessionUpdated, so that an update
    never counts as a pass."""
    with open(doc) as f:
        text = f.read()
    m = list(SESSION_RE.finditer(text))[index]     # (an earlier session may have changed it)
    if neutral(got) == neutral(m.group(3)):
        return
    if update:
        with open(doc, 'w') as f:
            f.write(text[:m.start(3)] + got + text[m.end(3):])
        raise SessionUpdated('session %d of %s updated (read the diff, then run again without '
                             'CPC_UPDATE_DOCS)' % (index, doc))
    assert neutral(got) == neutral(m.group(3)), got


PAGE = 'Intro.\n\n<!-- session: lines -O0 -->\n\n```\n(gdb) print 1\n$1 = 1\n```\n'


def test_a_session_that_differs_fails_and_the_page_is_left_as_it_is(tmp_path):
    doc = tmp_path / 'page.md'
    doc.write_text(PAGE)
    with pytest.raises(AssertionError) as e:
        check_or_update(str(doc), 0, '(gdb) print 1\n$1 = 2\n', update=False)
    assert not isinstance(e.value, SessionUpdated)
    assert doc.read_text() == PAGE


def test_updating_a_session_that_differs_rewrites_it_and_fails(tmp_path):
    doc = tmp_path / 'page.md'
    doc.write_text(PAGE)
    with pytest.raises(SessionUpdated):
        check_or_update(str(doc), 0, '(gdb) print 1\n$1 = 2\n', update=True)
    assert doc.read_text() == PAGE.replace('$1 = 1', '$1 = 2')
    check_or_update(str(doc), 0, '(gdb) print 1\n$1 = 2\n', update=False)


def test_updating_a_session_that_holds_passes_and_writes_nothing(tmp_path):
    doc = tmp_path / 'page.md'
    doc.write_text(PAGE)
    check_or_update(str(doc), 0, '(gdb) print 1\n$1 = 1\n', update=True)
    assert doc.read_text() == PAGE


def test_every_session_names_its_program():
    text, found = sessions()
    blocks = re.findall(r'```\n\(gdb\) ', text)
    assert len(found) == len(blocks) and found, 'a gdb session without `<!-- session: -->`'


def test_neutral_keeps_what_the_user_sees():
    """CPC thread numbers and the lines of lib/ frames are compared; the OS
    threads, addresses, times and the runtime's own lines are not."""
    listing = ('  CPC thread %d (0x%x): running (thread %d, LWP %d)\n'
               '    #0  timeout_sleeper (t=0x%x) at CPC/lib/timeout.cpc:%d\n'
               '#3  sched_loop (s=0x%x) at CPC/runtime/cpc_sched.c:%d\n'
               'driven by OS thread %d (LWP %d): %d.%03d s left\n')
    base = (3, 0x1000, 1, 100, 0x2000, 103, 0x3000, 809, 1, 100, 9, 988)
    varied = (3, 0x1100, 2, 200, 0x2100, 103, 0x3100, 810, 2, 200, 8, 123)
    assert neutral(listing % base) == neutral(listing % varied)
    other_cpc_thread = (4,) + base[1:]
    assert neutral(listing % base) != neutral(listing % other_cpc_thread)
    other_lib_line = base[:5] + (104,) + base[6:]
    assert neutral(listing % base) != neutral(listing % other_lib_line)
