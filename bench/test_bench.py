"""Checks of the benchmark programs themselves (`make test-bench`, seconds):
the naive web servers answer what they should, the targets are computed
from a log as they should be, and the hand-written runtime benchmark has the
shape cpcc emits.  No timing is asserted."""
import os
import shutil
import socket
import subprocess
import sys
import time

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "report"))
sys.path.insert(0, os.path.join(HERE, "runtime"))
import instructions  # noqa: E402
import targets  # noqa: E402

BINDIR = os.environ.get("NAIVE_BINDIR", os.path.join(HERE, "..", "build", "bench", "servers"))
RUNTIME_BINDIR = os.environ.get("RUNTIME_BENCH_BINDIR",
                                os.path.join(HERE, "..", "build", "bench", "runtime"))
BODY = b"<html><body>Hello from a naive server.</body></html>\n"


def read_all(s):
    data = b""
    while True:
        chunk = s.recv(4096)
        if not chunk:
            return data
        data += chunk


@pytest.mark.parametrize("system", ["cpc", "st", "pth", "nptl", "fork"])
def test_naive_server_answers_every_client_with_the_page_and_closes(system):
    proc = subprocess.Popen([os.path.join(BINDIR, "naive-" + system), "0"],
                            stdout=subprocess.PIPE, text=True, start_new_session=True)
    try:
        line = proc.stdout.readline()
        assert line.startswith("listening on "), line
        port = int(line.split()[2])
        # Several clients at once, each sending its head in two pieces.
        clients = [socket.create_connection(("127.0.0.1", port), timeout=5) for _ in range(20)]
        for s in clients:
            s.sendall(b"GET / HTTP/1.1\r\nHost: t\r\n")
        time.sleep(0.05)
        for s in clients:
            s.sendall(b"\r\n")
        for s in clients:
            data = read_all(s)      # the server closes after the response
            head, _, body = data.partition(b"\r\n\r\n")
            assert head.startswith(b"HTTP/1.1 200 OK\r\n")
            assert b"Content-Length: %d" % len(BODY) in head
            assert b"Connection: close" in head
            assert body == BODY
            s.close()
    finally:
        os.killpg(proc.pid, 9)
        proc.wait()


LOG = """\
BENCH servers.httpd-ka.c10.rps 66000 req/s
BENCH servers.nginx-ka.c10.rps 60000 req/s
BENCH servers.httpd-ka.c10.p99 2.0 ms
BENCH servers.nginx-ka.c10.p99 1.0 ms
BENCH servers.naive-cpc.c100.rps 900 req/s
BENCH servers.naive-st.c100.rps 1000 req/s
BENCH servers.idle_conn.httpd 256.4 B
BENCH runtime.switch.cpc 3.0 ns
BENCH runtime.switch.baseline 2.0 ns
BENCH runtime.switch.coro 4.0 ns
BENCH translator.compile.lines_per_source 2.5 x
some other line
"""


def test_targets_are_ratios_of_the_same_run_with_met_flags():
    rows = {r[0]: r for r in targets.rows(targets.parse(LOG.splitlines()))}
    assert rows["httpd_vs_nginx.ka.c10.rps"][1] == pytest.approx(1.1)
    assert rows["httpd_vs_nginx.ka.c10.rps"][5] is True
    assert rows["httpd_vs_nginx.ka.c10.p99"][1] == pytest.approx(2.0)
    assert rows["httpd_vs_nginx.ka.c10.p99"][5] is False
    assert rows["naive_cpc_vs_st.c100"][5] is False
    assert rows["httpd.idle_conn"][5] is True          # 256 B to the byte
    assert rows["switch.cpc_vs_eventc"][1] == pytest.approx(1.5)
    assert rows["switch.cpc_vs_eventc"][5] is False
    assert rows["switch.cpc_vs_coro"][5] is True
    assert rows["translator.lines_per_source"][5] is True
    assert "cond.cpc_vs_eventc" not in rows             # no figures, no target


def test_runtime_targets_of_the_multicore_qemu_and_service_figures():
    log = """\
BENCH translator.cpscall.overhead 0.62 ns
BENCH multicore.scaling.fib 1.95 x
BENCH multicore.scaling.tictactoe 1.49 x
BENCH multicore.pingpong.2sched 280 ns
BENCH qemu.lifecycle.ucontext_over_cpc 8.3 x
BENCH qemu.lifecycle_pool.ucontext_over_cpc 4.9 x
BENCH qemu.lifecycle_pool.sigaltstack_over_cpc 5.0 x
BENCH qemu.yield.ucontext_over_cpc 3.0 x
BENCH runtime.service.io.max 64 switches
BENCH runtime.service.timer.max 65 switches
"""
    rows = {r[0]: r for r in targets.rows(targets.parse(log.splitlines()))}
    assert rows["translator.cpscall_overhead"][5] is False
    assert rows["multicore.scaling.fib"][5] is True
    assert rows["multicore.scaling.tictactoe"][5] is False
    assert rows["multicore.pingpong"][5] is True
    assert rows["qemu.lifecycle.ucontext"][5] is True
    assert rows["qemu.lifecycle_pool.ucontext"][5] is False
    assert rows["qemu.lifecycle_pool.sigaltstack"][5] is True
    assert "qemu.yield.ucontext" not in rows            # lifecycle cases only
    assert rows["service.io"][5] is True
    assert rows["service.timer"][5] is False


