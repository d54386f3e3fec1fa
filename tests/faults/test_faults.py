"""One test per class of failure under resource exhaustion (issue classes:
allocations in generated code, the library's allocation policy, out of
memory as an exit rather than an abort, descriptors closed under a waiter,
continuations on a second scheduler).

Each test makes one precise allocation fail: the program arms the fault
shim (libfaultshim.so, LD_PRELOAD) itself, with cpc_fault_arm, right before
the operation under test, so the test does not depend on how many
allocations came before.  Run by `make test-faults`, which sets FAULTSHIM
and CPCC."""
import os
import subprocess

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
PROGRAMS = os.path.join(HERE, 'programs')
CPCC = os.environ.get('CPCC', os.path.join(HERE, '..', '..', 'bin', 'cpcc'))
SHIM = os.environ.get('FAULTSHIM')

# What the runtime prints, and its exit status, when memory runs out where
# nothing can report it (cpc/cpc_runtime.h: CPC_EXIT_EXHAUSTED).
EXIT_EXHAUSTED = 71


def build(tmp_path, name, *flags):
    exe = str(tmp_path / (name + '.bin'))
    r = subprocess.run([CPCC, '-O2', '-Wall', *flags, '-o', exe,
                        os.path.join(PROGRAMS, name + '.cpc')],
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    return exe


def run(exe, *args, fault=None, timeout=20):
    """Run exe under the shim; fault: a CPC_FAULT value (None: only what
    the program arms).  A run that does not end within `timeout` seconds
    is a hang, which fails the test."""
    assert SHIM, 'FAULTSHIM is not set (run through make test-faults)'
    env = dict(os.environ, LD_PRELOAD=SHIM)
    env.pop('CPC_FAULT', None)
    if fault:
        env['CPC_FAULT'] = fault
    try:
        return subprocess.run([exe, *args], capture_output=True, text=True,
                              env=env, timeout=timeout)
    except subprocess.TimeoutExpired:
        pytest.fail('%s hung (no exit within %ds)' % (os.path.basename(exe), timeout))


# ---- 1. generated code checks its allocations ---------------------------------

@pytest.mark.parametrize('dataflow', ['lifting', 'environments'])
@pytest.mark.parametrize('align', [0, 1])
def test_environment_allocation_failure_exits_with_a_message(tmp_path, dataflow, align):
    exe = build(tmp_path, 'env_alloc', '--dataflow=' + dataflow, '-DALIGN=%d' % align)
    r = run(exe)
    assert r.returncode == EXIT_EXHAUSTED, (r.returncode, r.stderr)
    assert 'cpc: out of memory allocating the environment of f' in r.stderr
    assert r.stdout == ''


# ---- 2. the library reports what it can report --------------------------------

def test_operations_whose_timeout_cannot_be_allocated_return_enomem(tmp_path):
    exe = build(tmp_path, 'timeout_nomem')
    r = run(exe, timeout=10)
    assert r.returncode == 0, r.stderr
    assert r.stdout == (
        'read_timeout, warm-up: -1 EAGAIN\n'
        'read_timeout: -1 ENOMEM\n'
        'write_timeout, warm-up: -1 EAGAIN\n'
        'write_timeout: -1 ENOMEM\n'
        'accept_timeout, warm-up: -1 EAGAIN\n'
        'accept_timeout: -1 ENOMEM\n'
        'condvar_get: -1 ENOMEM\n')


# ---- 3. a descriptor closed under its waiters ---------------------------------

CLOSED = ('cpc_close: 0\n'
          'cpc_close: 0\n'
          'plain waiter: -1 EBADF\n'
          'waiter with a condvar: -1 EBADF, condvar waiters left 0\n'
          'cpc_read_timeout: -1 EBADF\n'
          'plain waiter: -1 EBADF\n'
          'done\n')


@pytest.mark.parametrize('flags', [['-O2'], ['--cpc-debug', '-O0', '-g']],
                         ids=['opt', 'debug'])
def test_cpc_close_wakes_every_waiter_with_ebadf(tmp_path, flags):
    exe = build(tmp_path, 'close_under_waiter', *flags)
    r = run(exe, 'cpc_close', timeout=10)
    assert r.returncode == 0, r.stderr
    assert r.stdout == CLOSED


@pytest.mark.parametrize('flags', [['-O2'], ['--cpc-debug', '-O0', '-g']],
                         ids=['opt', 'debug'])
def test_cpc_close_wakes_the_waiters_of_another_scheduler(tmp_path, flags):
    exe = build(tmp_path, 'close_other_scheduler', *flags)
    r = run(exe, timeout=10)
    assert r.returncode == 0, r.stderr
    # two schedulers print in parallel: their order is not fixed
    assert sorted(r.stdout.splitlines()) == [
        'cpc_close: 0', 'done', 'waiter on the second scheduler: -1 EBADF']
    assert r.stdout.endswith('done\n')


def test_debug_runtime_reports_a_descriptor_closed_under_its_waiters(tmp_path):
    exe = build(tmp_path, 'close_under_waiter', '--cpc-debug', '-O0', '-g')
    r = run(exe, 'close', timeout=10)
    assert r.returncode == -6, (r.returncode, r.stderr)     # SIGABRT
    assert 'was closed while 3 threads waited on it' in r.stderr
    assert 'close it with cpc_close' in r.stderr


# ---- 5. a second scheduler's continuations come from its own heap ------------

def test_second_scheduler_spawns_without_malloc(tmp_path):
    exe = build(tmp_path, 'second_sched_spawn')
    r = run(exe, timeout=20)
    assert r.returncode == 0, (r.returncode, r.stderr)
    assert r.stdout == '1000 threads spawned and run on a second scheduler\n'
