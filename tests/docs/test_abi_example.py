"""docs/abi.md's example: its "Generated C" is what cpcc emits for its
"Source", token for token, less what the page says it leaves out (the
`#line` directives, the `CPC_CPS_FN` attribute and the preamble that
defines it, the `__func__` macros around a cps function's code, the
`#include` of the runtime, and the tables of resume lines and dead
variables that the gdb extension reads), its layout and comments being the
page's own."""
import os
import re
import subprocess

from cpc import clex

TOP = os.path.abspath(os.path.join(os.path.dirname(__file__), '..', '..'))
DOC = os.path.join(TOP, 'docs', 'abi.md')
LEFT_OUT_LINE_RE = re.compile(
    r'^(#line .*|#(define|undef) (__func__|__FUNCTION__|__PRETTY_FUNCTION__)\b.*'
    r'|#include <cpc/cpc_runtime.h>'
    r'|static const (unsigned|char \*const|char) \w+__(lines|dead|dead_vars)\[\d*\] .*)$', re.M)


def section(text, title):
    m = re.search(r'^## %s\n\n```c\n(.*?)```\n' % re.escape(title), text, re.S | re.M)
    assert m, 'docs/abi.md has no "%s" block' % title
    return m.group(1)


def tokens(c_text):
    return [t.text.decode() for t in clex.tokens(c_text.encode())]


def emitted(source, tmp_path):
    src = tmp_path / 'count.cpc'
    src.write_text('#include <cpc/cpc_runtime.h>\n' + source)
    r = subprocess.run([os.path.join(TOP, 'bin', 'cpcc'), '--cpc-emit-c', str(src)],
                       capture_output=True, text=True, cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    out = r.stdout[r.stdout.index('#endif\n#endif\n') + len('#endif\n#endif\n'):]  # the preamble
    return [t for t in tokens(LEFT_OUT_LINE_RE.sub('', out)) if t != 'CPC_CPS_FN']


def test_the_generated_c_shown_is_what_cpcc_emits_for_the_source(tmp_path):
    with open(DOC) as f:
        text = f.read()
    shown = tokens(section(text, 'Generated C'))
    assert shown == emitted(section(text, 'Source'), tmp_path)
