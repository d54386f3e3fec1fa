#!/usr/bin/env python3
"""Print the machine a benchmark run is measured on, as comment lines of
the bench log (`# machine.<key> <value>`), and how loaded it is.

    machine.py start|end

`start` prints the CPU, cores, memory, kernel, compiler, date and the load
average; `end` prints the load average again, the run's wall time and the
whole machine's average busy cores over the run (from /proc/stat: the
benchmark's own processes included, which keep one to two cores busy)."""
import os
import platform
import subprocess
import sys
import time

STATE = os.path.join(os.environ.get("BENCH_STATE_DIR", "/tmp"), "cpc-bench-machine.%d" % os.getuid())


def busy_jiffies():
    with open("/proc/stat") as f:
        v = [int(x) for x in f.readline().split()[1:]]
    idle = v[3] + (v[4] if len(v) > 4 else 0)
    return sum(v) - idle, sum(v)


def cpu_model():
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def mem_total():
    with open("/proc/meminfo") as f:
        for line in f:
            if line.startswith("MemTotal:"):
                return "%.1f GiB" % (int(line.split()[1]) / 1024 / 1024)
    return "unknown"


def say(key, value):
    print("# machine.%s %s" % (key, value), flush=True)


def main(argv):
    what = argv[1] if len(argv) > 1 else "start"
    load = open("/proc/loadavg").read().split()[:3]
    if what == "start":
        say("date", time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()))
        say("cpu", cpu_model())
        say("cores", os.cpu_count())
        say("memory", mem_total())
        say("kernel", platform.release())
        cc = subprocess.run(["cc", "--version"], capture_output=True, text=True)
        say("cc", cc.stdout.splitlines()[0] if cc.returncode == 0 else "unknown")
        say("load_start", " ".join(load))
        busy, total = busy_jiffies()
        with open(STATE, "w") as f:
            f.write("%f %d %d\n" % (time.time(), busy, total))
    else:
        say("load_end", " ".join(load))
        try:
            t0, b0, a0 = open(STATE).read().split()
            busy, total = busy_jiffies()
            wall = time.time() - float(t0)
            say("wall_s", "%.0f" % wall)
            say("busy_cores", "%.2f" % ((busy - int(b0)) / (total - int(a0)) * (os.cpu_count() or 1)))
        except (OSError, ValueError, ZeroDivisionError):
            pass
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
