"""cpc-check (CoroCheck): static analysis and inference of cooperation
annotations on C and CPC files (SPEC section 4; "QEMU/CPC", section 4: docs/references.md).

Usage: cpc-check [options] FILE... [-- CLANG-ARGS...]

The files are parsed with the translator's Clang front-end (cpc.frontend:
same flags, resource directory, runtime headers, `cps` as a type tag) and
merged into one call graph whose nodes are functions (by USR), indirect
call targets (the callee expression of a call through an annotated
function pointer) and `cpc_spawn` statements (anonymous cooperative
threads).  A function or function pointer is *annotated* (cooperative)
when one of its declarations

  - spells the attribute name before its own name (`cps void f()`,
    `int coroutine_fn f()`, an empty `#define coroutine_fn` included),
  - carries `__attribute__((annotate("NAME")))` (also through a macro), or
  - has a type tagged `btf_type_tag("NAME")` (`cps` is the translator's
    `cpc_cps` tag), directly or through a typedef, which is how calls
    through pointers, struct fields and typedef'd parameters are seen.

The same goes for the blocking attribute.  Checks: missing annotations
(a non-cooperative function calls an annotated one), spurious annotations
(an annotated function that calls no cooperative function and is not a
primitive, an entry point, spawned or stored in a function pointer),
calls to blocking functions from cooperative code, and function pointer
flows (casts, assignments, initialisers, arguments, returns, `?:`) that
add or lose the annotation.  `--infer` computes the least fixed point of
"calls a cooperative function" from the roots (a native function pointer
slot of the program's own is cooperative when a function stored in it is,
and then so are all it holds) and lists the functions that must be
annotated; `--dot` writes the annotated call graph.

Exit status: 0 clean (warnings allowed), 1 errors found (or, with
--infer, annotations to add), 2 usage, input or parse error.

Modules: this one holds the command line and `Checker`, which decides
(inference and checks); the graph it decides on is built by
cpc_check_nodes.py (nodes, annotations), cpc_check_graph.py (calls) and
cpc_check_flow.py (function pointer flows); cpc_check_output.py writes the
`--infer` and `--dot` outputs, cpc_check_fix.py the `--fix` edits, and
cpc_check_report.py holds the diagnostics.
"""
import argparse
import os
import re
import sys

from cpc_check_flow import Flow
from cpc_check_nodes import Edge
from cpc_check_output import Output


class UsageError(Exception):
    pass


# --------------------------------------------------------------------------
# The checker


