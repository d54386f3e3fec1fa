"""gdb on CPC programs: line tables of the generated C, and the gdb
extension (tools/gdb/cpc-gdb.py), loaded through the .debug_gdb_scripts
section the runtime adds to every program.

Each test compiles a program of this directory with bin/cpcc, runs gdb in
batch mode on it, and checks what gdb prints.
"""
import os
import re
import subprocess
import tempfile

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.dirname(os.path.dirname(HERE))
CPCC = os.path.join(TOP, 'bin', 'cpcc')
GDB_DIR = os.path.join(TOP, 'tools', 'gdb')
OUT = os.path.join(TOP, 'build', 'tests', 'debug')


_built = {}


def build(name, *flags):
    """Compile tests/debug/NAME.cpc with `flags` (once per run); the
    executable's path."""
    key = (name,) + flags
    if key not in _built:
        os.makedirs(OUT, exist_ok=True)
        exe = os.path.join(OUT, name + ''.join(f.replace('-', '_') for f in flags))
        subprocess.run([CPCC, '-g', *flags, '-o', exe, os.path.join(HERE, name + '.cpc')],
                       check=True)
        _built[key] = exe
    return _built[key]


def gdb(exe, *commands, script=None, extension=True):
    """gdb's output for `commands` (each an -ex), or for a command file;
    without extension, gdb's own (the program's script is not loaded)."""
    args = ['gdb', '-nx', '-batch']
    if extension:
        args += ['-iex', 'add-auto-load-safe-path ' + GDB_DIR]
    tmp = None
    if script is not None:
        tmp = tempfile.NamedTemporaryFile('w', suffix='.gdb', delete=False)
        tmp.write(script)
        tmp.close()
        args += ['-x', tmp.name]
    for c in commands:
        args += ['-ex', c]
    try:
        r = subprocess.run(args + [exe], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                           text=True, timeout=60)
        out = r.stdout
    except subprocess.TimeoutExpired as e:
        out = (e.stdout or b'').decode('utf-8', 'replace') + '\n<gdb timed out>\n'
    finally:
        if tmp is not None:
            os.unlink(tmp.name)
    return out


def normalise(out):
    """Addresses, process ids, paths and times out of gdb's output."""
    out = re.sub(r'0x[0-9a-f]+', '0xADDR', out)
    out = re.sub(r'LWP \d+', 'LWP N', out)
    out = re.sub(r'\(thread \d+, ', '(thread T, ', out)
    out = re.sub(r'OS thread \d+ ', 'OS thread T ', out)
    out = out.replace(HERE + '/', '')
    return out


def cpc_threads_listing(out):
    """The lines printed by info cpc-threads (and the commands after it)."""
    lines = out.splitlines()
    start = next(i for i, x in enumerate(lines) if x.startswith(('CPC scheduler ', '  CPC thread ')))
    return [x for x in lines[start:] if not x.startswith(('Kill the program', '[Inferior'))]


# ---- the gdb extension -------------------------------------------------------------

INSPECT = 'break states.cpc:52'    # inspector(), while the others wait


def test_extension_is_loaded_from_the_programs_section():
    out = gdb(build('lines', '-O0'), 'info auto-load python-scripts')
    assert re.search(r'Yes\s+' + re.escape(os.path.join(GDB_DIR, 'cpc-gdb.py')), out), out


def test_info_cpc_threads_lists_every_state_with_the_debug_runtime():
    out = gdb(build('states', '-O0', '--cpc-debug'), INSPECT, 'run', 'info cpc-threads', 'kill')
    got = normalise('\n'.join(cpc_threads_listing(out)))
    left = re.search(r'sleeping, (\d+\.\d+) s left', got)
    assert left and 0 < float(left.group(1)) <= 10, got
    got = got.replace(left.group(1), 'T')
    assert got.splitlines() == [
        'CPC scheduler 0 (default, 0xADDR), driven by OS thread T (LWP N): 8 CPC threads',
        '  CPC thread 1 (0xADDR): sleeping, T s left, spawned at states.cpc:59',
        '    #0  sleeper (secs=10) at states.cpc:13',
        '  CPC thread 2 (0xADDR): waiting on condvar 0xADDR, spawned at states.cpc:60',
        '    #0  waiter (woken=10) at states.cpc:20',
        '  CPC thread 3 (0xADDR): waiting on condvar 0xADDR, spawned at states.cpc:61',
        '    #0  waiter (woken=20) at states.cpc:20',
        '  CPC thread 4 (0xADDR): waiting for fd 3 (in), spawned at states.cpc:62',
        '    #0  reader (fd=3, buf=...) at states.cpc:26',
        '    #1  read_twice () at states.cpc:31',
        '  CPC thread 5 (0xADDR): detached, running on a pool worker (thread T, LWP N), '
        'spawned at states.cpc:63',
        '    #0  blocker () at states.cpc:38',
        '  CPC thread 6 (0xADDR): runnable, spawned at states.cpc:64',
        '    #0  yielder (n=100) at states.cpc:44',
        '  CPC thread 7 (0xADDR): running (thread T, LWP N), spawned at states.cpc:65',
        '    #0  inspector (pass=1) at states.cpc:52',
        '  CPC thread 8 (0xADDR): runnable, spawned at states.cpc:66',
        '    #0  yielder (n=5) [not started yet] at states.cpc:42',
        '8 CPC threads: 1 running, 2 runnable, 1 sleeping, 2 condvar, 1 fd, 1 detached',
    ], got


def test_info_cpc_threads_without_the_debug_runtime_walks_the_scheduler_and_the_heap():
    out = gdb(build('states', '-O0'), INSPECT, 'run', 'info cpc-threads', 'kill')
    got = normalise('\n'.join(cpc_threads_listing(out)))
    got = re.sub(r'sleeping, \d+\.\d+ s left', 'sleeping, T s left', got)
    assert got.splitlines() == [
        'CPC scheduler 0 (default, 0xADDR), driven by OS thread T (LWP N): 8 CPC threads',
        '  CPC thread 1 (0xADDR): running (thread T, LWP N)',
        '    #0  inspector (pass=1) at states.cpc:52',
        '  CPC thread 2 (0xADDR): detached, running on a pool worker (thread T, LWP N)',
        '    #0  blocker () at states.cpc:38',
        '  CPC thread 3 (0xADDR): runnable',
        '    #0  yielder (n=5) [not started yet] at states.cpc:42',
        '  CPC thread 4 (0xADDR): runnable',
        '    #0  yielder (n=100) at states.cpc:44',
        '  CPC thread 5 (0xADDR): sleeping, T s left',
        '    #0  sleeper (secs=10) at states.cpc:13',
        '  CPC thread 6 (0xADDR): waiting for fd 3 (in)',
        '    #0  reader (fd=3, buf=...) at states.cpc:26',
        '    #1  read_twice () at states.cpc:31',
        '  CPC thread 7 (0xADDR): waiting on condvar 0xADDR',
        '    #0  waiter (woken=10) at states.cpc:20',
        '  CPC thread 8 (0xADDR): waiting on condvar 0xADDR',
        '    #0  waiter (woken=20) at states.cpc:20',
        '8 CPC threads: 1 running, 2 runnable, 1 sleeping, 2 condvar, 1 fd, 1 detached',
        '(release runtime: a thread held by the program with cpc_park is listed with the '
        'debug runtime only, cpcc --cpc-debug)',
    ], got


def test_cpc_thread_selects_a_thread_and_cpc_bt_shows_its_frames():
    out = gdb(build('states', '-O0', '--cpc-debug'), INSPECT, 'run', 'cpc-thread 4',
              'echo --bt--\\n', 'cpc bt', 'kill')
    got = normalise(out)
    frames = ('* CPC thread 4 (0xADDR): waiting for fd 3 (in), spawned at states.cpc:62\n'
              '    #0  reader (fd=3, buf=...) at states.cpc:26\n'
              '    #1  read_twice () at states.cpc:31\n')
    assert frames + '--bt--\n' + frames in got, got


def test_cpc_thread_rejects_an_unknown_number():
    out = gdb(build('states', '-O0', '--cpc-debug'), INSPECT, 'run', 'cpc-thread 99', 'kill')
    assert 'no CPC thread 99 (see info cpc-threads)' in out, out


@pytest.mark.parametrize('opt', ['-O0', '-O2'])
def test_crash_backtrace_shows_the_cps_callers_from_the_continuation(opt):
    out = gdb(build('crash', opt), 'run', 'bt')
    assert 'SIGSEGV' in out, out
    bt = normalise(out[out.index('#0 '):])
    # depth3 was resumed by the trampoline: depth2 and depth1 are only in
    # its continuation, shown (unnumbered) before the trampoline's frame
    m = re.search(r'#0 .*depth3 \(.*\) at crash\.cpc:11\n'
                  r'(?:#\d.*\n)*'
                  r'    depth2 \(local2=12\) at crash\.cpc:17\n'
                  r'    depth1 \(local1=6\) at crash\.cpc:23\n'
                  r'#\d+ .*sched_trampoline', bt)
    assert m, bt


# ---- line tables ---------------------------------------------------------------------

# lines.cpc: every line holding a statement of a cps function
STATEMENT_LINES = [6, 7, 11, 12, 13, 14, 15, 17, 21, 22]


def test_breakpoint_on_each_statement_line_has_one_location():
    out = gdb(build('lines', '-O0'), *['break lines.cpc:%d' % n for n in STATEMENT_LINES])
    for i, n in enumerate(STATEMENT_LINES, 1):
        assert re.search(r'Breakpoint %d at 0x[0-9a-f]+: file .*lines\.cpc, line %d\.\n' % (i, n),
                         out), (n, out)
    assert 'locations' not in out, out


HIT_COUNTS = ''.join('break lines.cpc:%d\ncommands\nsilent\ncontinue\nend\n' % n
                     for n in (6, 13, 14, 22)) + 'run\n'


def test_breakpoint_stops_once_per_execution_of_its_line():
    # square's yield runs 3 times, the loop's call and the statement after
    # it 3 times, report's printf once: a resumed thread does not stop
    # again on the line of the call it resumes from
    out = gdb(build('lines', '-O0'), script=HIT_COUNTS + 'info breakpoints\n')
    hits = [int(x) for x in re.findall(r'breakpoint already hit (\d+) time', out)]
    assert hits == [3, 3, 3, 1], out


LOCALS_AFTER_RESUME = '''
break lines.cpc:14
run
info locals
continue
info locals
continue
info locals
kill
'''


def test_locals_after_a_resume_hold_their_values():
    out = gdb(build('lines', '-O0'), script=LOCALS_AFTER_RESUME)
    values = re.findall(r'^(sq|total) = (-?\d+)$', out, re.M)
    assert values == [('sq', '9'), ('total', '0'), ('sq', '4'), ('total', '9'),
                      ('sq', '1'), ('total', '13')], out


def test_info_locals_and_args_of_a_cps_function_list_the_users_variables_only():
    out = gdb(build('lines', '-O0'), 'break lines.cpc:14', 'run', 'echo --locals--\\n',
              'info locals', 'echo --args--\\n', 'info args', 'kill')
    locals_ = out[out.index('--locals--\n') + 11:out.index('--args--')].splitlines()
    args = out[out.index('--args--\n') + 9:].splitlines()
    assert locals_ == ['sq = 9', 'total = 0'], out
    assert args[0] == 'n = 3' and not args[1].startswith(('cpc_', 'n =')), out


