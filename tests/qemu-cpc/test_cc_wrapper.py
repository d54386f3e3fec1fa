"""tests/qemu-cpc/cc-wrapper: the records that build.sh's parallel compilers
append to one shared file (compile_commands lines, CPU times) stay whole."""

import fcntl
import json
import os
import pathlib
import subprocess
import sys

import pytest

WRAPPER = pathlib.Path(__file__).with_name("cc-wrapper")
COMPILERS = 16
# Long enough that an unlocked append is written in several pieces, as the
# compile commands of QEMU's files with their include directories can be.
DEFINES = ["-DCPC_WRAPPER_TEST_%04d=%s" % (i, "x" * 40) for i in range(400)]


def run_parallel_compiles(tmp_path):
    compdb = tmp_path / "compile_commands.lines"
    times = tmp_path / "times"
    env = dict(os.environ, QEMU_CPC_MODE="gcc", QEMU_CPC_COMPDB=str(compdb),
               QEMU_CPC_TIMES=str(times))
    procs = []
    for i in range(COMPILERS):
        src = tmp_path / ("f%d.c" % i)
        src.write_text("int f%d(void) { return %d; }\n" % (i, i))
        procs.append(subprocess.Popen(
            [str(WRAPPER), "-c", "-o", str(tmp_path / ("f%d.o" % i))] + DEFINES + [str(src)],
            env=env, cwd=tmp_path))
    assert [p.wait(timeout=120) for p in procs] == [0] * COMPILERS
    return compdb.read_text().splitlines(), times.read_text().splitlines()


def test_each_compile_command_is_one_whole_json_line(tmp_path):
    lines, _ = run_parallel_compiles(tmp_path)
    entries = [json.loads(line) for line in lines]
    assert sorted(pathlib.Path(e["file"]).name for e in entries) == \
        sorted("f%d.c" % i for i in range(COMPILERS))
    for e in entries:
        assert e["directory"] == str(tmp_path)
        assert e["arguments"][0] == "cc"
        assert e["arguments"][-1] == e["file"]
        assert e["arguments"][4:-1] == DEFINES


def test_each_time_record_is_one_whole_line(tmp_path):
    _, lines = run_parallel_compiles(tmp_path)
    assert len(lines) == COMPILERS
    for line in lines:
        tool, src, cpu = line.split(" ")
        assert tool == "gcc" and src.endswith(".c")
        float(cpu)


def test_a_record_waits_for_the_files_lock(tmp_path):
    # Another compiler holds the lock: the wrapper must not write until it
    # is released (a plain append would write at once, and a record written
    # in pieces could interleave with that compiler's).
    compdb = tmp_path / "compile_commands.lines"
    src = tmp_path / "f.c"
    src.write_text("int f(void) { return 0; }\n")
    env = dict(os.environ, QEMU_CPC_MODE="gcc", QEMU_CPC_COMPDB=str(compdb))
    with open(compdb, "a") as held:
        fcntl.flock(held, fcntl.LOCK_EX)
        proc = subprocess.Popen([str(WRAPPER), "-c", "-o", str(tmp_path / "f.o"), str(src)],
                                env=env, cwd=tmp_path)
        try:
            with pytest.raises(subprocess.TimeoutExpired):
                proc.wait(timeout=1.5)
            assert compdb.read_text() == ""
        finally:
            fcntl.flock(held, fcntl.LOCK_UN)
    assert proc.wait(timeout=60) == 0
    (line,) = compdb.read_text().splitlines()
    assert json.loads(line)["file"] == str(src)


if __name__ == "__main__":
    sys.exit(pytest.main([__file__, "-q"]))