class Checker(Flow):
    """Decides: which functions must be cooperative (`infer`) and what is
    wrong (`check`), over the graph that Graph and Flow build."""

    def infer(self):
        """Least fixed point: a node is cooperative if it is annotated and
        not analysed here (trusted), a root, or calls a cooperative node.
        A native slot of the program's own (a struct field such as a
        driver table's `close`, a variable, a parameter) is cooperative
        when a function stored in it is, and then so is every function
        stored in it and every caller through it: one field cannot hold
        both kinds."""
        callers = {}
        for n in self.nodes.values():
            for e in n.calls:
                if e.kind == 'call':
                    callers.setdefault(e.dst.key, []).append(e)
        slots_of, stored = self.slot_links()
        work = []
        for n in self.nodes.values():
            if n.kind in ('ptr', 'linked', 'spawn', 'slot'):
                n.inferred = n.coro or n.kind == 'spawn'
            elif not n.local:
                n.inferred = n.coro
            elif n.root in ('primitive', 'entry') or (n.root and n.coro):
                n.inferred = True
            if n.inferred:
                work.append(n)
        while work:
            n = work.pop()
            for e in callers.get(n.key, ()):
                c = e.src
                if c.kind == 'spawn' or c.inferred or not self.may_cooperate(c):
                    continue
                c.inferred = True
                c.why = e
                work.append(c)
            # a function makes the slots it is stored in cooperative; a
            # slot, the functions stored in it
            for s in slots_of.get(n.key, ()):
                if not s.inferred:
                    s.inferred = True
                    s.why = Edge(s, n, n.defn_loc or (None, 0, 0), kind='holds')
                    work.append(s)
            for f in stored.get(n.key, ()):
                if not f.inferred and self.may_cooperate(f):
                    f.inferred = True
                    f.why = Edge(f, n, f.defn_loc or (None, 0, 0), kind='stored')
                    work.append(f)

    def may_cooperate(self, c):
        """Whether inference may make node c cooperative: a function or
        slot analysed here that does not stay native."""
        if c.kind == 'slot':
            return c.slot not in self.native_slots
        return c.local and c.root != 'native' and not (c.native_use and not c.coro)

    def slot_links(self):
        """From the function pointer flows into native slots: {node key:
        [slot nodes it is stored in]} and {slot key: [function nodes and
        slots stored in it]}; a slot copied into another goes both ways
        (the two hold the same functions).  Slots that reach native code
        that cannot change are left out."""
        slots_of, stored = {}, {}
        for src, dst in self.native_flows:
            if dst[0] != 'slot' or dst[1] in self.native_slots:
                continue
            s = self.slot_node_at(dst[1])
            if s is None:
                continue
            if src[0] == 'func':
                v = self.nodes.get(src[1])
            elif src[1] in self.native_slots:
                continue
            else:
                v = self.slot_node_at(src[1])
                if v is not None:       # and the other way
                    slots_of.setdefault(s.key, []).append(v)
                    stored.setdefault(v.key, []).append(s)
            if v is None:
                continue
            slots_of.setdefault(v.key, []).append(s)
            stored.setdefault(s.key, []).append(v)
        return slots_of, stored

    def coop_context(self, n):
        return n.kind == 'spawn' or n.coro or n.inferred

    def check(self):
        R = self.report
        cn, bn = self.coro_name, self.block_name
        for n in sorted(self.nodes.values(), key=lambda x: x.key):
            if n.kind == 'func' and n.local:
                where = n.defn_loc
                if n.coro and n.block:
                    R.add(where, 'error', '`%s` is annotated both %s and %s '
                          '[conflicting-annotation]' % (n.name, cn, bn))
                if n.coro and not n.inferred and not n.uses_cont and \
                        not self.opts.no_spurious:
                    R.add(where, 'warning', '`%s` is annotated %s but calls no %s '
                          'function [spurious-annotation]' % (n.name, cn, cn))
                # a test that only asserts (assert(qemu_in_coroutine())) picks
                # no code path
                hyb = sorted(set(e.dst.name for e in n.calls
                                 if e.dst.kind == 'func' and e.dst.name in self.opts.hybrid
                                 and not e.asserted))
                if hyb:
                    R.add(where, 'warning', '`%s` is a hybrid function (it tests %s): split '
                          'it into a %s and a native version [hybrid-function]' % (
                              n.name, ', '.join('`%s()`' % h for h in hyb), cn))
                if n.inferred and not n.coro and n.why is not None and \
                        not n.why.dst.coro:
                    # not annotated, and calls no annotated function itself
                    # (that call is an error below) but one that must be
                    R.add(where, 'warning', '`%s` must be annotated %s: it %s %s '
                          '[missing-annotation]' % (n.name, cn, self.why_verb(n),
                                                    self.chain_text(n)))
                if n.root == 'entry' and not n.coro:
                    R.add(where, 'error', 'entry point `%s` must be annotated %s '
                          '[missing-annotation]' % (n.name, cn))
                # declarations that disagree (the translator rejects them)
                if n.coro and n.kind == 'func':
                    for (loc, sp, system, ident, d) in n.decl_locs:
                        if not sp and not system and self.user_file(loc[0]) and \
                                n.coro_at is not None and loc != n.coro_at:
                            # the translator rejects these for cps
                            sev = 'error' if 'cps' in self.names['coro'] else 'warning'
                            R.add(loc, sev, 'declaration of `%s` lacks the %s '
                                  'annotation given at %s:%d:%d [inconsistent-annotation]' % (
                                      n.name, cn, n.coro_at[0], n.coro_at[1], n.coro_at[2]))
            for e in n.calls:
                if e.kind != 'call':
                    continue
                d = e.dst
                src_coop = self.coop_context(n)
                if d.coro and not n.coro and n.kind == 'func':
                    e.bad = True
                    if d.kind == 'func':
                        what = '%s function `%s`' % (cn, d.name)
                    elif d.kind == 'linked':
                        what = '`%s` (cps context only)' % d.name
                    else:
                        what = '%s function pointer `%s`' % (cn, d.name)
                    extra = ' (marked %s)' % bn if n.block else ''
                    if n.root == 'native':
                        fix = '`%s` stays native: run the call in a new thread or ' \
                            'coroutine (cpc_spawn)' % n.name
                    elif n.native_use:
                        fix = '`%s` stays native (its address is used as a native ' \
                            'function pointer): run the call in a new thread or ' \
                            'coroutine (cpc_spawn)' % n.name
                    else:
                        fix = 'annotate `%s` with %s' % (n.name, cn)
                    R.add(e.loc, 'error', 'call to %s from non-%s function `%s`%s; '
                          '%s [missing-annotation]' % (what, cn, n.name, extra, fix))
                if d.block and src_coop and not e.detached:
                    e.bad = True
                    what = 'function' if d.kind == 'func' else 'function pointer'
                    if n.kind == 'spawn':
                        frm = 'a cpc_spawn statement in `%s`' % n.owner.name
                    elif n.coro:
                        frm = '%s function `%s`' % (cn, n.name)
                    else:
                        frm = 'function `%s`, which must be %s' % (n.name, cn)
                    R.add(e.loc, 'error', 'call to %s %s `%s` from %s [blocking-call]' % (
                        bn, what, d.name, frm))

    def why_verb(self, n):
        """How n's first step to cooperation reads: it calls a cooperative
        function, or is stored in a slot that holds one."""
        return 'is stored in' if n.why is not None and n.why.kind == 'stored' else 'calls'

    def chain_names(self, n):
        """The calls (and slots) that make n cooperative, up to an
        annotated function."""
        names = []
        seen = set()
        m = n
        while m is not None and m.why is not None and m.key not in seen:
            seen.add(m.key)
            m = m.why.dst
            names.append(m.name)
            if m.coro:
                break
        return names

    def chain_text(self, n):
        """`g`, which must be annotated (it calls `h`, which calls `coro`)."""
        names = self.chain_names(n)
        text = '`%s`, which must be too' % names[0]
        if len(names) > 1:
            text += ' (%s)' % ' -> '.join('`%s`' % x for x in names)
        return text

    def missing(self):
        return sorted((n for n in self.nodes.values()
                       if n.kind == 'func' and n.local and n.inferred and not n.coro),
                      key=lambda n: n.defn_loc)