def test_info_locals_shows_the_variables_kept_in_the_heap_environment():
    out = gdb(build('locals', '-O0'), 'break locals.cpc:16', 'run', 'info locals', 'kill')
    assert re.findall(r'^(\w+) = (.*)$', out, re.M) == [('twice', '2'), ('value', '42')], out


def test_arguments_and_locals_readable_before_a_cps_call():
    out = gdb(build('lines', '-O0'), 'break lines.cpc:13', 'run', 'print n', 'print total', 'kill')
    assert re.search(r'^\$1 = 3\n\$2 = 0$', out, re.M), out


def test_local_of_caller_readable_at_line_after_call_in_outer_function():
    out = gdb(build('lines', '-O0'), 'break lines.cpc:22', 'run', 'print total', 'kill')
    assert re.search(r'^\$1 = 14$', out, re.M), out


# ---- stepping ---------------------------------------------------------------------------

def last_source_line(out):
    """The number of the last source line gdb printed (`N<TAB>text`)."""
    return int(re.findall(r'^(\d+)\t', out, re.M)[-1])


def test_next_over_a_cps_call_stops_at_the_next_line_after_it_returns():
    out = gdb(build('lines', '-O0'), 'break lines.cpc:13', 'run', 'next', 'info locals', 'kill')
    assert last_source_line(out) == 14, out
    # the call's result is there: square(3) returned 9
    assert re.search(r'^sq = 9$', out, re.M), out


def test_next_out_of_a_cps_function_goes_on_in_its_caller():
    # from square's return statement: its closing brace, then count's line
    # after the call (square(3) returned to count's loop)
    out = gdb(build('lines', '-O0'), 'break lines.cpc:7', 'run', 'next', 'next', 'print total',
              'kill')
    assert last_source_line(out) == 14, out
    assert re.search(r'^\$1 = 0$', out, re.M), out


def assert_on_squares_first_line(out, v):
    """gdb stopped on lines.cpc's square(v) at its first line, and `print v`
    followed."""
    assert re.search(r'^#0  square \(v=%d\) at \S*lines\.cpc:6\n6\t    cpc_yield\(\);\n'
                     r'\$1 = %d$' % (v, v), out, re.M), out


def test_step_into_a_deferred_cps_call_stops_on_the_callees_first_line():
    # count's first call is deferred (the thread's continuation grows):
    # square's body runs from the trampoline, and one step gets there
    out = gdb(build('lines', '-O0'), 'break lines.cpc:13', 'run', 'step', 'print v', 'kill')
    assert_on_squares_first_line(out, 3)
    assert '__cps' not in out, out


def test_step_into_a_cps_call_stops_on_the_callees_first_line_not_its_entry():
    # count's second call runs square's body at once, from its entry
    out = gdb(build('lines', '-O0'), 'break lines.cpc:13', 'run', 'continue', 'step', 'print v',
              'kill')
    assert_on_squares_first_line(out, 2)
    assert '__cps' not in out, out


def test_step_from_a_cps_functions_entry_reaches_its_first_line():
    # (the call is deferred: its bounce calls square__cps again, where the
    # breakpoint stops once only, for the one call)
    out = gdb(build('lines', '-O0'), 'break square__cps', 'run', 'step', 'print v', 'kill')
    assert_on_squares_first_line(out, 3)
    assert out.count('Breakpoint 1,') == 1, out


@pytest.mark.parametrize('opt', ['-O0', '-O2'])
def test_a_breakpoint_on_an_entry_stops_once_per_call_a_deferred_one_included(opt):
    # (square's first call is deferred: the trampoline runs it through
    # square__bounce, which enters square__cps a second time)
    out = gdb(build('lines', opt), 'break square__cps', 'run', 'continue', 'continue',
              'kill')
    assert re.findall(r'^Breakpoint 1, square \(v=(\d+)\)', out, re.M) == ['3', '2', '1'], out


def test_info_breakpoints_shows_the_users_condition_not_the_entrys_first_pass():
    # (a breakpoint on an entry gets the extension's $_cpc_first_pass(),
    # and-ed with the user's own condition: the table lists the user's)
    out = gdb(build('lines', '-O0'), 'break square__cps', 'break square__cps if v > 1',
              'info breakpoints')
    assert 'first_pass' not in out, out
    assert re.search(r'^1\s+breakpoint .*\n2\s+breakpoint .*\n\tstop only if v > 1$', out,
                     re.M), out


@pytest.mark.parametrize('flags', [('-O0',), ('-O0', '--cpc-debug')])
def test_step_from_an_entry_that_runs_the_body_at_once_stops_on_its_first_line(flags):
    # count's second call of square runs the body from the entry at once;
    # the body opens on the entry's line, and gdb's own step took it for
    # the rest of that line and stopped in a runtime helper it calls
    out = gdb(build('lines', *flags), 'break square__cps', 'run', 'continue', 'step',
              'print v', 'kill')
    assert_on_squares_first_line(out, 2)
    assert 'cpc_push_reserved' not in out and 'cpc_runtime.h' not in out, out


def test_step_into_an_optimised_cps_call_stops_on_the_callees_first_line_not_its_entry():
    # at -O2 square's body has no function of its own: it is inlined into
    # its entry square__cps (and its deferred entry), and count's call is a
    # jump into the entry, where gdb's own step stopped
    out = gdb(build('lines', '-O2'), 'break lines.cpc:13', 'run', 'step', 'print v', 'kill')
    assert_on_squares_first_line(out, 3)
    assert '__cps' not in out, out


def test_next_over_an_optimised_cps_call_stops_at_the_next_line_after_it_returns():
    # (gdb's own next went into the callee's entry, entered by a jump)
    out = gdb(build('lines', '-O2'), 'break lines.cpc:13', 'run', 'next', 'print sq', 'kill')
    assert re.search(r'^14\t        total \+= sq;\n\$1 = 9$', out, re.M), out
    assert '__cps' not in out and '__defer' not in out, out


def test_step_into_an_optimised_cps_call_in_a_loop_shows_one_frame_per_invocation():
    # (count's later calls are made from its resume function, into which
    # gcc inlines its body; square's entry has a cold part below it)
    out = gdb(build('lines', '-O2'), 'break lines.cpc:15', 'run', 'delete', 'next', 'next',
              'step', 'bt', 'kill')
    assert re.search(r'^#0  square \(v=2\) at \S*lines\.cpc:6\n6\t    cpc_yield\(\);\n'
                     r'#0  square \(v=2\) at \S*lines\.cpc:6\n'
                     r'    count \(n=2, total=9\) at \S*lines\.cpc:13\n'
                     r'    report \(\) at \S*lines\.cpc:21\n#', out, re.M), out
    assert '__cps' not in out, out


@pytest.mark.parametrize('line,callee', [(14, 'tally__start'), (15, 'tally__cps')])
def test_step_enters_a_native_function_named_like_generated_glue(line, callee):
    # (only the glue of the program's cps functions is skipped)
    out = gdb(build('glue_names', '-O0'), 'break glue_names.cpc:%d' % line, 'run', 'step',
              'kill')
    assert re.search(r'^%s \(x=\d\) at \S*glue_names\.cpc:\d+\n' % callee, out, re.M), out
    assert last_source_line(out) in (6, 10), out


def test_finish_from_a_cps_function_returns_to_the_line_of_the_call():
    # (gdb prints the C function's result first: "Value returned is ...")
    out = gdb(build('lines', '-O0'), 'break lines.cpc:6', 'run', 'finish', 'print n',
              'print total', 'kill')
    assert re.search(r'\n#0  count \(n=3\) at .*lines\.cpc:13\n13\t', out), out
    assert re.search(r'^\$\d+ = 3\n\$\d+ = 0$', out, re.M), out


# ---- sanitizers ------------------------------------------------------------------------

def test_ubsan_reports_the_cpc_lines_of_a_call_argument_and_a_resumed_body():
    exe = build('overflow', '-O0', '-fsanitize=undefined')
    r = subprocess.run([exe], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                       timeout=60)
    lines = re.findall(r'overflow\.cpc:(\d+):\d+: runtime error: signed integer overflow',
                       r.stderr)
    assert lines == ['14', '9'], r.stderr


def test_line_with_two_cps_calls_has_one_location_and_stops_once():
    exe = build('twocalls', '-O0')
    out = gdb(exe, script='break twocalls.cpc:11\ncommands\nsilent\ncontinue\nend\n'
                          'run\ninfo breakpoints\n')
    assert re.search(r'Breakpoint 1 at 0x[0-9a-f]+: file .*twocalls\.cpc, line 11\.\n', out), out
    assert re.search(r'breakpoint already hit 1 time\n', out), out
    assert '21\n' in out, out


def test_asan_reports_a_crash_in_a_resumed_body_at_its_cpc_line():
    exe = build('crash', '-O0', '-fsanitize=address')
    r = subprocess.run([exe], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                       timeout=60)
    # (the function's own name: its body carries it in the debug information)
    assert re.search(r'#0 0x[0-9a-f]+ in depth3 \S*crash\.cpc:11\n', r.stderr), r.stderr


def test_tsan_reports_a_race_in_detached_code_at_its_cpc_line():
    exe = build('race', '-O0', '-fsanitize=thread')
    r = subprocess.run([exe], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                       timeout=60)
    assert 'WARNING: ThreadSanitizer: data race' in r.stderr, r.stderr
    # both accesses: the body's line, under the function's name, called by
    # the resume function named for the function's line
    frames = re.findall(r'#0 bump \S*race\.cpc:(\d+) .*\n\s+#1 bump__resume_1 '
                        r'\S*race\.cpc:(\d+)', r.stderr)
    assert frames[:2] == [('13', '10'), ('13', '10')], r.stderr


def test_valgrind_reports_an_invalid_read_after_a_resume_at_its_cpc_lines():
    exe = build('invalid', '-O0')
    r = subprocess.run(['valgrind', '-q', exe], stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, text=True, timeout=120)
    # the read (after the resume), then where the block was allocated
    # (valgrind names functions by their symbols: the body's is past_end.body,
    # the user's name with a suffix no C name can have)
    assert re.search(r'Invalid read of size 4\n.*at 0x[0-9A-F]+: past_end\.body '
                     r'\(invalid\.cpc:10\)\n', r.stderr), r.stderr
    assert re.search(r'by 0x[0-9A-F]+: past_end\.body \(invalid\.cpc:8\)\n', r.stderr), \
        r.stderr


# The C names of the functions the translation generates around a cps
# function F (its debug information keeps them: gdb and the sanitizers
# show them as the extension and the tests above say); their symbols are
# F with a suffix in the style of gcc's own (f.cold, f.part.0)
GENERATED_C_NAME = re.compile(r'__(body|body_\d+|defer|bounce|start|resume_\d+|dispatch|'
                              r'dispatch_\d+)$|__spawn_\d+')


def text_symbols(exe):
    out = subprocess.run(['nm', exe], stdout=subprocess.PIPE, text=True, check=True).stdout
    return {p[2] for p in (x.split() for x in out.splitlines()) if len(p) == 3 and p[1] in 'tT'}


@pytest.mark.parametrize('opt', ['-O0', '-O2'])
def test_generated_functions_have_symbols_named_for_the_users_function(opt):
    # resume functions, bounces, a chunked body's later chunk and dispatch
    # functions, a spawn thunk, a spawned statement's outlined function
    names = set()
    for prog in ('lines', 'chunked', 'spawns'):
        names |= text_symbols(build(prog, opt))
    # (the entries keep F__cps, the symbol other C code calls: docs/abi.md)
    assert not [n for n in names if GENERATED_C_NAME.search(n.split('.')[0])], sorted(names)
    expected = {'square.resume.1', 'walk.body.2', 'walk.bounce', 'main.spawn.1.start'}
    if opt == '-O0':
        # (at -O2 gcc inlines these into their callers)
        expected |= {'square.body', 'walk.dispatch', 'walk.dispatch.2', 'main.spawn.1.body',
                     'main.spawn.1.cps', 'main.spawn.1.bounce'}
    assert expected <= names, sorted(names)


