"""What next, step and finish carry from one hook to the next: gdb runs
hook-CMD, the command, the stop's hooks and hookpost-CMD as separate
commands, and the modules of the extension that run in them share these."""

step = None             # (kind, breakpoint, frame, mode, into) between a command and its hook
last_stop = None        # the last stop event
saved_print = None      # the settings to put back after a stop's print
finish_caller = None    # the C frame where a quiet finish is to stop
continuing = False      # within step_finish._continue
quiet_step = False      # gdb's stop ending a next/step not printed: the hook goes on
continued = False       # _continue ran in this _after_step
signal_where = None     # a signal's stop within _continue: its frame line, printed there


def on_stop(event):
    global last_stop
    last_stop = event