# --------------------------------------------------------------------------
# Command line


def parse_args(argv):
    if '--' in argv:
        i = argv.index('--')
        argv, clang = argv[:i], argv[i + 1:]
    else:
        clang = []
    p = argparse.ArgumentParser(
        prog='cpc-check',
        description='Check and infer cooperation annotations (cps / coroutine_fn, '
        'blocking_fn) on C and CPC files.',
        epilog='Arguments after `--` go to Clang (-I, -D, -std=...).  Exit status: 0 clean, '
        '1 errors found (with --infer: annotations to add), 2 usage or parse error.')
    p.add_argument('files', nargs='*', metavar='FILE', help='C or CPC source files '
                   '(with -p: the files of the compilation database to analyse; '
                   'default all of them)')
    p.add_argument('-p', dest='build_dir', metavar='BUILD_DIR',
                   help='analyse the project of BUILD_DIR/compile_commands.json, each '
                   'file with its own flags (-I, -D, -U, -include, -std=, ...)')
    p.add_argument('--coroutine-attr', action='append', metavar='NAME',
                   help='name of the cooperative annotation (default: cps; repeatable)')
    p.add_argument('--blocking-attr', action='append', metavar='NAME',
                   help='name of the blocking annotation (default: blocking_fn; repeatable)')
    p.add_argument('--primitive', action='append', default=[], metavar='FUNC',
                   help='a cooperative primitive defined in the files (never spurious)')
    p.add_argument('--entry', action='append', default=[], metavar='FUNC',
                   help='a coroutine entry point: must be annotated')
    p.add_argument('--native', action='append', default=[], metavar='FUNC',
                   help='a function that stays native (inference does not propagate '
                   'through it; `main` always does)')
    # `--infer` alone means notes; `--infer FMT` and `--infer=FMT` choose
    argv = ['--infer=notes' if a == '--infer' and (i + 1 == len(argv) or argv[i + 1] not in
                                                   ('notes', 'list', 'patch')) else a
            for i, a in enumerate(argv)]
    p.add_argument('--hybrid', action='append', metavar='FUNC',
                   help='a function that tests for coroutine context; its callers are '
                   'reported as hybrid (default: qemu_in_coroutine)')
    p.add_argument('--infer', choices=('notes', 'list', 'patch'),
                   help='print the functions that must be annotated (fixed point), '
                   'as notes (default), a list of names or a patch')
    p.add_argument('--fix', action='store_true',
                   help='write the annotations inference decides into the files and their '
                   'user headers (add the missing ones, mend declarations that disagree, '
                   'annotate pointer slots that hold cooperative functions, remove spurious '
                   'ones), again until nothing changes')
    p.add_argument('--dot', metavar='FILE', help='write the annotated call graph '
                   '(Graphviz dot) to FILE (`-` for stdout)')
    p.add_argument('--no-spurious', action='store_true',
                   help='do not warn about spurious annotations')
    p.add_argument('-w', dest='no_warnings', action='store_true', help='no warnings')
    p.add_argument('--werror', action='store_true', help='warnings count as errors')
    p.add_argument('-q', '--quiet', action='store_true',
                   help='no diagnostics (exit status and --infer/--dot output only)')
    p.add_argument('-I', dest='incdirs', action='append', default=[], metavar='DIR')
    p.add_argument('-D', dest='defines', action='append', default=[], metavar='NAME[=VAL]')
    p.add_argument('-U', dest='undefs', action='append', default=[], metavar='NAME')
    o = p.parse_args(argv)
    o.coroutine_attr = o.coroutine_attr or ['cps']
    o.blocking_attr = o.blocking_attr or ['blocking_fn']
    o.hybrid = set(o.hybrid or ['qemu_in_coroutine'])
    for n in o.coroutine_attr + o.blocking_attr:
        if not re.match(r'^[A-Za-z_][A-Za-z0-9_]*$', n):
            p.error('not an attribute name: %r' % n)
    o.clang = ['-I' + d for d in o.incdirs] + ['-D' + d for d in o.defines] + \
        ['-U' + d for d in o.undefs] + clang
    return o


