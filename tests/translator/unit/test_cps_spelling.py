"""cps_spelling: `__attribute__((cps))` masked to `cps` in the file and in
the user headers it includes."""
import os

from cpc import cps_spelling


def write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, 'wb') as fh:
        fh.write(text)


def test_mask_keeps_length_and_line_breaks():
    src = b'int __attribute__((\ncps)) f(void);'
    out = cps_spelling.mask(src)
    assert out == b'int cps' + b' ' * 17 + b'\n f(void);'
    assert len(out) == len(src)


def test_mask_reads_the_reserved_spelling():
    assert cps_spelling.mask(b'__attribute__((__cps__))') == b'cps' + b' ' * 21


def test_header_found_through_include_dir_is_masked(tmp_path):
    inc = str(tmp_path / 'include')
    write(os.path.join(inc, 'block', 'co.h'), b'#define coroutine_fn __attribute__((cps))\n')
    main = b'#include "block/co.h"\nint x;\n'
    out = cps_spelling.unsaved_headers(main, str(tmp_path / 'main.c'), ['-I', inc])
    assert out == [(os.path.join(inc, 'block', 'co.h'),
                    b'#define coroutine_fn cps                 \n')]


def test_header_included_by_a_header_is_followed(tmp_path):
    write(str(tmp_path / 'a.h'), b'#include "sub/b.h"\n')
    write(str(tmp_path / 'sub' / 'b.h'), b'#include <c.h>\n')
    write(str(tmp_path / 'inc' / 'c.h'), b'void __attribute__((cps)) g(void);\n')
    out = cps_spelling.unsaved_headers(b'#include "a.h"\n', str(tmp_path / 'm.c'),
                                       ['-I' + str(tmp_path / 'inc')])
    assert [p for p, _ in out] == [str(tmp_path / 'inc' / 'c.h')]


def test_headers_without_the_spelling_are_not_unsaved(tmp_path):
    write(str(tmp_path / 'plain.h'), b'int cps_count;\n')
    assert cps_spelling.unsaved_headers(b'#include "plain.h"\n', str(tmp_path / 'm.c'), []) == []


def test_forced_include_is_read(tmp_path):
    write(str(tmp_path / 'pre.h'), b'#define co __attribute__((cps))\n')
    out = cps_spelling.unsaved_headers(b'int x;\n', str(tmp_path / 'm.c'),
                                       ['-include', str(tmp_path / 'pre.h')])
    assert [p for p, _ in out] == [str(tmp_path / 'pre.h')]
