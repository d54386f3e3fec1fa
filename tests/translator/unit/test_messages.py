"""cpcc's messages in the user's terms (messages.py): gcc's messages on the
generated C name the user's functions, at the column of what they are about
in the user's line, which they quote; the translator's own errors quote the
line too.  Each test compiles a small program with bin/cpcc."""
import os
import subprocess

TOP = os.path.abspath(os.path.join(os.path.dirname(__file__), '..', '..', '..'))
CPCC = os.path.join(TOP, 'bin', 'cpcc')

SENDER = '''#include <cpc/cpc_runtime.h>

static cps int send_message_h(int fd, const char *msg)
{
    cpc_yield();
    return fd + (msg != 0);
}

cps void server(int fd)
{
    int r = send_message_h(fd, 42);
    (void)r;
}

int main(void) { cpc_spawn server(1); cpc_main_loop(); return 0; }
'''


def compile_messages(tmp_path, text, *flags):
    src = tmp_path / 'prog.cpc'
    src.write_text(text)
    r = subprocess.run([CPCC, '-Wall', *flags, '-c', '-o', str(tmp_path / 'prog.o'), 'prog.cpc'],
                       cwd=tmp_path, capture_output=True, text=True)
    return r.stderr


def test_a_warning_on_a_cps_call_names_the_users_function_and_argument(tmp_path):
    err = compile_messages(tmp_path, SENDER)
    lines = err.splitlines()
    assert "prog.cpc: In function ‘server’:" in lines, err
    i = lines.index('prog.cpc:11:32: warning: passing argument 2 of ‘send_message_h’ makes '
                    'pointer from integer without a cast [-Wint-conversion]')
    assert lines[i + 1:i + 3] == ['   11 |     int r = send_message_h(fd, 42);',
                                  '      |                                ^~'], err
    assert '__' not in err, err


def test_the_expected_note_points_at_the_users_parameter(tmp_path):
    lines = compile_messages(tmp_path, SENDER).splitlines()
    i = lines.index("prog.cpc:3:39: note: expected ‘const char *’ but argument is of type ‘int’")
    assert lines[i + 1:i + 3] == [
        '    3 | static cps int send_message_h(int fd, const char *msg)',
        '      |                                       ^~~~~~~~~~~~~~~']


def test_a_warning_on_a_rewritten_line_has_the_column_of_the_name(tmp_path):
    err = compile_messages(tmp_path, SENDER.replace('(void)r;', 'int idle; (void)r;'))
    assert 'prog.cpc:12:9: warning: unused variable ‘idle’ [-Wunused-variable]' in err, err


def test_a_translator_error_quotes_the_line(tmp_path):
    err = compile_messages(tmp_path, SENDER.replace('send_message_h(fd, 42)',
                                                    'send_message_h(fd)'))
    assert err.splitlines()[:3] == [
        'prog.cpc:11:30: error: too few arguments to function call, expected 2, have 1',
        '   11 |     int r = send_message_h(fd);',
        '      |                              ^'], err


def gcc_messages(tmp_path, text):
    src = tmp_path / 'prog.c'
    src.write_text(text)
    r = subprocess.run(['gcc', '-Wall', '-c', '-o', str(tmp_path / 'native.o'), 'prog.c'],
                       cwd=tmp_path, capture_output=True, text=True)
    return r.stderr


def message_at(err, head):
    """The message that starts with head, and the two lines of its quote."""
    lines = err.splitlines()
    i = [k for k, ln in enumerate(lines) if ln.startswith(head)]
    assert i, err
    return lines[i[0]:i[0] + 3]


def test_a_tab_indented_line_has_gccs_column_and_quote(tmp_path):
    # gcc counts columns with tabs expanded to its tab stop of 8, and
    # quotes the line so expanded: cpcc's message is the one gcc prints
    # for the same line of C
    cpc = SENDER.replace('    int r', '\t int r').replace(
        'int main(void) {', 'int main(void) {\n\t int idle;\n')
    err = compile_messages(tmp_path, cpc)
    native = gcc_messages(tmp_path, cpc.replace('#include <cpc/cpc_runtime.h>', '')
                          .replace('cps ', '').replace('cpc_yield();', '')
                          .replace('cpc_spawn server(1); cpc_main_loop();', 'server(1);'))
    for head in ('prog.cpc:11:', 'prog.cpc:16:'):
        assert message_at(err, head) == \
            [ln.replace('prog.c:', 'prog.cpc:', 1)
             for ln in message_at(native, head.replace('.cpc', '.c'))], (err, native)


def test_a_translator_error_on_a_tab_indented_line_counts_as_gcc_does(tmp_path):
    # Clang's column counts bytes; the message gives the column gcc would
    # (the tab to the next multiple of 8), under the line gcc would quote
    err = compile_messages(tmp_path, SENDER.replace('    int r = send_message_h(fd, 42)',
                                                    '\t int r = send_message_h(fd)'))
    assert err.splitlines()[:3] == [
        'prog.cpc:11:35: error: too few arguments to function call, expected 2, have 1',
        '   11 |          int r = send_message_h(fd);',
        '      |                                   ^'], err


def test_messages_on_a_generated_file_that_cannot_be_read_are_still_relayed(tmp_path):
    from cpc import messages
    src = tmp_path / 'prog.cpc'
    src.write_text('int f(void)\n{\n    return zz;\n}\n')
    gcc = '%s:3:12: error: ‘zz’ undeclared' % src
    out = messages.relayed(gcc, [str(src)], str(tmp_path / 'missing.c')).splitlines()
    assert out == ['%s:3:12: error: ‘zz’ undeclared' % src,
                   '    3 |     return zz;',
                   '      |            ^~'], out


def test_the_expected_note_of_a_cps_function_declared_in_a_header_points_at_the_header(
        tmp_path):
    (tmp_path / 'sender.h').write_text('#include <cpc/cpc_runtime.h>\n\n'
                                       'cps int send_message_h(int fd, const char *msg);\n')
    prog = SENDER.replace('static cps int send_message_h(int fd, const char *msg)\n{\n'
                          '    cpc_yield();\n    return fd + (msg != 0);\n}\n',
                          '#include "sender.h"\n')
    assert '#include "sender.h"' in prog
    lines = compile_messages(tmp_path, prog).splitlines()
    notes = [ln for ln in lines if ': note: expected' in ln]
    assert notes and all(n.startswith('sender.h:3:') for n in notes), lines
    i = lines.index(notes[0])
    assert lines[i + 1] == '    3 | cps int send_message_h(int fd, const char *msg);', lines


def test_the_expected_note_on_a_parameter_on_a_later_line_of_the_declaration_points_at_it(
        tmp_path):
    # gcc's note is on the parameter's own line, not the declaration's first
    (tmp_path / 'sender.h').write_text('#include <cpc/cpc_runtime.h>\n\n'
                                       'cps int send_message_h(int fd,\n'
                                       '                       const char *msg);\n')
    prog = SENDER.replace('static cps int send_message_h(int fd, const char *msg)\n{\n'
                          '    cpc_yield();\n    return fd + (msg != 0);\n}\n',
                          '#include "sender.h"\n')
    lines = compile_messages(tmp_path, prog).splitlines()
    notes = [ln for ln in lines if ': note: expected' in ln]
    assert notes and all(n.startswith('sender.h:4:24: ') for n in notes), lines
    i = lines.index(notes[0])
    assert lines[i + 1:i + 3] == ['    4 |                        const char *msg);',
                                  '      |                        ^~~~~~~~~~~~~~~'], lines