# flags of a compile command that change how a file parses; those with a
# path argument are made absolute against the command's directory
DB_PATH_FLAGS = ('-I', '-isystem', '-iquote', '-idirafter', '-include', '-imacros')
DB_FLAGS = ('-D', '-U') + DB_PATH_FLAGS


def compile_command_args(entry):
    """The Clang arguments of one compile_commands.json entry."""
    import shlex
    if 'arguments' in entry:
        argv = list(entry['arguments'])
    else:
        argv = shlex.split(entry.get('command', ''))
    d = entry.get('directory', '.')
    out = []
    i = 1
    while i < len(argv):
        a = argv[i]
        flag = next((f for f in DB_FLAGS if a == f or (a.startswith(f) and f in ('-D', '-U', '-I'))), None)
        if a.startswith('-std='):
            out.append(a)
        elif flag is not None:
            if a == flag:
                if i + 1 >= len(argv):
                    break
                val = argv[i + 1]
                i += 1
            else:
                val = a[len(flag):]
            if flag in DB_PATH_FLAGS and not os.path.isabs(val):
                val = os.path.normpath(os.path.join(d, val))
            out += [flag, val] if flag not in ('-D', '-U', '-I') else [flag + val]
        i += 1
    return out


# Written beside compile_commands.json by CPC's CMake package for the
# Makefile generators, which write no compile commands for the .cpc files.
CPC_DATABASE = 'cpc_compile_commands.json'


def read_database(path):
    import json
    try:
        with open(path) as fh:
            db = json.load(fh)
    except OSError as e:
        raise UsageError('cannot read %s: %s' % (path, e.strerror))
    except ValueError as e:
        raise UsageError('%s is not valid JSON: %s' % (path, e))
    if not isinstance(db, list):
        raise UsageError('%s: expected a list of compile commands' % path)
    return db


def compilation_database(build_dir, extra):
    """{absolute source path: clang args} from BUILD_DIR/compile_commands.json
    and, when there is one, BUILD_DIR/cpc_compile_commands.json (the last
    command of a file wins), `extra` (the command line's -I, -D and
    arguments after `--`) appended to every file's."""
    path = os.path.join(build_dir, 'compile_commands.json')
    cpc_path = os.path.join(build_dir, CPC_DATABASE)
    db = read_database(path) if os.path.exists(path) or not os.path.exists(cpc_path) else []
    if os.path.exists(cpc_path):
        db += read_database(cpc_path)
    out = {}
    for entry in db:
        if not isinstance(entry, dict) or 'file' not in entry:
            raise UsageError('%s: an entry without "file"' % path)
        f = entry['file']
        if not os.path.isabs(f):
            f = os.path.join(entry.get('directory', '.'), f)
        f = os.path.normpath(f)
        if not f.endswith(('.c', '.cpc', '.h')):
            continue
        rel = os.path.relpath(f)
        if not rel.startswith('..'):
            f = rel             # shorter messages for files under the cwd
        out[f] = compile_command_args(entry) + list(extra)
    if not out:
        raise UsageError('%s lists no C or CPC file' % path)
    return out