def test_valgrind_names_the_resume_function_of_an_invalid_read_for_the_users_function():
    exe = build('invalid', '-O0')
    r = subprocess.run(['valgrind', '-q', exe], stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, text=True, timeout=120)
    assert re.search(r'by 0x[0-9A-F]+: past_end\.resume\.1 \(invalid\.cpc:7\)\n', r.stderr), \
        r.stderr
    assert re.search(r'by 0x[0-9A-F]+: past_end\.bounce \(invalid\.cpc:7\)\n', r.stderr), \
        r.stderr
    assert not GENERATED_C_NAME.search(r.stderr), r.stderr


# printing.cpc: scale(x, by) at line 19, after a resume: from -O1 on, x, s
# and total live in its frame (read in place: no C variable holds them)
AFTER_RESUME = 'break printing.cpc:19'


@pytest.mark.parametrize('opt', ['-O0', '-O2'])
def test_print_names_a_cps_functions_variables_as_info_locals_shows_them(opt):
    out = gdb(build('printing', opt), AFTER_RESUME, 'run', 'echo --print--\\n',
              'print total', 'print x + 1', 'print s.x', 'print/x total', 'print -pretty -- s',
              'print nosuch', 'echo --end--\\n', 'kill')
    got = out[out.index('--print--\n') + 10:out.index('--end--')].splitlines()
    assert got == ['$1 = 12', '$2 = 4', '$3 = 4', '$4 = 0xc', '$5 = {', '  x = 4,', '  y = 4',
                   '}', 'No symbol "nosuch" in current context.'], out


@pytest.mark.parametrize('opt', ['-O0', '-O2'])
def test_set_var_writes_a_cps_functions_variable_where_it_lives(opt):
    # (total += s.x then prints 100 + 4; x, a parameter, then 7)
    out = gdb(build('printing', opt), AFTER_RESUME, 'run', 'set var total = 100',
              'set variable x = 7', 'print total', 'print x', 'delete', 'continue')
    assert re.search(r'^\$1 = 100\n\$2 = 7\n', out, re.M), out
    assert 'scale 7 104 4' in out, out


@pytest.mark.parametrize('opt', ['-O0', '-O2'])
def test_ptype_and_whatis_name_a_cps_functions_variables(opt):
    out = gdb(build('printing', opt), AFTER_RESUME, 'run', 'echo --types--\\n',
              'ptype total', 'whatis s', 'ptype s', 'ptype x', 'ptype nosuch',
              'print s.x', 'ptype struct point', 'echo --end--\\n', 'kill')
    got = out[out.index('--types--\n') + 10:out.index('--end--')].splitlines()
    point = ['type = struct point {', '    int x;', '    int y;', '}']
    assert got == ['type = int', 'type = struct point'] + point + [
        'type = int', 'No symbol "nosuch" in current context.', '$1 = 4'] + point, out


# every case of the value history: empty, a void last value, a number
PRINT_HISTORY = ['print', 'p', 'print $', 'print $1', 'print (void)0', 'print', 'p', 'inspect',
                 'print $', 'print/x', 'print -pretty --', 'print $1', 'print 5', 'print',
                 'print $', 'print $1', 'print $$2', 'call (void)0', 'print']


@pytest.mark.parametrize('opt', ['-O0', '-O2'])
def test_print_with_no_expression_shows_the_last_value_as_gdbs_own_print(opt):
    commands = [AFTER_RESUME, 'run', 'echo --print--\\n'] + PRINT_HISTORY + \
        ['echo --end--\\n', 'kill']

    def printed(out):
        return out[out.index('--print--\n') + 10:out.index('--end--')].splitlines()
    got = printed(gdb(build('printing', opt), *commands))
    assert got == ['The history is empty.'] * 3 + ['History has not yet reached $1.'] + [
        '$%d = void' % n for n in range(1, 9)] + [
        '$9 = 5', '$10 = 5', '$11 = 5', '$12 = void', '$13 = 5', '$14 = 5'], got
    assert got == printed(gdb(build('printing', opt), *commands, extension=False)), got


def test_print_in_a_native_frame_names_its_c_local():
    # (scale's x is resident in its frame; native_x's x is a C local)
    out = gdb(build('printing', '-O2'), AFTER_RESUME, 'break printing.cpc:11', 'run',
              'print x', 'continue', 'print x', 'up', 'print x', 'kill')
    assert re.search(r'^\$1 = 3\n', out, re.M), out
    assert re.search(r'^\$2 = 300\n', out, re.M), out
    assert re.search(r'^\$3 = 3\n', out, re.M), out


def test_info_locals_lists_no_resume_labels_at_o2():
    out = gdb(build('printing', '-O2'), AFTER_RESUME, 'run', 'info locals', 'kill')
    assert '__resumed' not in out, out


# ---- several schedulers ------------------------------------------------------------

# scheds.cpc: look(), on the second scheduler, while holder() keeps the
# default scheduler's OS thread
INSPECT_SECOND = 'break scheds.cpc:56'


def sleep_times(got):
    """Replace the times left of the sleepers (checked against their
    durations: 10 s on the default scheduler, 20 s on the second) by T."""
    for secs in ('10', '20'):
        m = re.search(r'sleeping, (\d+\.\d+) s left(.*)\n    #0  sleeper \(secs=%s\)' % secs, got)
        assert m and 0 < float(m.group(1)) <= int(secs), got
        got = got.replace(m.group(1) + ' s left', 'T s left', 1)
    return got


def test_info_cpc_threads_lists_the_threads_of_each_scheduler_with_the_debug_runtime():
    out = gdb(build('scheds', '-O0', '--cpc-debug'), INSPECT_SECOND, 'run', 'info cpc-threads',
              'kill')
    got = sleep_times(normalise('\n'.join(cpc_threads_listing(out))))
    assert got.splitlines() == [
        'CPC scheduler 0 (default, 0xADDR), driven by OS thread T (LWP N): 7 CPC threads',
        '  CPC thread 2 (0xADDR): sleeping, T s left, spawned at scheds.cpc:91',
        '    #0  sleeper (secs=10) at scheds.cpc:16',
        '  CPC thread 3 (0xADDR): waiting on condvar 0xADDR, spawned at scheds.cpc:92',
        '    #0  waiter (which=0) at scheds.cpc:21',
        '  CPC thread 4 (0xADDR): waiting for fd 5 (in), spawned at scheds.cpc:93',
        '    #0  reader (fd=5, buf=...) at scheds.cpc:27',
        '  CPC thread 5 (0xADDR): detached, running on a pool worker (thread T, LWP N), '
        'spawned at scheds.cpc:94',
        '    #0  blocker () at scheds.cpc:34',
        '  CPC thread 6 (0xADDR): runnable, spawned at scheds.cpc:95',
        '    #0  yielder (n=100) at scheds.cpc:40',
        '  CPC thread 7 (0xADDR): running (thread T, LWP N), spawned at scheds.cpc:96',
        '    #0  holder () at scheds.cpc:49',
        '  CPC thread 8 (0xADDR): runnable, spawned at scheds.cpc:97',
        '    #0  yielder (n=5) [not started yet] at scheds.cpc:38',
        'CPC scheduler 1 (0xADDR), driven by OS thread T (LWP N): 7 CPC threads',
        '  CPC thread 9 (0xADDR): sleeping, T s left, spawned at scheds.cpc:70',
        '    #0  sleeper (secs=20) at scheds.cpc:16',
        '  CPC thread 10 (0xADDR): waiting on condvar 0xADDR, spawned at scheds.cpc:71',
        '    #0  waiter (which=1) at scheds.cpc:21',
        '  CPC thread 11 (0xADDR): waiting for fd 7 (in), spawned at scheds.cpc:72',
        '    #0  reader (fd=7, buf=...) at scheds.cpc:27',
        '  CPC thread 12 (0xADDR): detached, running on a pool worker (thread T, LWP N), '
        'spawned at scheds.cpc:73',
        '    #0  blocker () at scheds.cpc:34',
        '  CPC thread 13 (0xADDR): runnable, spawned at scheds.cpc:74',
        '    #0  yielder (n=6) at scheds.cpc:40',
        '  CPC thread 14 (0xADDR): running (thread T, LWP N), spawned at scheds.cpc:75',
        '    #0  look (pass=2) at scheds.cpc:56',
        '    #1  inspector (pass=2) at scheds.cpc:61',
        '  CPC thread 15 (0xADDR): runnable, spawned at scheds.cpc:76',
        '    #0  yielder (n=3) at scheds.cpc:40',
        '14 CPC threads: 2 running, 4 runnable, 2 sleeping, 2 condvar, 2 fd, 2 detached',
    ], got


def test_info_cpc_threads_walks_every_scheduler_without_the_debug_runtime():
    out = gdb(build('scheds', '-O0'), INSPECT_SECOND, 'run', 'info cpc-threads', 'kill')
    got = sleep_times(normalise('\n'.join(cpc_threads_listing(out))))
    assert got.splitlines() == [
        'CPC scheduler 0 (default, 0xADDR), driven by OS thread T (LWP N): 7 CPC threads',
        '  CPC thread 1 (0xADDR): running (thread T, LWP N)',
        '    #0  holder () at scheds.cpc:49',
        '  CPC thread 2 (0xADDR): detached, running on a pool worker (thread T, LWP N)',
        '    #0  blocker () at scheds.cpc:34',
        '  CPC thread 3 (0xADDR): runnable',
        '    #0  yielder (n=5) [not started yet] at scheds.cpc:38',
        '  CPC thread 4 (0xADDR): runnable',
        '    #0  yielder (n=100) at scheds.cpc:40',
        '  CPC thread 5 (0xADDR): sleeping, T s left',
        '    #0  sleeper (secs=10) at scheds.cpc:16',
        '  CPC thread 6 (0xADDR): waiting for fd 5 (in)',
        '    #0  reader (fd=5, buf=...) at scheds.cpc:27',
        '  CPC thread 7 (0xADDR): waiting on condvar 0xADDR',
        '    #0  waiter (which=0) at scheds.cpc:21',
        'CPC scheduler 1 (0xADDR), driven by OS thread T (LWP N): 7 CPC threads',
        '  CPC thread 8 (0xADDR): running (thread T, LWP N)',
        '    #0  look (pass=2) at scheds.cpc:56',
        '    #1  inspector (pass=2) at scheds.cpc:61',
        '  CPC thread 9 (0xADDR): detached, running on a pool worker (thread T, LWP N)',
        '    #0  blocker () at scheds.cpc:34',
        '  CPC thread 10 (0xADDR): runnable',
        '    #0  yielder (n=3) at scheds.cpc:40',
        '  CPC thread 11 (0xADDR): runnable',
        '    #0  yielder (n=6) at scheds.cpc:40',
        '  CPC thread 12 (0xADDR): sleeping, T s left',
        '    #0  sleeper (secs=20) at scheds.cpc:16',
        '  CPC thread 13 (0xADDR): waiting for fd 7 (in)',
        '    #0  reader (fd=7, buf=...) at scheds.cpc:27',
        '  CPC thread 14 (0xADDR): waiting on condvar 0xADDR',
        '    #0  waiter (which=1) at scheds.cpc:21',
        '14 CPC threads: 2 running, 4 runnable, 2 sleeping, 2 condvar, 2 fd, 2 detached',
        '(release runtime: a thread held by the program with cpc_park is listed with the '
        'debug runtime only, cpcc --cpc-debug)',
    ], got


