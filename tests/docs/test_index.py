"""docs/README.md, the index: it lists every document of docs/ and every
suite of `make test`, and each document that shows what a program prints
names the test that checks it."""
import os
import re
import subprocess

TOP = os.path.abspath(os.path.join(os.path.dirname(__file__), '..', '..'))
DOCS = os.path.join(TOP, 'docs')
FENCE_RE = re.compile(r'^```[^\n]*\n(.*?)^```', re.S | re.M)
PROMPTS = ('$ ', '(gdb) ')


def index():
    with open(os.path.join(DOCS, 'README.md')) as f:
        return f.read()


def document_rows():
    """{document path relative to docs/: its 'checked by' cell}."""
    rows = {}
    for line in index().split('## The suites')[0].splitlines():
        cells = [c.strip() for c in line.strip().strip('|').split('|')]
        if len(cells) == 3:
            for target in re.findall(r'\]\(([^)]+)\)', cells[0]):
                rows[os.path.normpath(target)] = cells[2]
    return rows


def make_test_suites():
    """TEST_SUITES as make itself has it (fragments outside tests/, such as
    bench/bench.mk, add suites too)."""
    out = subprocess.run(['make', '--no-print-directory', '-s', '-C', TOP,
                          '--eval=print-test-suites: ; @echo $(TEST_SUITES)',
                          'print-test-suites'],
                         capture_output=True, text=True, check=True).stdout
    return out.split()


def shows_output(path):
    """A fenced block where a command line (`$ `, `(gdb) `) is followed by
    a line of output."""
    with open(path) as f:
        text = f.read()
    for block in FENCE_RE.findall(text):
        lines = block.splitlines()
        for a, b in zip(lines, lines[1:]):
            if a.startswith(PROMPTS) and not b.startswith(PROMPTS):
                return True
    return False


def test_every_document_of_docs_is_listed():
    listed = set(document_rows())
    docs = {f for f in os.listdir(DOCS) if f.endswith('.md') and f != 'README.md'}
    docs |= {os.path.join('man', f) for f in os.listdir(os.path.join(DOCS, 'man'))}
    assert docs - listed == set()


def test_every_listed_document_exists():
    for target in document_rows():
        assert os.path.exists(os.path.join(DOCS, target)), target


def test_the_suites_listed_are_those_of_make_test():
    m = re.search(r'<!-- suites: begin -->\n(.*?)<!-- suites: end -->', index(), re.S)
    assert m, 'docs/README.md has no suites table'
    listed = re.findall(r'^\| `(test-[\w-]+)` \|', m.group(1), re.M)
    assert listed == make_test_suites()


def test_each_test_named_by_the_index_exists_and_reads_its_document():
    for target, cell in document_rows().items():
        for test in re.findall(r'`(tests/\S+\.py)`', cell):
            with open(os.path.join(TOP, test)) as f:
                assert os.path.basename(target) in f.read(), (target, test)


def test_a_document_that_shows_a_programs_output_names_its_test():
    for target, cell in document_rows().items():
        path = os.path.normpath(os.path.join(DOCS, target))
        if path.endswith('.md') and shows_output(path):
            assert re.search(r'`tests/\S+\.py`', cell), target