def run(argv):
    opts = parse_args(argv)
    try:
        ck = Checker(opts)
    except ImportError as e:
        sys.stderr.write('cpc-check: error: cannot load the CPC front-end: %s\n' % e)
        return 2
    per_file = None
    if opts.build_dir is not None:
        try:
            per_file = compilation_database(opts.build_dir, opts.clang)
        except UsageError as e:
            sys.stderr.write('cpc-check: error: %s\n' % e)
            return 2
        if opts.files:
            known = {os.path.realpath(f): f for f in per_file}
            files = []
            for f in opts.files:
                r = known.get(os.path.realpath(f))
                if r is None:
                    sys.stderr.write('cpc-check: error: %s is not in %s\n' % (
                        f, os.path.join(opts.build_dir, 'compile_commands.json')))
                    return 2
                files.append(r)
            opts.files = files
        else:
            opts.files = list(per_file)
    elif not opts.files:
        sys.stderr.write('cpc-check: error: no input files (give FILE... or -p BUILD_DIR)\n')
        return 2
    if not ck.parse_all(opts.files, opts.clang, per_file):
        return 2
    ck.build()
    ck.infer()
    ck.check()
    if opts.fix:
        ck = fix_until_stable(ck, opts, per_file)
        if ck is None:
            return 2
    order = {f: i for i, f in enumerate(opts.files)}
    R = ck.report
    if opts.no_warnings:
        R.items = [x for x in R.items if x[3] != 'warning']
    if not opts.quiet:
        for l in R.lines(order):
            sys.stderr.write(l + '\n')
    status = 1 if R.count('error') or (opts.werror and R.count('warning')) else 0
    if opts.dot:
        text = '\n'.join(Output(ck).dot_lines()) + '\n'
        if opts.dot == '-':
            sys.stdout.write(text)
        else:
            try:
                with open(opts.dot, 'w') as fh:
                    fh.write(text)
            except OSError as e:
                sys.stderr.write('cpc-check: error: cannot write %s: %s\n' % (opts.dot, e.strerror))
                return 2
    if opts.infer:
        lines, any_missing = Output(ck).infer_output(opts.infer)
        for l in lines:
            sys.stdout.write(l + '\n')
        if any_missing:
            status = 1
    return status


FIX_ROUNDS = 16


def fix_until_stable(ck, opts, per_file):
    """cpc-check --fix: write what inference decides, parse and decide
    again until nothing changes; the checker of the last round."""
    from cpc_check_fix import settle
    added = removed = 0
    changed = set()
    parses = 1
    for _ in range(FIX_ROUNDS):
        fx = settle(ck, FIX_ROUNDS)
        try:
            a, r, files = fx.write()
        except OSError as e:
            sys.stderr.write('cpc-check: --fix: cannot write %s: %s\n' % (
                os.path.normpath(e.filename or '?'), e.strerror))
            return None
        if not files:
            break           # a fixed point: the last round's report is the files'
        added += a
        removed += r
        changed.update(files)
        ck = Checker(opts)
        parses += 1
        if not ck.parse_all(opts.files, opts.clang, per_file):
            return None
        ck.build()
        ck.infer()
        ck.check()
    else:
        sys.stderr.write('cpc-check: --fix: annotations still change after %d rounds\n'
                         % FIX_ROUNDS)
    sys.stderr.write('cpc-check: --fix: %d annotation%s added, %d removed, in %d file%s '
                     '(%d parse%s of the files)\n' % (
                         added, '' if added == 1 else 's', removed, len(changed),
                         '' if len(changed) == 1 else 's', parses, '' if parses == 1 else 's'))
    for f in sorted(changed):
        sys.stderr.write('cpc-check: --fix: wrote %s\n' % os.path.normpath(f))

    return ck


def main():
    sys.setrecursionlimit(20000)
    try:
        code = run(sys.argv[1:])
    except KeyboardInterrupt:
        code = 130
    except BrokenPipeError:
        code = 1
    except SystemExit:
        raise
    except Exception as e:   # never a traceback for the user
        if os.environ.get('CPC_CHECK_DEBUG'):
            raise
        sys.stderr.write('cpc-check: internal error: %s: %s (set CPC_CHECK_DEBUG=1 for '
                         'the traceback)\n' % (type(e).__name__, e))
        code = 2
    sys.stdout.flush()
    sys.exit(code)


if __name__ == '__main__':
    main()