def test_server_cpu_targets_compare_cpu_time_per_request():
    log = """\
BENCH servers.httpd-close.c10.rps 30000 req/s
BENCH servers.httpd-close.c10.cpu 16.0 us
BENCH servers.nginx-close.c10.cpu 20.0 us
BENCH servers.httpd-ka.c10.rps 90000 req/s
BENCH servers.httpd-ka.c10.cpu 8.5 us
BENCH servers.nginx-ka.c10.cpu 10.0 us
BENCH servers.naive-cpc.c10.rps 30000 req/s
BENCH servers.naive-cpc.c10.cpu 17.0 us
BENCH servers.naive-st.c10.cpu 17.0 us
BENCH servers.naive-cpc.c100.rps 30000 req/s
BENCH servers.naive-cpc.c100.cpu 18.0 us
BENCH servers.naive-st.c100.cpu 17.0 us
"""
    rows = {r[0]: r for r in targets.rows(targets.parse(log.splitlines()))}
    assert rows["httpd_vs_nginx.close.c10.cpu"][1] == pytest.approx(0.8)
    assert rows["httpd_vs_nginx.close.c10.cpu"][4:6] == (0.8, True)
    assert rows["httpd_vs_nginx.ka.c10.cpu"][4:6] == (0.8, False)
    assert rows["naive_cpc_vs_st.c10.cpu"][4:6] == (1.0, True)
    assert rows["naive_cpc_vs_st.c100.cpu"][4:6] == (1.0, False)


def test_translator_targets_of_the_real_code_cases():
    log = """\
BENCH translator.real.httpd.ratio 1.25 x
BENCH translator.real.glib_5k.ratio 2.0 x
BENCH translator.real.func10k.ratio 2.9 x
BENCH translator.translate.max_lines_10s 16000 lines
BENCH translator.translate.max_func_lines_10s 9500 lines
BENCH translator.compile.max_func_lines_10s 21000 lines
"""
    rows = {r[0]: r for r in targets.rows(targets.parse(log.splitlines()))}
    assert rows["translator.real.httpd"][4:6] == (1.3, True)
    assert rows["translator.real.glib_5k"][4:6] == (1.3, False)
    assert rows["translator.real.func10k"][4:6] == (3.0, True)     # to plain C
    assert rows["translator.max_lines_10s"][4:6] == (20000, False)
    assert rows["translator.max_func_lines_10s"][4:6] == (20000, False)
    assert rows["translator.max_func_lines_10s_cc"][4:6] == (20000, True)


def test_the_size_at_the_budget_is_interpolated_between_the_sizes_around_it():
    run = load_translator_run()
    assert run.at_budget([(1000, 2.0), (2000, 6.0), (4000, 14.0)], 10.0) == 3000
    assert run.at_budget([(1000, 2.0), (2000, 6.0)], 10.0) == 2000     # none over: measured
    assert run.at_budget([(1000, 12.0)], 10.0) == 0


def load_translator_run():
    import importlib.util
    spec = importlib.util.spec_from_file_location(
        "translator_run", os.path.join(HERE, "translator", "run.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_plain_c_time_of_a_case_is_none_once_one_file_failed_as_plain_c():
    add = load_translator_run().add_cpu
    assert add(add(0.0, 0, 1.5), 0, 2.0) == 3.5
    assert add(add(0.0, 1, 1.5), 0, 2.0) is None       # a later file compiles
    assert add(add(0.0, 0, 1.5), 1, 2.0) is None


def instructions_per_operation(system, test, tmp, n=20000):
    binary = os.path.join(RUNTIME_BINDIR, "bench-" + system)
    assert os.access(binary, os.X_OK), "%s was not built" % binary
    _, t1 = instructions.profile(binary, test, n, tmp)
    _, t2 = instructions.profile(binary, test, 2 * n, tmp)
    return (t2 - t1) / float(n * instructions.TESTS[test])


# bench/runtime/cpc.c is "cps code written by hand in exactly the shape cpcc
# emits" and the tables set it beside cpc_src.cpc, the same benchmarks through
# cpcc: when the translator's output changes shape and the hand-written file
# does not follow, the two columns measure different code.  What callgrind
# counts shows it: the same instructions per operation.
@pytest.mark.skipif(not shutil.which("valgrind"), reason="valgrind missing")
@pytest.mark.parametrize("test", sorted(instructions.TESTS))
def test_hand_written_runtime_benchmark_runs_the_instructions_cpcc_emits(test, tmp_path):
    by_hand = instructions_per_operation("cpc", test, str(tmp_path))
    via_cpcc = instructions_per_operation("cpcc", test, str(tmp_path))
    assert abs(by_hand - via_cpcc) < 0.05, (
        "%s: %.2f instructions an operation by hand (bench/runtime/cpc.c), %.2f via cpcc "
        "(bench/runtime/cpc_src.cpc): the hand-written benchmark no longer has the shape "
        "cpcc emits" % (test, by_hand, via_cpcc))
