"""The layout of the translator, of cpc-check and of the gdb extension:
small modules, classes of one job, each pass in the module of its name with
its own test file."""
import ast
import glob
import os

from cpc import pipeline

TOP = os.path.abspath(os.path.join(os.path.dirname(__file__), '..', '..', '..'))
PACKAGE = os.path.join(TOP, 'translator', 'cpc')
UNIT = os.path.dirname(os.path.abspath(__file__))
MAX_MODULE_LINES = 700
MAX_CLASS_LINES = 400


def sources():
    """The translator's modules, cpc-check's and the gdb extension's (the
    script gdb loads and its package), relative to the checkout."""
    paths = glob.glob(os.path.join(PACKAGE, '**', '*.py'), recursive=True) + \
        glob.glob(os.path.join(TOP, 'tools', 'cpc_check*.py')) + \
        glob.glob(os.path.join(TOP, 'tools', 'gdb', '**', '*.py'), recursive=True)
    return sorted(os.path.relpath(p, TOP) for p in paths)


def module_lines(path):
    with open(os.path.join(TOP, path)) as f:
        return f.read().count('\n')


def class_lengths(path):
    """[(class name, lines)] of every class defined in the module, nested ones too."""
    with open(os.path.join(TOP, path)) as f:
        tree = ast.parse(f.read())
    return [(c.name, c.end_lineno - c.lineno + 1) for c in ast.walk(tree)
            if isinstance(c, ast.ClassDef)]


def test_the_layout_checks_see_the_translator_the_checker_and_the_gdb_extension():
    found = sources()
    for path in ('translator/cpc/pipeline.py', 'translator/cpc/analysis/cfg.py',
                 'translator/cpc/emit/cpsconv.py', 'tools/cpc_check.py',
                 'tools/gdb/cpc-gdb.py', 'tools/gdb/cpcgdb/threads.py'):
        assert path in found


def test_no_module_is_over_700_lines():
    long = [(p, n) for p in sources() for n in [module_lines(p)] if n > MAX_MODULE_LINES]
    assert long == []


def test_no_class_is_over_400_lines():
    long = [(p, name, n) for p in sources() for name, n in class_lengths(p)
            if n > MAX_CLASS_LINES]
    assert long == []


def test_class_lengths_count_every_line_of_a_class(tmp_path):
    path = tmp_path / 'm.py'
    path.write_text('class A:\n    x = 1\n\n    def f(self):\n        return 2\n\n\ny = 3\n')
    assert class_lengths(str(path)) == [('A', 5)]


def test_each_pass_lives_in_the_module_of_its_name():
    for s in pipeline.PRE_PARSE:
        assert s.run.__module__ == 'cpc.' + s.name
    for p in pipeline.PASSES:
        assert p.module == p.name + '.py', p.name
        assert os.path.isfile(os.path.join(PACKAGE, p.module)), p.module
    assert pipeline.EMIT.module == 'emit/'
    assert os.path.isdir(os.path.join(PACKAGE, 'emit'))


def test_each_pass_has_its_test_file():
    names = [s.name for s in pipeline.PRE_PARSE] + [p.name for p in pipeline.PASSES] + ['emit']
    missing = [n for n in names if not os.path.isfile(os.path.join(UNIT, 'test_%s.py' % n))]
    assert missing == []


def test_each_module_of_the_translator_has_its_test_file():
    modules = [os.path.splitext(os.path.basename(p))[0]
               for p in glob.glob(os.path.join(PACKAGE, '**', '*.py'), recursive=True)]
    missing = sorted(m for m in modules
                     if m != '__init__' and not os.path.isfile(os.path.join(UNIT, 'test_%s.py' % m)))
    assert missing == []


def test_module_names_are_unique_in_the_translator():
    """(so that each test file names one module)"""
    names = [os.path.basename(p) for p in glob.glob(os.path.join(PACKAGE, '**', '*.py'),
                                                    recursive=True)]
    assert sorted(n for n in set(names) if names.count(n) > 1) == ['__init__.py']