def test_bt_and_cpc_bt_show_the_cps_callers_on_a_second_scheduler():
    out = gdb(build('scheds', '-O0', '--cpc-debug'), INSPECT_SECOND, 'run', 'bt',
              'echo --cpc-bt--\\n', 'cpc bt', 'echo --thread--\\n', 'cpc-thread 14', 'kill')
    got = normalise(out)
    # look was resumed by the second scheduler's trampoline: inspector is
    # only in its continuation, shown (unnumbered) before the trampoline
    assert re.search(r'#0  look \(.*pass=2\) at scheds\.cpc:56\n'
                     r'(?:#\d.*\n)*'
                     r'    inspector \(pass=2\) at scheds\.cpc:61\n'
                     r'#\d+ .*sched_trampoline .*\n(?:#\d.*\n)*#\d+ .*sched_loop_other', got), got
    frames = ('    #0  look (pass=2) at scheds.cpc:56\n'
              '    #1  inspector (pass=2) at scheds.cpc:61\n')
    assert '--cpc-bt--\n#0  look (pass=2) at scheds.cpc:56\n' \
           '#1  inspector (pass=2) at scheds.cpc:61\n--thread--\n' in got, got
    assert '* CPC thread 14 (0xADDR): running (thread T, LWP N), spawned at scheds.cpc:75\n' + \
        frames in got, got


def test_breakpoint_on_a_spawned_statement_has_one_location_and_stops_once_per_spawn():
    # line 9 (`cpc_spawn {`) runs in main, twice; line 10 runs in each
    # spawned thread; the outlined function's entry is not on either line
    out = gdb(build('spawns', '-O0'), script=''.join(
        'break spawns.cpc:%d\ncommands\nsilent\ncontinue\nend\n' % n for n in (9, 10)) +
        'run\ninfo breakpoints\n')
    assert re.search(r'Breakpoint 1 at 0x[0-9a-f]+: file .*spawns\.cpc, line 9\.\n', out), out
    assert re.search(r'Breakpoint 2 at 0x[0-9a-f]+: file .*spawns\.cpc, line 10\.\n', out), out
    hits = [int(x) for x in re.findall(r'breakpoint already hit (\d+) time', out)]
    assert hits == [2, 2], out
    assert 'j=6\nj=7\n' in out, out


# ---- a spawned statement's frame, named for its symbol (main.spawn.1) --------------

@pytest.mark.parametrize('opt', ['-O0', '-O2'])
def test_a_spawned_statements_frame_is_named_for_its_symbol_in_bt_and_info_frame(opt):
    out = gdb(build('spawned_call', opt), 'break spawned_call.cpc:9', 'run', 'bt',
              'frame 1', 'info frame', 'info cpc-threads', 'kill')
    assert re.search(r'\n(#1 |    )\s*main\.spawn\.1 \(\) at \S*spawned_call\.cpc:15\n', out), out
    assert ' called by main.spawn.1 (waiting in the thread' in out, out
    assert re.search(r'^    #1  main\.spawn\.1 \(\) at \S*spawned_call\.cpc:15$', out, re.M), out
    assert '__spawn_' not in out, out


@pytest.mark.parametrize('opt', ['-O0', '-O2'])
def test_finish_into_a_spawned_statement_ends_at_the_call_with_its_value(opt):
    out = gdb(build('spawned_call', opt), 'break spawned_call.cpc:9', 'run', 'finish',
              'kill')
    assert re.search(r'\n#0  (0x[0-9a-f]+ in )?main\.spawn\.1 \(\) at \S*spawned_call\.cpc:15\n15\t',
                     out), out
    assert re.search(r'^Value returned is \$\d+ = 9$', out, re.M), out
    assert '__spawn_' not in out and 'cpc_runtime.h' not in out, out


@pytest.mark.parametrize('opt', ['-O0', '-O2'])
def test_finish_into_a_threads_first_function_ends_at_the_call_with_its_value(opt):
    out = gdb(build('spawned_runner', opt), 'break spawned_runner.cpc:9', 'run', 'finish',
              'kill')
    # (optimised, gcc may put the end of the call, the result's store, on
    # the next line's first instruction: the stop is there)
    line = '15' if opt == '-O0' else '1[56]'
    assert re.search(r'\n#0  (0x[0-9a-f]+ in )?runner \(\) at \S*spawned_runner\.cpc:%s\n%s\t'
                     % (line, line), out), out
    assert re.search(r'^Value returned is \$\d+ = 9$', out, re.M), out
    assert 'cpc_resume' not in out and 'cpc_k' not in out, out


# ---- next or step past a thread's first function's last line: the thread ends ------

THREAD_END_RE = re.compile(r'^\[cpc: (main\.spawn\.1|runner) was the thread\'s first function: '
                           r'its return ends the thread\]$', re.M)


def after_marker(out, marker='--step--'):
    """gdb's output after `echo MARKER\\n`."""
    return out[out.index(marker + '\n') + len(marker) + 1:]


@pytest.mark.parametrize('opt', ['-O0', '-O2'])
@pytest.mark.parametrize('cmd', ['next', 'step', 'until'])
@pytest.mark.parametrize('prog', ['spawned_call', 'oneline_runner'])
def test_next_past_a_returned_call_on_a_threads_last_line_ends_the_thread(prog, cmd, opt):
    # (stopped on the call's line after the callee returned: the call is
    # not waited for again, and the thread's end shows no runtime frame;
    # step, as in C, would enter printf where libc has a line table)
    out = gdb(build(prog, opt), 'break %s.cpc:9' % prog, 'run', 'finish',
              'skip -rfunction printf$', 'echo --step--\\n', cmd, 'kill')
    got = after_marker(out)
    assert THREAD_END_RE.search(got), out
    assert re.search(r'^\[Inferior 1 \(process \d+\) exited normally\]$', got, re.M), out
    assert 'waits for the call' not in got and 'deferred' not in got, out
    assert not re.search(r'sched_|cpc_sched|cpc_runtime\.h|__resume|__cps|cpc_k', got), out


@pytest.mark.parametrize('opt', ['-O0', '-O2'])
def test_next_over_a_call_on_a_threads_last_line_ends_the_thread_once_it_returned(opt):
    # (the spawned statement's line, where the thread runs it, not main's)
    out = gdb(build('spawned_call', opt),
              'break spawned_call.cpc:15 if $_any_caller_matches("^sched_trampoline$", 8)',
              'run', 'delete', 'echo --step--\\n', 'next', 'kill')
    got = after_marker(out)
    assert THREAD_END_RE.search(got), out
    assert re.search(r'^\[Inferior 1 \(process \d+\) exited normally\]$', got, re.M), out
    assert not re.search(r'sched_|cpc_sched|cpc_runtime\.h|__resume|__cps|cpc_k', got), out


@pytest.mark.parametrize('opt', ['-O0', '-O2'])
@pytest.mark.parametrize('prog', ['spawned_call', 'oneline_runner'])
def test_bt_on_a_threads_one_line_after_its_call_returned_shows_no_caller(prog, opt):
    # (the function's frame, still in the continuation past the call, is
    # its own, not a caller's: its line is the body's first and last)
    out = gdb(build(prog, opt), 'break %s.cpc:9' % prog, 'run', 'finish', 'echo --step--\\n',
              'bt', 'info frame', 'kill')
    got = after_marker(out)
    assert len(re.findall(r'(main\.spawn\.1|runner) \(\) at', got)) == 1, out
    assert 'waiting in the thread' not in got, out


@pytest.mark.parametrize('opt', ['-O0', '-O2'])
@pytest.mark.parametrize('cmd', ['next', 'step', 'until'])
def test_next_from_a_threads_closing_brace_goes_on_to_the_next_stop_in_the_users_code(cmd, opt):
    # (spawned_runner.cpc: runner's closing brace at 17, main's `return 0;` at 22)
    out = gdb(build('spawned_runner', opt), 'break spawned_runner.cpc:16', 'run', 'next',
              'break spawned_runner.cpc:22', 'echo --step--\\n', cmd, 'kill')
    assert re.search(r'^17\t\}$', out, re.M), out
    got = after_marker(out)
    assert THREAD_END_RE.search(got), out
    assert re.search(r'^Breakpoint 2, main \(\) at \S*spawned_runner\.cpc:22\n22\t', got, re.M), out
    assert not re.search(r'sched_|cpc_sched|cpc_runtime\.h|__resume|__cps|cpc_k', got), out


@pytest.mark.parametrize('opt', ['-O0', '-O2'])
def test_next_out_of_a_cps_function_names_its_caller_in_the_users_terms(opt):
    # (optimised, the caller's body is inlined into its resume function,
    # which gdb's own next would show: count__resume_1 (cpc_k=...) at 10)
    out = gdb(build('lines', opt), 'break lines.cpc:7', 'run', 'delete', 'next', 'next', 'next',
              'kill')
    assert re.search(r'^(#0  )?(0x[0-9a-f]+ in )?count \(n=3\) at \S*lines\.cpc:1[345]$|^1[45]\t',
                     out, re.M), out
    assert '__resume' not in out and 'cpc_k' not in out and ':10\n' not in out, out


# ---- a server: every thread, with the release runtime ------------------------------

SERVER_CLIENTS = 200
THREAD_RE = re.compile(r'^  CPC thread (\d+) \(0x[0-9a-f]+\): (.+)$')
FRAME_RE = re.compile(r'^    #(\d+)  ([A-Za-z_]\w*) \((.*)\)( \[[^]]*\])? at ([^:\s]+):(\d+)$')


def server_line(marker):
    with open(os.path.join(HERE, 'server.cpc')) as f:
        return next(n for n, ln in enumerate(f, 1) if marker in ln)


def server_threads(opt):
    """{thread number: (state, [(function, file, line)])} of info cpc-threads
    on tests/debug/server.cpc with its clients connected; the summary line."""
    exe = build('server', opt)
    out = gdb(exe, 'break server.cpc:%d' % server_line('/* LINE_READY */'),
              'run %d' % SERVER_CLIENTS, 'info cpc-threads', 'kill')
    threads, cur, summary = {}, None, None
    for ln in cpc_threads_listing(out):
        m = THREAD_RE.match(ln)
        f = FRAME_RE.match(ln)
        if m:
            cur = threads.setdefault(int(m.group(1)), (m.group(2), []))
        elif f:
            assert cur is not None and int(f.group(1)) == len(cur[1]), ln
            cur[1].append((f.group(2), os.path.basename(f.group(5)), int(f.group(6))))
        elif re.match(r'^\d+ CPC threads: ', ln):
            summary = ln
        else:
            assert ln.startswith(('CPC scheduler 0', '(release runtime')), (ln, out[-3000:])
    return threads, summary


