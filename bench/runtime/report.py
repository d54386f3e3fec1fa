#!/usr/bin/env python3
"""Side-by-side table of runtime micro-benchmark results.

Reads `BENCH runtime.<test>.<system>[.min] <value> <unit>` lines (from the
files named on the command line, or standard input; other lines are
ignored) and prints one row per benchmark, one column per system, with
CPC's ratio to the event-driven baseline and its target.

    make bench-runtime | tee bench.log ; python3 bench/runtime/report.py bench.log
"""
import re
import sys

TESTS = ["switch", "cond", "spawn", "spawn_sched2", "idle"]
SYSTEMS = ["cpc", "cpc_shared", "cpcc", "cpc_nocache", "cpc_ev", "cpc_uv", "baseline", "coro", "boost",
           "st"]
TITLES = {
    "cpc": "CPC",
    "cpc_shared": "CPC libcpc.so",
    "cpcc": "CPC via cpcc",
    "cpc_nocache": "CPC no cache",
    "cpc_ev": "CPC in libev",
    "cpc_uv": "CPC in libuv",
    "baseline": "event C",
    "coro": "C++20 coro",
    "boost": "boost.ctx",
    "st": "ST 1.9",
}
DESCR = {
    "switch": "switch (yield ping-pong)",
    "cond": "cond (wake+wait)",
    "spawn": "spawn (create+run+end)",
    "spawn_sched2": "spawn, second scheduler",
    "idle": "idle thread (peak RSS)",
}
# CPC targets on this machine (issue 2).
TARGETS = {"switch": 3.0, "cond": 5.0, "spawn": 15.0, "idle": 48.0}

LINE = re.compile(r"^BENCH runtime\.(\w+)\.(\w+)(\.min)? (\S+) (\S+)\s*$")


def parse(lines):
    """{(test, system, 'median'|'min'): (value, unit)}"""
    res = {}
    for line in lines:
        m = LINE.match(line.strip())
        if not m:
            continue
        test, system, is_min, value, unit = m.groups()
        try:
            v = float(value)
        except ValueError:
            continue
        res[(test, system, "min" if is_min else "median")] = (v, unit)
    return res


def fmt(v, unit):
    if unit == "B":
        if v >= 1024:
            return "%.1f KiB" % (v / 1024)
        return "%.0f B" % v
    if v >= 100:
        return "%.0f %s" % (v, unit)
    return "%.1f %s" % (v, unit)


def table(res, counts=None):
    systems = [s for s in SYSTEMS if any((t, s, "median") in res for t in TESTS)]
    systems += sorted({s for (_, s, _) in res} - set(systems))
    head = ["benchmark"] + [TITLES.get(s, s) for s in systems] + ["CPC/event C", "CPC target"]
    rows = []
    for t in TESTS:
        if not any((t, s, "median") in res for s in systems):
            continue
        row = [DESCR.get(t, t)]
        for s in systems:
            med = res.get((t, s, "median"))
            mn = res.get((t, s, "min"))
            if med is None:
                row.append("-")
            elif mn is not None and t != "idle":
                row.append("%s (%s)" % (fmt(*med), fmt(*mn).split()[0]))
            else:
                row.append(fmt(*med))
        c, b = res.get((t, "cpc", "median")), res.get((t, "baseline", "median"))
        row.append("%.2fx" % (c[0] / b[0]) if c and b and b[0] > 0 else "-")
        if c and t in TARGETS:
            # As displayed: idle to the byte (fixed costs spread over the
            # crowd leave a fraction), times to 0.1 ns.
            ok = round(c[0], 0 if c[1] == "B" else 1) <= TARGETS[t]
            unit = c[1]
            row.append("<= %s %s" % (fmt(TARGETS[t], unit), "ok" if ok else "MISSED"))
        else:
            row.append("-")
        rows.append(row)
    widths = [max(len(r[i]) for r in [head] + rows) for i in range(len(head))]
    out = []

    def line(r):
        return "| " + " | ".join(c.ljust(w) if i == 0 else c.rjust(w)
                                 for i, (c, w) in enumerate(zip(r, widths))) + " |"

    out.append(line(head))
    out.append("|" + "|".join("-" * (w + 2) if i == 0 else "-" * (w + 1) + ":"
                              for i, w in enumerate(widths)) + "|")
    for r in rows:
        out.append(line(r))
    out.append("median of the runs (minimum in parentheses); idle: bytes per "
               "waiting thread, peak RSS growth / thread count")
    if counts:
        out.append("idle thread counts: " + ", ".join(
            "%s %s" % (TITLES.get(s, s), n) for s, n in counts.items()))
    return "\n".join(out)


def main(argv):
    if len(argv) > 1:
        lines = []
        for path in argv[1:]:
            with open(path) as f:
                lines.extend(f)
    else:
        lines = sys.stdin
    res = parse(lines)
    if not res:
        print("report.py: no BENCH runtime.* lines found", file=sys.stderr)
        return 1
    print(table(res))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
