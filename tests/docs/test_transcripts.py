"""The command transcripts of the docs are what the commands print today.

A transcript is a fenced block after the comment `<!-- transcript -->`:
lines `$ COMMAND` (run from the top of the checkout, without a shell),
each followed by what it prints, standard output then standard error.  A
last line `...` shows only the beginning of the output: the lines before it
must begin it.
"""
import os
import re
import shlex
import subprocess

import pytest

TOP = os.path.abspath(os.path.join(os.path.dirname(__file__), '..', '..'))
TRANSCRIPT_RE = re.compile(r'<!-- transcript -->\n```\n(.*?)```\n', re.S)


def docs():
    return sorted(os.path.join(TOP, 'docs', f) for f in os.listdir(os.path.join(TOP, 'docs'))
                  if f.endswith('.md')) + [os.path.join(TOP, 'README.md')]


def commands(block):
    """[(command, [lines it prints], whether they are only its beginning)]."""
    out = []
    for line in block.splitlines():
        if line.startswith('$ '):
            out.append((line[2:], [], False))
        elif line == '...':
            cmd, shown, _ = out[-1]
            out[-1] = (cmd, shown, True)
        else:
            assert out, 'output before the first command: %r' % line
            out[-1][1].append(line)
    return out


def cases():
    for path in docs():
        with open(path) as f:
            text = f.read()
        for m in TRANSCRIPT_RE.finditer(text):
            line = text.count('\n', 0, m.start()) + 1
            for cmd, shown, prefix in commands(m.group(1)):
                yield pytest.param(cmd, shown, prefix,
                                   id='%s:%d:%s' % (os.path.relpath(path, TOP), line, cmd))


@pytest.mark.parametrize('cmd, shown, prefix', list(cases()))
def test_a_transcript_shows_what_its_command_prints(cmd, shown, prefix):
    r = subprocess.run(shlex.split(cmd), cwd=TOP, capture_output=True, text=True, timeout=300)
    printed = (r.stdout + r.stderr).splitlines()
    if prefix:
        printed = printed[:len(shown)]
    assert printed == shown


def test_the_cpc_check_examples_are_transcripts():
    with open(os.path.join(TOP, 'docs', 'cpc-check.md')) as f:
        assert len(TRANSCRIPT_RE.findall(f.read())) == 2