@pytest.mark.parametrize('opt', ['-O0', '-O2'])
def test_info_cpc_threads_lists_every_thread_of_a_server_with_the_release_runtime(opt):
    threads, summary = server_threads(opt)
    n = SERVER_CLIENTS
    # inspector, ticker, acceptor; per client: the client, the connection's
    # reader and writer, the library's timeout thread of the reader
    assert len(threads) == 3 + 4 * n, summary
    assert summary == '%d CPC threads: 1 running, 1 sleeping, %d condvar, %d fd' % (
        3 + 4 * n, 2 * n, 2 * n + 1), summary
    where = {}
    for state, frames in threads.values():
        assert frames, state
        for a, b in zip(frames, frames[1:]):
            assert a[0] != b[0], (state, frames)        # no frame doubled
        where.setdefault(frames[0][0], set()).add((state.split(',')[0].split(' 0x')[0],
                                                  frames[0][1], frames[0][2]))
    assert where['ticker'] == {('sleeping', 'server.cpc', server_line('/* sleeps */'))}
    assert where['writer'] == {('waiting on condvar', 'server.cpc',
                                server_line('/* waits for a message */'))}
    (running,) = where['inspector']
    assert running[0].startswith('running (thread ') and \
        running[1:] == ('server.cpc', server_line('/* LINE_READY */')), running
    assert {(s, f) for s, f, _ in where['timeout_sleeper']} == {
        ('waiting on condvar', 'timeout.cpc')}, where['timeout_sleeper']
    # the readers and the clients wait in the library, called from their lines
    callers = {}
    for state, frames in threads.values():
        if frames[0][0] == 'cpc__lib_wait_fd':
            callers[frames[-1]] = callers.get(frames[-1], 0) + 1
    assert callers == {('reader', 'server.cpc', server_line('cpc_read_timeout(c->fd')): n,
                       ('client', 'server.cpc', server_line('/* waits for the reply */')): n,
                       ('acceptor', 'server.cpc', server_line('cpc_accept(lfd')): 1}, callers


@pytest.mark.parametrize('opt', ['-O0', '-O2'])
def test_a_thread_the_library_spawned_shows_the_function_it_will_run(opt):
    out = gdb(build('pending', opt), 'break pending.cpc:10', 'run', 'info cpc-threads', 'kill')
    got = normalise('\n'.join(cpc_threads_listing(out)))
    with open(os.path.join(TOP, 'lib', 'timeout.cpc')) as f:
        line = next(n for n, ln in enumerate(f, 1) if ln.startswith('timeout_sleeper('))
    assert '    #0  timeout_sleeper (t=0xADDR) [not started yet] at %s/lib/timeout.cpc:%d' % (
        TOP, line) in got.splitlines(), got


def test_a_variable_dead_across_a_call_is_optimized_out_until_it_is_set_again():
    # count's sq is not saved across square(n): after the resume, on the
    # call's line, it has no value yet; the line sets it
    out = gdb(build('lines', '-O0'), 'break lines.cpc:7', 'run', 'finish',
              'echo --at-13--\\n', 'info locals', 'next', 'echo --at-14--\\n', 'info locals',
              'kill')
    at13 = out[out.index('--at-13--'):out.index('--at-14--')]
    at14 = out[out.index('--at-14--'):]
    assert re.search(r'^sq = <optimized out>$', at13, re.M), out
    assert re.search(r'^sq = 9$', at14, re.M), out


def test_an_argument_dead_across_a_call_is_optimized_out_after_it():
    # report's n is not used after count(n): not restored when report resumes
    out = gdb(build('lines', '-O0'), 'break lines.cpc:22', 'run', 'info args', 'kill')
    assert re.search(r'^n = <optimized out>$', out, re.M), out


@pytest.mark.parametrize('view', ['bt', 'cpc bt', 'info cpc-threads'])
def test_a_callers_argument_dead_at_its_resume_is_optimized_out_in_the_backtrace(view):
    # twice(twice(n)): run resumes from the first call into the second with
    # n dead (its resume function passes a 0 in its place)
    out = gdb(build('twocalls', '-O0'), 'break twice', 'run', 'continue', 'echo --view--\\n',
              view, 'kill')
    got = out[out.index('--view--'):]
    assert re.search(r'#\d+\s+(0x[0-9a-f]+ in )?run \(n=<optimized out>\) at \S*twocalls\.cpc:11',
                     got), out
    assert 'n=0' not in got, out


def test_finish_says_which_breakpoint_it_stopped_at_on_the_way():
    # finish from the first call of twice; the thread meets the breakpoint
    # again in the second call before the line of the first call ends
    out = gdb(build('twocalls', '-O0'), 'break twice', 'run', 'finish', 'kill')
    after = out[out.index('waits for the call to return'):]
    assert re.search(r'^Breakpoint 1, twice \(v=10\) at \S*twocalls\.cpc:6\n6\t', after,
                     re.M), out


def test_a_variable_dead_across_two_calls_is_optimized_out_after_each():
    # sq is dead across both calls of twice: one entry of its dead table,
    # shared by both resume points, read through each
    exe = build('dead_shared', '-O0')
    for hit, line, value in ((1, 11, 9), (2, 13, 16)):
        out = gdb(exe, 'break dead_shared.cpc:7', 'run', *(['continue'] * (hit - 1)),
                  'finish', 'echo --resumed--\\n', 'info locals', 'next',
                  'echo --after--\\n', 'info locals', 'kill')
        resumed = out[out.index('--resumed--'):out.index('--after--')]
        after = out[out.index('--after--'):]
        assert re.search(r'^%d\t' % line, out[:out.index('--resumed--')].split(
            'waits for the call to return')[-1], re.M), out
        assert re.search(r'^sq = <optimized out>$', resumed, re.M), out
        assert re.search(r'^sq = %d$' % value, after, re.M), out


def test_the_dead_variables_at_a_resume_point_written_as_changes_are_exact():
    # walk's table says which of v0..v5 are dead at its first resume point
    # and then only what changes at each next one (dead_table.py): at the
    # fifth, v0..v3 hold their values and v4, v5 none until v4's line ends
    out = gdb(build('dead_changes', '-O0'), 'break dead_changes.cpc:7', 'run',
              *(['continue'] * 4), 'finish', 'echo --resumed--\\n', 'info locals', 'next',
              'echo --after--\\n', 'info locals', 'kill')
    resumed = out[out.index('--resumed--'):out.index('--after--')]
    after = out[out.index('--after--'):]
    assert re.search(r'^16\t', out[:out.index('--resumed--')].split(
        'waits for the call to return')[-1], re.M), out
    values = dict(re.findall(r'^(v\d) = (.*)$', resumed, re.M))
    assert values == {'v0': '2', 'v1': '3', 'v2': '4', 'v3': '5', 'v4': '<optimized out>',
                      'v5': '<optimized out>'}, out
    values = dict(re.findall(r'^(v\d) = (.*)$', after, re.M))
    assert values == {'v0': '2', 'v1': '3', 'v2': '4', 'v3': '5', 'v4': '6',
                      'v5': '<optimized out>'}, out


# ---- sleeping threads, release runtime -------------------------------------------

def sleepers_line(marker):
    with open(os.path.join(HERE, 'sleepers.cpc')) as f:
        return next(n for n, ln in enumerate(f, 1) if marker in ln)


NO_FRAME = '    (no frame: the function it waits in ended with the call, which keeps none)'


@pytest.mark.parametrize('opt', ['-O0', '-O2'])
def test_every_sleeping_thread_is_listed_with_its_function_and_line(opt):
    # release runtime: the sleepers are found in the timer heap; each shows
    # the function that sleeps (and its callers) at the line of the call
    out = gdb(build('sleepers', opt), 'break sleepers.cpc:%d' % sleepers_line('LINE_READY'),
              'run', 'info cpc-threads', 'kill')
    got = re.sub(r'sleeping, \d+\.\d+ s left', 'sleeping',
                 normalise('\n'.join(cpc_threads_listing(out))))
    at = sleepers_line
    assert got.splitlines() == [
        'CPC scheduler 0 (default, 0xADDR), driven by OS thread T (LWP N): 10 CPC threads',
        '  CPC thread 1 (0xADDR): running (thread T, LWP N)',
        '    #0  inspector () at sleepers.cpc:%d' % at('LINE_READY'),
        '  CPC thread 2 (0xADDR): runnable',
        '    #0  countdown (n=7) [not started yet] at sleepers.cpc:%d' % at('/* countdown */'),
        '  CPC thread 3 (0xADDR): sleeping',
        NO_FRAME,
        '  CPC thread 4 (0xADDR): sleeping',
        '    #0  with_args (left=43) at sleepers.cpc:%d' % at('/* with_args */'),
        '  CPC thread 5 (0xADDR): sleeping',
        '    #0  inner (half=21) at sleepers.cpc:%d' % at('/* inner */'),
        '    #1  outer (before=42) at sleepers.cpc:%d' % at('/* outer */'),
        '  CPC thread 6 (0xADDR): sleeping',
        '    #0  big (buf=...) at sleepers.cpc:%d' % at('/* big */'),
        '  CPC thread 7 (0xADDR): sleeping',
        '    #0  nap () [no frame: it ended with the call it waits in] at sleepers.cpc:%d'
        % at('/* nap */'),
        '    #1  napper (before=44) at sleepers.cpc:%d' % at('/* napper */'),
        '  CPC thread 8 (0xADDR): sleeping',
        '    #0  ticker (ticks=0) at sleepers.cpc:%d' % at('/* ticker */'),
        '  CPC thread 9 (0xADDR): sleeping',
        NO_FRAME,
        '  CPC thread 10 (0xADDR): sleeping',
        '    #0  with_args (left=54) at sleepers.cpc:%d' % at('/* with_args */'),
        '10 CPC threads: 1 running, 1 runnable, 8 sleeping',
        '(release runtime: a thread held by the program with cpc_park is listed with the '
        'debug runtime only, cpcc --cpc-debug)',
    ], got


@pytest.mark.parametrize('opt', ['-O0', '-O2'])
def test_a_cps_function_stopped_on_its_closing_brace_is_one_frame(opt):
    # the epilogue's first instructions drop the frame: stopped before them,
    # the continuation's top frame is the running invocation's own
    line = sleepers_line('LINE_READY') + 1
    out = gdb(build('sleepers', opt), 'break sleepers.cpc:%d' % line, 'run',
              'echo --bt--\\n', 'bt 2', 'info cpc-threads', 'kill')
    bt = out[out.index('--bt--'):]
    assert re.search(r'^#0 .*inspector \(\) at .*sleepers\.cpc:%d\n#\d+ .*sched_trampoline'
                     % line, bt, re.M), bt
    listing = cpc_threads_listing(out)
    i = listing.index(next(x for x in listing if x.startswith('  CPC thread 1 ')))
    assert listing[i + 1].startswith('    #0  inspector () at ') and \
        listing[i + 2].startswith('  CPC thread 2 '), listing


# ---- gdb's own lines in the user's terms ---------------------------------------------

def test_a_breakpoint_stop_names_the_users_function_and_arguments():
    out = gdb(build('lines', '-O0'), 'break lines.cpc:7', 'run', 'kill')
    assert re.search(r'^Breakpoint 1, square \(v=3\) at \S*lines\.cpc:7\n7\t    return v \* v;$',
                     out, re.M), out


def test_a_breakpoint_stop_in_optimised_code_names_the_users_function_and_arguments():
    # (at -O2 a stop at the first instruction of square's body inlined into
    # count's is reported at count's line: docs/debugging.md, Limits)
    out = gdb(build('lines', '-O2'), 'break lines.cpc:7', 'run', 'kill')
    m = re.search(r'^Breakpoint 1, (.*)$', out, re.M)
    assert m and re.fullmatch(r'(square \(v=3\)|count \(n=3\)) at \S*lines\.cpc:\d+',
                              m.group(1)), out


