"""gdb support for CPC programs: CPC threads and their continuations.

The package behind tools/gdb/cpc-gdb.py, the script gdb loads (register.py
registers what follows).  Its modules, one job each: names.py (the names of
generated C functions), runtime.py (reading the runtime's memory and
structures), symbols.py, continuation.py (a continuation's frames),
resume_lines.py and tables.py (where a frame waits and which of its
variables hold values: the labels F__resumed_N and the translator's tables
F__lines, F__dead, F__resident; decode.py reads their texts), spawns.py,
cpsframe.py, variables.py, stacks.py (running threads), tailcalls.py,
threads.py and heap.py (finding every thread), thread_commands.py, filter.py
(the frame filter), shown.py, frame_commands.py, frame_apply.py,
info_frame.py, info_breakpoints.py (bp_table.py rewrites gdb's table),
breakpoint_stop.py, entry_breakpoints.py, stop_print.py, and
next/step/finish: resume_breakpoints.py, step_targets.py, step_end.py,
step_finish.py, state.py; glue.py (skip rules).  The modules that read the
program import gdb; decode.py and bp_table.py do not (tests/debug/
test_decode.py and test_bp_table.py test them without gdb).

Commands:
  info cpc-threads     every CPC thread: its state and its logical backtrace
  cpc-thread N         select CPC thread N and print its backtrace
  cpc bt [N]           the backtrace of the selected (or Nth) CPC thread
and a frame filter: `bt` inside a cps function shows, below the innermost
real frames, the cps callers waiting in the thread's continuation; the stop
at a user's breakpoint or for a signal, the frame where next/step/finish go
on, and `frame`, `up` and `down` (replaced here: they move over the frames
`bt` numbers) are printed as that filter shows them (the cps function, the
user's arguments), and `info breakpoints` (replaced) names a location in a
generated function after its cps function.

What this reads (docs/debugging.md says it at more length):
  - a continuation (struct cpc_continuation: length, c[]) is a stack of
    frames, each ending with its function pointer cpc_fn; translated code
    names them F__resume_N (struct F__frame: the variables of F saved at
    its call N) or, in a body with many resume points, F__dispatch or
    F__dispatch_K (its chunk K) with N in the frame's word below cpc_fn
    (cpc_point), F__bounce (struct F__args: a deferred entry of F) and
    S__start (struct S__start_args: a thread not started yet);
  - the line where F waits is the line of resume point N (the label
    F__resumed_N, or the table F__lines);
  - the schedulers: every struct cpc_sched on the runtime's list
    (world_list, cpc_sched.c, through `next`), the OS thread driving each
    (`driver`, a pthread_t); per scheduler its run queue (runnable; the
    rest of the current pass hangs off the running thread's cpc_next), its
    inbox, its timer heap (tmr_heap/tmr_n) and its fd wait lists
    (io_fds/io_nfds, linked through the wait record above the top frame);
    the default pool's queue (cpc_default_threadpool, struct cpc__pool),
    and OS threads' stacks (running threads);
  - with the debug runtime (--cpc-debug), the registries cpc__dbg_threads
    (thread numbers, spawn sites) and cpc__dbg_condvars (their waiters).
"""
