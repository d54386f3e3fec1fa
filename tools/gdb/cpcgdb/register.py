"""The extension's registration with gdb: its commands, frame filter,
next/step/finish hooks and event handlers."""

import gdb

from . import state
from .breakpoint_stop import _MI, _print_breakpoint_stop, _silence
from .entry_breakpoints import (_drop_bounce_notes, _FirstPass, _one_stop_per_call,
                                _skip_resume_copies)
from .filter import CpcFrameFilter, FrameDecorator
from .frame_commands import _replace_commands
from .glue import skip_runtime
from .print_command import replace_print_commands
from .step_finish import _after_step
from .step_targets import _before_step
from .stop_print import _before_stop_print, _restore_stop_print
from .tables import _forget_dead_tables
from .type_macros import define as _define_type_macros, release as _release_type_macros
from .thread_commands import CpcBt, CpcPrefix, CpcThreadCmd, InfoCpcThreads
from .variables import InfoCpcLocals

_registered = False


class _Hook(gdb.Command):
    def __init__(self, name, fn, kind):
        super().__init__(name, gdb.COMMAND_NONE)
        self.fn, self.kind = fn, kind

    def invoke(self, arg, from_tty):
        self.fn(self.kind)


def _define_hook(name, body, lost='next/step/finish will not follow CPC threads across '
                                   'cps calls'):
    """Define a user hook unless one not made here exists (then say so:
    what the extension will not do without it)."""
    try:
        old = gdb.execute('show user %s' % name, to_string=True)
    except gdb.error:
        old = ''
    if old.strip() and body not in old:
        gdb.write('cpc-gdb: keeping your %s; %s\n' % (name, lost))
        return
    if not old.strip():
        gdb.execute('define %s\n%s\nend' % (name, body))


def _define_hooks():
    for kind in ('next', 'step', 'finish'):
        _define_hook('hook-' + kind, 'cpc-before-' + kind)
        _define_hook('hookpost-' + kind, 'cpc-after-' + kind)
    for hook in ('hook-until', 'hookpost-until'):
        _define_hook(hook, 'cpc-%s-until' % ('before' if hook == 'hook-until' else 'after'),
                     "until will stop in the scheduler past a thread's first function")
    if not _MI:
        for kind in ('ptype', 'whatis'):
            _define_hook('hook-' + kind, 'cpc-before-type', "%s will not name a cps "
                         "function's variables that live in its frame" % kind)
            _define_hook('hookpost-' + kind, 'cpc-after-type', 'the macros naming a cps '
                         "function's variables will stay defined until the next prompt")
    if not _MI and FrameDecorator is not object:
        _define_hook('hook-stop', 'cpc-before-stop-print',
                     "a signal's stop in a cps function will be printed in C's terms")


def _define_hooks_at_stop(event):
    gdb.events.stop.disconnect(_define_hooks_at_stop)
    _define_hooks()


def register():
    """Register the extension's commands, frame filter, hooks and event
    handlers with gdb, once however many times the entry script runs."""
    global _registered
    if _registered:
        return
    _registered = True
    _FirstPass()
    skip_runtime()
    for kind in ('next', 'step', 'finish', 'until'):
        _Hook('cpc-before-' + kind, _before_step, kind)
        _Hook('cpc-after-' + kind, _after_step, kind)
    _Hook('cpc-before-stop-print', _before_stop_print, 'stop')
    _Hook('cpc-before-type', _define_type_macros, None)
    _Hook('cpc-after-type', _release_type_macros, None)
    # Loaded with libcpc.so, the script runs while `run` loads the program's
    # shared libraries, and a `define` there would end `run` early (the program
    # is left running): the hooks are defined at the program's first stop.
    if gdb.selected_inferior().pid:
        gdb.events.stop.connect(_define_hooks_at_stop)
    else:
        _define_hooks()
    for bp in gdb.breakpoints():
        _silence(bp)
        _skip_resume_copies(bp)
        _one_stop_per_call(bp)
    # (an extension loaded before this one, another copy of it, gives up
    # its handlers: a stop is printed once)
    for registry, fn in getattr(gdb, '_cpc_gdb_handlers', []):
        registry.disconnect(fn)
    gdb._cpc_gdb_handlers = [
        (gdb.events.stop, state.on_stop),
        (gdb.events.stop, _restore_stop_print),
        (gdb.events.breakpoint_created, _silence),
        (gdb.events.breakpoint_created, _skip_resume_copies),
        (gdb.events.breakpoint_modified, _skip_resume_copies),
        (gdb.events.breakpoint_created, _one_stop_per_call),
        (gdb.events.breakpoint_modified, _one_stop_per_call),
        (gdb.events.stop, _drop_bounce_notes),
        (gdb.events.stop, _print_breakpoint_stop),
        (gdb.events.new_objfile, _forget_dead_tables),
        (gdb.events.clear_objfiles, _forget_dead_tables),
    ]
    for registry, fn in gdb._cpc_gdb_handlers:
        registry.connect(fn)

    InfoCpcLocals('locals')
    InfoCpcLocals('args')
    InfoCpcThreads()
    CpcThreadCmd()
    CpcPrefix()
    CpcBt()
    if FrameDecorator is not object:
        CpcFrameFilter()
        if not _MI:
            _replace_commands()
            replace_print_commands()
    gdb.set_convenience_variable('cpc_gdb_loaded', 1)