def test_a_breakpoint_stop_on_a_second_os_thread_names_the_thread_and_the_function():
    out = gdb(build('scheds', '-O0'), INSPECT_SECOND, 'run', 'kill')
    assert re.search(r'^Thread 2 "[^"]*" hit Breakpoint 1, look \(pass=2\) at \S*scheds\.cpc:56$',
                     out, re.M), out


def test_a_breakpoint_whose_commands_are_silent_prints_nothing():
    out = gdb(build('lines', '-O0'), script='break lines.cpc:7\ncommands\nsilent\necho hit\\n\n'
                                            'continue\nend\nrun\n')
    assert out.count('hit\n') == 3 and 'Breakpoint 1, ' not in out, out


def test_a_front_end_on_mi_gets_the_stop_record_of_a_breakpoint_with_its_frame():
    # (a silent breakpoint's MI stop record has no reason nor frame, which
    # front ends read: the extension leaves breakpoints alone under MI)
    r = subprocess.run(['gdb', '-nx', '--interpreter=mi2', '-iex', 'add-auto-load-safe-path ' +
                        GDB_DIR, build('lines', '-O0')],
                       input='-break-insert lines.cpc:13\n-exec-run\n', stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, text=True, timeout=60)
    assert re.search(r'^\*stopped,reason="breakpoint-hit",.*frame=\{.*line="13"', r.stdout,
                     re.M), r.stdout


# gdb's own views, printed without the extension's frame filter: the function
# holding a cps function's code carries the user's name in the debug
# information, so gdb names it by itself (the C caller above it, a resume
# stub or the entry, keeps its generated name).

def test_a_signal_stop_names_the_users_function():
    out = gdb(build('crash', '-O0'), 'run', 'kill')
    assert re.search(r'^Program received signal SIGSEGV, Segmentation fault\.\n'
                     r'0x[0-9a-f]+ in depth3 \(.*\) at \S*crash\.cpc:11$', out, re.M), out
    assert '__body' not in out, out


def test_break_on_a_cps_functions_name_stops_on_its_first_line():
    out = gdb(build('lines', '-O0'), 'break square', 'break count', 'run', 'continue', 'kill')
    assert re.search(r'^Breakpoint 1 at 0x[0-9a-f]+: file \S*lines\.cpc, line 6\.$', out,
                     re.M), out
    assert re.search(r'^Breakpoint 2, count \(n=3\) at \S*lines\.cpc:11\n11\t', out, re.M), out
    assert re.search(r'^Breakpoint 1, square \(v=3\) at \S*lines\.cpc:6\n6\t', out, re.M), out


def test_info_breakpoints_and_frame_name_the_users_function():
    out = gdb(build('lines', '-O0'), 'break lines.cpc:7', 'run', 'info breakpoints', 'frame',
              'kill')
    assert re.search(r'^1\s+breakpoint\s+keep y\s+0x[0-9a-f]+ in square at \S*lines\.cpc:7$',
                     out, re.M), out
    assert re.search(r'^#0  square \(.*\) at \S*lines\.cpc:7\n7\t', out, re.M), out
    assert '__body' not in out, out



@pytest.mark.parametrize('opt', ['-O0', '-O2'])
def test_break_on_a_cps_functions_name_stops_once_per_call(opt):
    # (optimised, the body is inlined into its resume functions too: a
    # thread going on after square's yield does not stop there again)
    script = ''.join('break %s\ncommands\nsilent\necho hit %s\\n\ncontinue\nend\n' % (f, f)
                     for f in ('square', 'count')) + 'run\n'
    out = gdb(build('lines', opt), script=script)
    assert 'total 14' in out, out
    assert out.count('hit square\n') == 3 and out.count('hit count\n') == 1, out


def test_finish_from_a_cps_function_without_resume_points_returns_to_its_caller():
    # (the function has a body of its own, called by its entry: it holds no
    # frame of the continuation, and its caller's frame is shown)
    # (leaf's first call is deferred: its entry runs from the trampoline,
    # called by leaf__bounce, one invocation with the body and the entry)
    out = gdb(build('leaf', '-O0'), 'break leaf.cpc:8', 'run', 'bt', 'finish', 'kill')
    assert re.search(r'^#0  leaf \(x=3\) at \S*leaf\.cpc:8\n    caller \(n=3, r=\S+\) at '
                     r'\S*leaf\.cpc:12\n#\d+ .* in sched_trampoline ', out, re.M), out
    assert re.search(r'^#0  caller \(n=3\) at \S*leaf\.cpc:12\n12\t', out, re.M), out


def test_a_native_function_named_like_generated_glue_keeps_its_name_in_bt_and_finish():
    out = gdb(build('glue_names', '-O0'), 'break tally__start', 'run', 'bt 2', 'finish', 'kill')
    assert re.search(r'^#0  tally__start \(x=3\) at \S*glue_names\.cpc:6\n#1  .* in run \(n=3\) '
                     r'at \S*glue_names\.cpc:14\n', out, re.M), out
    # finish returns to its C caller, as in C (no cps caller is waited for)
    assert re.search(r'^Value returned is \$1 = 4\n', out, re.M), out
    assert '[cpc:' not in out, out


# ---- a body cut into chunks (translator/cpc/emit/chunks.py) ----------------------------

# chunked.cpc: walk() has 140 resume points, one per line 15-154; its body
# is cut before line 79, and chunk 2 is the C function walk__body_2.  Two
# threads run it, report(5) and report(1000), taking turns at each yield.
IN_CHUNK_2 = 'break chunked.cpc:100 if n == 5'


def test_a_stop_in_a_later_chunk_is_shown_under_the_functions_name_with_its_arguments():
    out = gdb(build('chunked', '-O0'), IN_CHUNK_2, 'run', 'bt', 'echo --args--\\n',
              'info args', 'echo --locals--\\n', 'info locals', 'kill')
    assert re.search(r'^Breakpoint 1, walk \(n=5\) at \S*chunked\.cpc:100\n100\t', out, re.M), out
    assert re.search(r'^#0  walk \(n=5\) at \S*chunked\.cpc:100\n'
                     r'    report \(from=5\) at \S*chunked\.cpc:159\n#', out, re.M), out
    args = out[out.index('--args--\n') + 9:out.index('--locals--')].splitlines()
    locals_ = out[out.index('--locals--\n') + 11:].splitlines()
    assert args == ['n = 5'], out
    assert locals_[0] == 'total = 90' and not locals_[1].startswith(('n =', 'cpc_')), out
    assert '__body' not in out.replace('walk__body_2 at', ''), out


# Where thread 2 waits when thread 1 stops on line 100: lifted at -O0, the
# breakpoint is before line 100's call, thread 2 waits in line 99's, and its
# frame still holds the `total` stored before an earlier call (the call's
# result is not stored back: it is not live across it).  Optimised (walk's
# body, a large one, compiled at gcc's -O1: CPC_LARGE_FN) gcc merges the
# code before line 100's call with line 99's resume point, so the one
# location of line 100 is its own resume point, after thread 2 has made
# line 100's call; lifted, the frame's `total` is still the one stored
# before an earlier call; frame-resident (-O2's default), `total` is read in
# place, its current value.
LIFTED_CHUNK_WAIT = ['    #0  step (v=1084) at chunked.cpc:9',
                     '    #1  walk (n=1000, total=1064) at chunked.cpc:99']
LIFTED_O2_CHUNK_WAIT = ['    #0  step (v=1085) at chunked.cpc:9',
                        '    #1  walk (n=1000, total=1064) at chunked.cpc:100']
RESIDENT_CHUNK_WAIT = ['    #0  step (v=1085) at chunked.cpc:9',
                       '    #1  walk (n=1000, total=1085) at chunked.cpc:100']


@pytest.mark.parametrize('flags,wait', [(('-O0',), LIFTED_CHUNK_WAIT),
                                        (('-O2', '--dataflow=lifting'), LIFTED_O2_CHUNK_WAIT),
                                        (('-O2',), RESIDENT_CHUNK_WAIT)])
def test_info_cpc_threads_names_a_later_chunk_as_its_function_with_the_line_it_waits_on(
        flags, wait):
    out = gdb(build('chunked', *flags), IN_CHUNK_2, 'run', 'info cpc-threads', 'kill')
    got = normalise('\n'.join(cpc_threads_listing(out)))
    assert got.splitlines()[1:9] == [
        '  CPC thread 1 (0xADDR): running (thread T, LWP N)',
        '    #0  walk (n=5) at chunked.cpc:100',
        '    #1  report (from=5) at chunked.cpc:159',
        '  CPC thread 2 (0xADDR): runnable'] + wait + [
        '    #2  report (from=1000) at chunked.cpc:159',
        '2 CPC threads: 1 running, 1 runnable',
    ], got


def test_next_across_the_cut_of_a_chunked_body_goes_on_to_the_next_line():
    # line 78 is chunk 1's last, line 79 chunk 2's first
    out = gdb(build('chunked', '-O0'), 'break chunked.cpc:78 if n == 5', 'run', 'next',
              'print total', 'next', 'print total', 'kill')
    assert re.search(r'^#0  walk \(n=5\) at \S*chunked\.cpc:79\n79\t.*\n\$1 = 69\n', out,
                     re.M), out
    assert re.search(r'\n80\t.*\n\$2 = 70\n', out), out
    assert '__body' not in out and '__resume' not in out, out


def test_finish_from_a_callee_of_a_later_chunk_returns_to_the_line_of_the_call():
    # (total, assigned the call's result, holds no value until the line is done)
    out = gdb(build('chunked', '-O0'), 'break chunked.cpc:9 if v == 90', 'run', 'finish',
              'info locals', 'next', 'info locals', 'kill')
    assert re.search(r'\n#0  walk \(n=5\) at \S*chunked\.cpc:100\n100\t.*\n'
                     r'Value returned is \$\d+ = 91\n'
                     r'total = <optimized out>\n101\t.*\ntotal = 91\n', out), out


def test_a_breakpoint_on_a_line_of_a_chunked_body_has_one_location():
    # (the cut is on the closing brace's line, with the chunk's epilogue)
    out = gdb(build('chunked', '-O0'), *['break chunked.cpc:%d' % n for n in (78, 79, 100)])
    assert 'locations' not in out, out


# ---- frame, up, down, a signal's stop and info breakpoints in the user's terms ---------

def after(out, marker):
    return out[out.index(marker) + len(marker):]


@pytest.mark.parametrize('opt', ['-O0', '-O2'])
def test_frame_in_a_cps_function_shows_the_users_arguments_and_line(opt):
    out = gdb(build('lines', opt), 'break lines.cpc:7', 'run', 'echo --frame--\\n', 'frame',
              'kill')
    got = after(out, '--frame--\n')
    assert re.match(r'#0  square \(v=3\) at \S*lines\.cpc:7\n7\t    return v \* v;\n', got), out
    assert 'cpc_k' not in got and 'cpc_resume' not in got, out


@pytest.mark.parametrize('opt', ['-O0', '-O2'])
def test_up_from_a_resumed_cps_function_stops_below_its_callers_in_the_continuation(opt):
    # square was resumed by the scheduler: its C caller is square__resume_1
    # (at -O2 the body is inlined into it), part of square's invocation, and
    # count and report, which bt shows above it, have no C frame
    out = gdb(build('lines', opt), 'break lines.cpc:7', 'run', 'echo --up--\\n', 'up',
              'echo --up-3--\\n', 'up 3', 'echo --down--\\n', 'down', 'kill')
    part = dict(re.findall(r'--([\w-]+)--\n(.*?)(?=\n--|\Z)', out, re.S))
    assert part['up'] == ("Initial frame selected; you cannot go up: square's callers (count, "
                          "report) wait in the thread's continuation, not on the stack (bt and "
                          "cpc bt show them)"), out
    assert re.match(r'#0  square \(v=3\) at \S*lines\.cpc:7\n7\t', part['up-3']), out
    assert part['down'].startswith('Bottom (innermost) frame selected; you cannot go down.'), out
    assert '__resume' not in out and 'cpc_k' not in out and 'sched_' not in out, out


