"""headers: headers that define cps functions are inlined.
Its exact results on characteristic cases: expected/headers/ (test_pass_outputs.py), and
the C of such a program: expected/emit/cps_definition_in_a_header_is_translated_with_the_file."""
import pytest

from cpc import frontend as fe
from cpc import pipeline
from helpers import HDR, apply, before, check, stage


def test_header_cps_definition_inlined_in_place_of_include(tmp_path):
    (tmp_path / 'h.h').write_text('#pragma once\nstatic cps void helper(void) { cpc_yield(); }\n')
    src = '#include "h.h"\n#include "h.h"\ncps void f(void) { helper(); }\n'
    out = stage('headers', src, path=str(tmp_path / 't.cpc'))
    h, t = tmp_path / 'h.h', tmp_path / 't.cpc'
    assert out == ('#line 1 "%s"\n/* #pragma once (inlined by cpcc) */\n'
                   'static cps void helper(void) { cpc_yield(); }\n#line 2 "%s"\n\n'
                   '/* #include "h.h": inlined above by cpcc */\n'
                   'cps void f(void) { helper(); }\n' % (h, t))


def test_header_cps_definition_from_command_line_is_an_error(tmp_path):
    (tmp_path / 'h.h').write_text(HDR + 'static cps void helper(void) { cpc_yield(); }\n')
    with pytest.raises(fe.Diags) as e:
        stage('headers', 'cps void f(void) { helper(); }\n', path=str(tmp_path / 't.cpc'),
              args=['-include', str(tmp_path / 'h.h')])
    msg = e.value.diags[0].format()
    assert 'helper' in msg and 'h.h' in msg and 'command line' in msg


def test_check_names_a_cps_definition_left_in_a_header(tmp_path):
    (tmp_path / 'h.h').write_text('static cps void helper(void) { cpc_yield(); }\n')
    u, ctx = before('headers', '#include "h.h"\ncps void f(void) { helper(); }\n',
                    path=str(tmp_path / 't.cpc'))
    msgs = [d.format() for d in pipeline.find('headers').check(u, ctx)]
    assert len(msgs) == 1 and '`helper` is still defined in a header' in msgs[0]
    assert msgs[0].startswith('%s:1:' % (tmp_path / 'h.h'))
    assert check('headers', apply('headers', u, ctx), ctx) == []