def test_up_from_a_callee_reaches_its_cps_caller_in_one_step():
    # count's second call runs square's body at once: square's C caller is
    # its entry square__cps, whose caller is count's body
    out = gdb(build('lines', '-O0'), 'break lines.cpc:13', 'run', 'continue', 'step',
              'echo --up--\\n', 'up', 'echo --down--\\n', 'down', 'kill')
    assert re.match(r'#\d+  0x[0-9a-f]+ in count \(n=2\) at \S*lines\.cpc:13\n13\t',
                    after(out, '--up--\n')), out
    assert re.match(r'#0  square \(v=2\) at \S*lines\.cpc:6\n6\t', after(out, '--down--\n')), out


def test_up_from_a_cps_caller_on_the_stack_stops_below_the_callers_waiting():
    # square runs at once from count's body, count was resumed: report waits
    out = gdb(build('lines', '-O0'), 'break lines.cpc:13', 'run', 'continue', 'step',
              'up', 'echo --up--\\n', 'up', 'kill')
    assert after(out, '--up--\n').startswith(
        "Initial frame selected; you cannot go up: count's callers (report) wait in the "
        "thread's continuation"), out


@pytest.mark.parametrize('opt', ['-O0', '-O2'])
def test_frame_shows_an_argument_dead_across_a_call_optimized_out(opt):
    # report's n is not used after count(n): not restored when report resumes
    out = gdb(build('lines', opt), 'break lines.cpc:22', 'run', 'echo --frame--\\n', 'frame',
              'kill')
    assert re.match(r'#0  report \(n=<optimized out>\) at \S*lines\.cpc:22\n22\t',
                    after(out, '--frame--\n')), out


def test_frame_up_and_down_keep_gdbs_arguments_and_errors():
    out = gdb(build('lines', '-O0'), 'break lines.cpc:7', 'run',
              'echo --down--\\n', 'down', 'echo --to-level-3--\\n', 'frame level 3',
              'echo --up-100--\\n', 'up 100',
              'echo --up--\\n', 'up', 'echo --down-1--\\n', 'down 1',
              'echo --frame-function--\\n', 'frame function square',
              'echo --frame-1--\\n', 'frame 1', 'echo --frame-level-3--\\n', 'frame level 3',
              'echo --frame-apply--\\n', 'frame apply 1 -q print 5', 'echo --end--\\n', 'kill')
    part = dict(re.findall(r'--([\w-]+)--\n(.*?)(?=\n--|\Z)', out, re.S))
    assert part['down'] == 'Bottom (innermost) frame selected; you cannot go down.', out
    assert re.match(r'#\d+  0x[0-9a-f]+ in main \(\) at \S*lines\.cpc:27\n27\t', part['up-100'])
    assert part['up'] == 'Initial frame selected; you cannot go up.', out
    assert re.match(r'#\d+  0x[0-9a-f]+ in cpc_scheduler_run ', part['down-1']), out
    # (frame 1, square__resume_1, is part of square's invocation)
    for p in ('frame-function', 'frame-1'):
        assert re.match(r'#0  square \(v=3\) at \S*lines\.cpc:7\n7\t', part[p]), out
    assert re.match(r'#3  sched_loop \(', part['frame-level-3']), out
    assert part['frame-apply'] == '$1 = 5', out


@pytest.mark.parametrize('opt', ['-O0', '-O2'])
def test_a_signal_stop_in_cps_code_shows_the_users_frame_line(opt):
    # (gdb's printing settings are put back after the stop)
    out = gdb(build('crash', opt), 'run', 'show print frame-info', 'show print address', 'kill')
    assert re.search(r'^Program received signal SIGSEGV, Segmentation fault\.\n'
                     r'(0x[0-9a-f]+ in )?depth3 \(z=<optimized out>\) at \S*crash\.cpc:11\n'
                     r'11\t    return \*nowhere \+ local3;\n'
                     r'Printing of frame information is "auto"\.\n'
                     r'Printing of addresses is on\.$', out, re.M), out
    assert 'cpc_k' not in out, out


@pytest.mark.parametrize('opt', ['-O0', '-O2'])
def test_info_breakpoints_names_a_later_chunk_as_its_function(opt):
    out = gdb(build('chunked', opt), 'break walk', 'break chunked.cpc:100', 'info breakpoints')
    rows = [x for x in out.splitlines() if re.match(r'\d', x) and ' in ' in x]
    assert rows and all(re.search(r' in walk at \S*chunked\.cpc:(13|14|100)$', x) for x in rows) \
        and any(x.endswith(':100') for x in rows), out


def test_info_breakpoints_is_gdbs_table_otherwise():
    # the table is made from gdb's maint table: compared with gdb's own,
    # without the extension
    script = 'break main\ntbreak lines.cpc:22\nrun\ncontinue\nwatch total\ndisable 1\n' \
             'break lines.cpc:27 if 1\necho --all--\\n\ninfo breakpoints\n' \
             'echo --some--\\n\ninfo breakpoints 2-3\necho --none--\\n\ninfo breakpoints 9\n' \
             'echo --end--\\n\n'
    with_ext = gdb(build('lines', '-O0'), script=script)
    with tempfile.NamedTemporaryFile('w', suffix='.gdb') as f:
        f.write(script)
        f.flush()
        without = subprocess.run(['gdb', '-nx', '-batch', '-iex', 'set auto-load python-scripts '
                                  'off', '-x', f.name, build('lines', '-O0')],
                                 stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                                 timeout=60).stdout
    assert with_ext[with_ext.index('--all--'):with_ext.index('--end--')] == \
        without[without.index('--all--'):without.index('--end--')], (with_ext, without)
    assert 'Num ' in with_ext and 'No breakpoint or watchpoint matching' in with_ext


def test_frame_up_and_down_without_a_process_say_what_gdb_says():
    cmds = ('frame', 'up', 'down 2', 'frame 1', 'info breakpoints', 'info breakpoints 3')
    with_ext = gdb(build('lines', '-O0'), *cmds)
    without = subprocess.run(['gdb', '-nx', '-batch', '-iex', 'set auto-load python-scripts off'] +
                             sum((['-ex', c] for c in cmds), []) + [build('lines', '-O0')],
                             stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                             timeout=60).stdout
    assert with_ext.splitlines()[-6:] == without.splitlines()[-6:], (with_ext, without)
    assert with_ext.splitlines()[-6:] == ['No stack.'] * 3 + [
        'No registers.', 'No breakpoints or watchpoints.',
        "No breakpoint or watchpoint matching '3'."], with_ext


def test_a_front_end_on_mi_gets_gdbs_own_frame_commands():
    # (under MI the extension replaces no command: `up` selects gdb's frame 1,
    # the resume function, which the front end reads with -stack-info-frame)
    r = subprocess.run(['gdb', '-nx', '--interpreter=mi2', '-iex', 'add-auto-load-safe-path ' +
                        GDB_DIR, build('lines', '-O0')],
                       input='-break-insert lines.cpc:7\n-exec-run\n'
                             '-interpreter-exec console "up"\n-stack-info-frame\n-gdb-exit\n',
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=60)
    assert re.search(r'^\^done,frame=\{level="1",.*func="square__resume_1"', r.stdout,
                     re.M), r.stdout


def test_a_users_hook_stop_is_kept_and_the_extension_says_what_it_gives_up():
    with tempfile.NamedTemporaryFile('w', suffix='.gdb') as f:
        f.write('define hook-stop\necho mine\\n\nend\n')
        f.flush()
        r = subprocess.run(['gdb', '-nx', '-batch', '-ix', f.name, '-iex',
                            'add-auto-load-safe-path ' + GDB_DIR, '-ex', 'run', '-ex', 'kill',
                            build('crash', '-O0')], stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, text=True, timeout=60)
    assert "cpc-gdb: keeping your hook-stop; a signal's stop in a cps function will be " \
        "printed in C's terms" in r.stdout, r.stdout
    assert re.search(r'^Program received signal SIGSEGV.*\nmine\n', r.stdout, re.M), r.stdout


def test_finish_from_a_cps_function_prints_no_stop_in_its_c_caller():
    # (gdb's stop in the C caller, square__resume_1, is not printed: not its
    # line, the declaration's, nor its C result; the printing settings are
    # put back after it)
    out = gdb(build('lines', '-O0'), 'break lines.cpc:7', 'run', 'finish', 'show print finish',
              'show print frame-info', 'show print address', 'show suppress-cli-notifications',
              'kill')
    assert '__resume' not in out and 'cpc_continuation' not in out and 'cpc_k' not in out, out
    assert 'cps int square' not in out and '<not displayed>' not in out, out
    assert re.search(r'\n7\t    return v \* v;\n\[cpc: [^\n]*\]\n'
                     r'#0  count \(n=3\) at \S*lines\.cpc:13\n13\t.*\n'
                     r'Value returned is \$\d+ = 9\n'
                     r'Printing of return value after `finish\' is on\.\n'
                     r'Printing of frame information is "auto"\.\n'
                     r'Printing of addresses is on\.\n'
                     r'Suppression of printing CLI notifications is off\.\n', out), out


def test_finish_from_a_cps_function_prints_the_value_it_returned():
    # square(3) returns 9 to count, count returns 1 + 4 + 9 to report; the
    # value is the last of gdb's value history, as finish puts it there
    # (at -O2: test_finish_at_o2_ends_in_the_callers_code_in_the_users_terms)
    out = gdb(build('lines', '-O0'), 'break lines.cpc:7', 'run', 'delete', 'finish',
              'echo --last--\\n', 'print $', 'break lines.cpc:17', 'continue', 'finish',
              'echo --last--\\n', 'print $', 'kill')
    got = re.findall(r'^Value returned is \$\d+ = (.*)\n--last--\n\$\d+ = (.*)$', out, re.M)
    assert got == [('9', '9'), ('14', '14')], out
    assert 'cpc_continuation' not in out, out


def test_finish_at_o2_ends_in_the_callers_code_in_the_users_terms():
    # (square's body is inlined into square__resume_1, count's into
    # count__resume_1, where count goes on after the call: gcc merged the
    # end of line 13, the result's store, into line 14's first instruction)
    out = gdb(build('lines', '-O2'), 'break lines.cpc:7', 'run', 'delete', 'finish',
              'info locals', 'kill')
    got = out[out.index('return v * v;'):]
    assert re.search(r'^#0  (0x[0-9a-f]+ in )?count \(n=3\) at \S*lines\.cpc:1[34]\n1[34]\t.*\n'
                     r'Value returned is \$\d+ = 9\nsq = 9\ntotal = 0\n', got, re.M), out
    assert '__resume' not in out and 'cpc_k' not in out and 'cpc_resume' not in out, out


def test_the_extension_loaded_again_prints_a_stop_once():
    # (auto-loaded from the program's section, then sourced by hand)
    out = gdb(build('lines', '-O0'), 'source ' + os.path.join(GDB_DIR, 'cpc-gdb.py'),
              'break lines.cpc:7', 'run', 'kill')
    assert out.count('Breakpoint 1, square (v=3)') == 1, out


def finish_at_a_terminal(exe, *before, after=()):
    """gdb's output for finish run as typed at a terminal (gdb prints `Run
    till exit from` for a command from a terminal only)."""
    return gdb(exe, *before, 'python gdb.execute("finish", from_tty=True)', *after, 'kill')


@pytest.mark.parametrize('opt', ['-O0', '-O2'])
def test_finish_typed_at_a_terminal_runs_till_exit_from_the_users_function(opt):
    # the user's function, its arguments and its .cpc line, as for a C
    # function (not the body's cpc_k and cpc_resume, not elided)
    out = finish_at_a_terminal(build('lines', opt), 'break lines.cpc:7', 'run', 'delete',
                               after=['show print frame-arguments', 'show logging enabled'])
    assert re.search(r'^Run till exit from #0  square \(v=3\) at \S*lines\.cpc:7\n', out,
                     re.M), out
    assert 'cpc_k' not in out and '(...)' not in out, out
    # (then the rest of finish as without a terminal, and the settings back)
    assert re.search(r'^#0  (0x[0-9a-f]+ in )?count \(n=3\) at \S*lines\.cpc:1[34]\n', out,
                     re.M), out
    assert re.search(r'^Value returned is \$\d+ = 9$', out, re.M), out
    assert 'Printing of non-scalar frame arguments is "scalars".' in out, out
    assert 'Logging is disabled.' in out, out


def test_finish_typed_at_a_terminal_from_a_later_chunk_names_the_users_function():
    out = finish_at_a_terminal(build('chunked', '-O0'), 'break chunked.cpc:100', 'run',
                               'delete')
    assert re.search(r'^Run till exit from #0  walk \(n=5\) at \S*chunked\.cpc:100\n', out,
                     re.M), out
    assert '__body' not in out, out


def test_finish_typed_at_a_terminal_prints_the_breakpoint_met_on_the_way():
    out = finish_at_a_terminal(build('twocalls', '-O0'), 'break twice', 'run')
    assert re.search(r'^Run till exit from #0  twice \(v=5\) at \S*twocalls\.cpc:6\n'
                     r'\[cpc: the thread waits for the call to return.*\]\n\n'
                     r'Breakpoint 1, twice \(v=10\) at \S*twocalls\.cpc:6\n6\t', out, re.M), out


# ---- gdb's own stops on the way of next, step and finish ------------------------------

def test_next_over_a_cps_call_prints_no_stop_in_the_body_epilogue():
    # (gdb's next ends on count's closing line, where the body returned to
    # the scheduler; the extension goes on from there: that stop is not the
    # user's)
    out = gdb(build('lines', '-O0'), 'break lines.cpc:13', 'run', 'echo --next--\\n', 'next',
              'echo --end--\\n', 'kill')
    assert after(out, '--next--\n').startswith(
        '[cpc: the thread waits for the call to return; running other threads until it '
        'resumes]\n14\t        total += sq;\n--end--\n'), out


def test_step_into_a_deferred_call_prints_no_stop_in_the_callers_epilogue():
    out = gdb(build('lines', '-O0'), 'break lines.cpc:13', 'run', 'echo --step--\\n', 'step',
              'echo --end--\\n', 'kill')
    assert re.match(r'\[cpc: the call was deferred; running other threads until the callee '
                    r'starts\]\n#0  square \(v=3\) at \S*lines\.cpc:6\n6\t    cpc_yield\(\);\n'
                    r'--end--\n', after(out, '--step--\n')), out


@pytest.mark.parametrize('opt', ['-O0', '-O2'])
def test_a_signal_met_while_the_extension_runs_other_threads_is_printed_in_the_users_terms(opt):
    # finish from depth3 before its yield: the thread resumes after the
    # yield, on the way to depth2, and dereferences NULL
    out = gdb(build('crash', opt), 'break crash.cpc:10', 'run', 'delete', 'echo --finish--\\n',
              'finish', 'echo --end--\\n', 'show suppress-cli-notifications', 'kill')
    assert re.match(r'\[cpc: [^\n]*\]\n\nProgram received signal SIGSEGV, Segmentation fault\.\n'
                    r'(0x[0-9a-f]+ in )?depth3 \(z=<optimized out>\) at \S*crash\.cpc:11\n'
                    r'11\t    return \*nowhere \+ local3;\n--end--\n'
                    r'Suppression of printing CLI notifications is off\.\n',
                    after(out, '--finish--\n')), out


# ---- info frame, frame apply, faas ---------------------------------------------------

@pytest.mark.parametrize('opt', ['-O0', '-O2'])
def test_info_frame_of_a_resumed_cps_function_is_in_the_users_terms(opt):
    out = gdb(build('lines', opt), 'break lines.cpc:7', 'run', 'echo --info--\\n', 'info frame',
              'kill')
    got = after(out, '--info--\n')
    assert re.match(r'Stack level 0, frame at 0x[0-9a-f]+:\n'
                    r' rip = 0x[0-9a-f]+ in square \(\S*lines\.cpc:7\); saved rip = 0x[0-9a-f]+\n'
                    r" called by count, report \(waiting in the thread's continuation, no frame "
                    r"on the stack\)\n", got), out
    # (optimised, gdb lists no arguments for a function inlined, square's
    # body in square__resume_1, and no frame it is inlined into)
    assert re.search(r'^ Arglist at .*, args: v=3$', got, re.M) if opt == '-O0' else \
        ' inlined into' not in got, out
    assert 'cpc_k' not in got and 'cpc_resume' not in got and '__resume' not in got, out


def test_info_frame_links_a_cps_invocation_to_the_frames_bt_shows_around_it():
    # square(2) runs at once from count's body, through square__cps: square
    # is called by count's frame and returns into count's code
    out = gdb(build('lines', '-O0'), 'break lines.cpc:13', 'run', 'continue', 'step',
              'echo --square--\\n', 'info frame', 'up', 'echo --count--\\n', 'info frame',
              'info frame level 0', 'kill')
    square = out[out.index('--square--'):out.index('--count--')]
    count = after(out, '--count--\n')
    cfa_count = re.match(r'Stack level 2, frame at (0x[0-9a-f]+):\n rip = (0x[0-9a-f]+) in '
                         r'count \(', count)
    assert cfa_count, out
    assert ' called by frame at %s\n' % cfa_count.group(1) in square, out
    assert '; saved rip = %s\n' % cfa_count.group(2) in square, out
    cfa_square = re.search(r'Stack level 0, frame at (0x[0-9a-f]+):', square).group(1)
    assert " called by report (waiting in the thread's continuation, no frame on the stack), " \
           "caller of frame at %s\n" % cfa_square in count, out
    # (info frame level 0 describes square as `info frame` did there)
    assert count.count('in square (') == 1 and 'args: v=2' in count, out
    assert '__cps' not in out and 'cpc_k' not in out, out


@pytest.mark.parametrize('opt', ['-O0', '-O2'])
def test_frame_apply_names_each_frame_as_bt_numbers_it(opt):
    out = gdb(build('lines', opt), 'break lines.cpc:7', 'run', 'echo --bt--\\n', 'bt',
              'echo --apply--\\n', 'frame apply all p 1', 'echo --frame--\\n', 'frame', 'kill')
    bt = out[out.index('--bt--'):out.index('--apply--')]
    apply = out[out.index('--apply--'):out.index('--frame--')]
    numbered = re.findall(r'^#\d+ .*$', bt, re.M)
    assert re.findall(r'^#\d+ .*$', apply, re.M) == numbered, out
    assert len(re.findall(r'^\$\d+ = 1$', apply, re.M)) == len(numbered), out
    assert 'cpc_k' not in apply and '__resume' not in apply, out
    # (the selected frame is put back)
    assert after(out, '--frame--\n').startswith('#0  square (v=3)'), out


def test_faas_applies_a_command_to_the_users_frames_where_it_works():
    out = gdb(build('lines', '-O0'), 'break lines.cpc:13', 'run', 'continue', 'step',
              'echo --faas--\\n', 'faas p total', 'echo --end--\\n', 'kill')
    assert re.match(r'#2  0x[0-9a-f]+ in count \(n=2\) at \S*lines\.cpc:13\n\$1 = 9\n--end--',
                    after(out, '--faas--\n')), out


@pytest.mark.parametrize('opt', ['-O0', '-O2'])
def test_finish_from_a_threads_first_function_ends_in_the_scheduler(opt):
    # report, spawned by main, has no cps caller: its C caller is its resume
    # function, called by the scheduler's trampoline, where finish ends (as
    # C's finish out of a thread's function ends in the thread library)
    out = gdb(build('lines', opt), 'break lines.cpc:22', 'run', 'echo --finish--\\n', 'finish',
              'echo --end--\\n', 'kill')
    got = out[out.index('--finish--'):out.index('--end--')]
    assert "[cpc: report was the thread's first function: its return ends the thread]\n" in got, out
    assert re.search(r'^(#0  )?(0x[0-9a-f]+ in )?sched_trampoline \(', got, re.M), out
    assert '__resume' not in got and 'Value returned' not in got, out


def test_next_at_o2_over_a_cps_call_goes_on_to_the_next_line():
    # (count's body is inlined into count__resume_1, where the thread goes
    # on after square(n); gdb's next from there took the jump into the next
    # iteration's square__cps for a return into it)
    out = gdb(build('lines', '-O2'), 'break lines.cpc:13', 'run', 'delete', 'echo --next--\\n',
              *(['next'] * 5), 'kill')
    got = after(out, '--next--\n')
    assert [int(x) for x in re.findall(r'^(\d+)\t', got, re.M)] == [14, 15, 12, 13, 14], out
    assert '__cps' not in got and 'cpc_k' not in got, out


@pytest.mark.parametrize('opt', ['-O0', '-O2'])
def test_break_on_a_cps_function_has_its_locations_in_its_own_code(opt):
    # (optimised, the entry square__cps runs square's body inlined, which
    # starts with the push of its frame: code of square's, not of a runtime
    # header's inline function, at square's own line)
    out = gdb(build('lines', opt), 'break square', 'info breakpoints', 'run', 'kill')
    rows = re.findall(r'^1(?:\.\d+)?\s.* in (\S+) at (\S+):(\d+)$', out, re.M)
    assert rows and all(f == 'square' and os.path.basename(p) == 'lines.cpc' and 5 <= int(n) <= 8
                        for f, p, n in rows), out
    assert re.search(r'^Breakpoint 1, square \(v=3\) at \S*lines\.cpc:[56]\n', out, re.M), out
    assert 'cpc_runtime.h' not in out, out


@pytest.mark.parametrize('flags', [('-O2',), ('-O2', '--dataflow=lifting')])
def test_locals_read_and_written_in_the_frame_are_shown_by_info_locals_and_bt_full(flags):
    # (at -O2 count's `total` and `n` live in its frame, read and written
    # there in place, unless --dataflow=lifting: the views show the same)
    out = gdb(build('lines', *flags), 'break lines.cpc:15', 'run', 'bt full 1', 'continue',
              'echo --locals--\\n', 'info locals', 'echo --args--\\n', 'info args', 'kill')
    assert re.search(r'^#0  count \(n=3\) at \S*lines\.cpc:15\n(        .*\n)*'
                     r'        total = 9\n', out, re.M), out
    locals_ = out[out.index('--locals--\n') + 11:out.index('--args--')].splitlines()
    args = out[out.index('--args--\n') + 9:].splitlines()
    assert 'total = 13' in locals_ and 'sq = 4' in locals_, out
    assert args[0] == 'n = 2', out
