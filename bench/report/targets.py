#!/usr/bin/env python3
"""The issue's targets, as ratios measured in one benchmark run.

    targets.py LOG

Reads the `BENCH <name> <value> <unit>` lines of a `make bench` log and
prints, for every target whose figures the log holds,

    BENCH target.<name> <value> <unit>
    # target <name>: <value> (want <op> <goal>): met | NOT MET

Targets are printed, never asserted: the exit status is 0 whatever they
say.  `rows(bench)` gives the same as a list for the report.
"""
import operator
import re
import sys

OPS = {">=": operator.ge, "<=": operator.le, "<": operator.lt}
LINE = re.compile(r"^BENCH (\S+) (\S+) (\S+)\s*$")


def parse(lines):
    """{name: (value, unit)} (the last line of a name wins)."""
    res = {}
    for line in lines:
        m = LINE.match(line.strip())
        if m:
            try:
                res[m.group(1)] = (float(m.group(2)), m.group(3))
            except ValueError:
                pass
    return res


def conns_of(bench, server):
    cs = set()
    for name in bench:
        m = re.match(r"servers\.%s\.c(\d+)\.rps$" % re.escape(server), name)
        if m:
            cs.add(int(m.group(1)))
    return sorted(cs)


def rows(bench):
    """[(name, value, unit, op, goal, met, what)]"""
    out = []

    def add(name, value, unit, op, goal, what):
        # Bytes as displayed, to the byte: fixed costs spread over a crowd
        # leave a fraction.
        shown = round(value) if unit == "B" else value
        out.append((name, value, unit, op, goal, OPS[op](shown, goal), what))

    def v(name):
        x = bench.get(name)
        return x[0] if x else None

    for mode, title in (("ka", "keep-alive"), ("close", "Connection: close")):
        for c in conns_of(bench, "httpd-" + mode):
            h, n = v("servers.httpd-%s.c%d.rps" % (mode, c)), v("servers.nginx-%s.c%d.rps" % (mode, c))
            if h and n:
                add("httpd_vs_nginx.%s.c%d.rps" % (mode, c), h / n, "x", ">=", 1.1,
                    "httpd / nginx requests/s, %s, %d connections" % (title, c))
            h, n = v("servers.httpd-%s.c%d.p99" % (mode, c)), v("servers.nginx-%s.c%d.p99" % (mode, c))
            if h and n:
                add("httpd_vs_nginx.%s.c%d.p99" % (mode, c), h / n, "x", "<=", 1.0,
                    "httpd / nginx p99 latency, %s, %d connections" % (title, c))
            h, n = v("servers.httpd-%s.c%d.cpu" % (mode, c)), v("servers.nginx-%s.c%d.cpu" % (mode, c))
            if h and n:
                add("httpd_vs_nginx.%s.c%d.cpu" % (mode, c), h / n, "x", "<=", 0.8,
                    "httpd / nginx server CPU time per request, %s, %d connections"
                    % (title, c))
    x = v("servers.idle_conn.httpd")
    if x is not None:
        add("httpd.idle_conn", x, "B", "<=", 256, "httpd memory per idle keep-alive connection")
    for c in conns_of(bench, "naive-cpc"):
        a, b = v("servers.naive-cpc.c%d.rps" % c), v("servers.naive-st.c%d.rps" % c)
        if a and b:
            add("naive_cpc_vs_st.c%d" % c, a / b, "x", ">=", 1.0,
                "naive server: CPC / State Threads requests/s, %d connections" % c)
        a, b = v("servers.naive-cpc.c%d.cpu" % c), v("servers.naive-st.c%d.cpu" % c)
        if a and b:
            add("naive_cpc_vs_st.c%d.cpu" % c, a / b, "x", "<=", 1.0,
                "naive server: CPC / State Threads server CPU time per request, "
                "%d connections" % c)
    for sys_ in ("cpc", "cpcc"):
        label = "CPC" if sys_ == "cpc" else "CPC via cpcc"
        for t, goal in (("switch", 1.15), ("cond", 1.15), ("spawn", 0.6)):
            for stat, suffix in (("median", ""), ("min", ".min")):
                a = v("runtime.%s.%s%s" % (t, sys_, suffix))
                b = v("runtime.%s.baseline%s" % (t, suffix))
                if a and b:
                    add("%s.%s_vs_eventc%s" % (t, sys_, suffix), a / b, "x", "<=", goal,
                        "%s: %s / event-driven C, %s" % (t, label, stat))
                c = v("runtime.%s.coro%s" % (t, suffix))
                if a and c and t != "spawn":
                    add("%s.%s_vs_coro%s" % (t, sys_, suffix), a / c, "x", "<", 1.0,
                        "%s: %s / C++20 coroutines, %s" % (t, label, stat))
        x = v("runtime.idle.%s" % sys_)
        if x is not None:
            add("idle.%s" % sys_, x, "B", "<=", 32, "bytes per idle thread, %s" % label)
    x = v("translator.cpscall.overhead")
    if x is not None:
        add("translator.cpscall_overhead", x, "ns", "<=", 0.5,
            "cps call: ns over a native call, median")
    for w in ("fib", "tictactoe"):
        x = v("multicore.scaling.%s" % w)
        if x is not None:
            add("multicore.scaling.%s" % w, x, "x", ">=", 1.8,
                "%s on 2 schedulers: speed-up over 1" % w)
    x = v("multicore.pingpong.2sched")
    if x is not None:
        add("multicore.pingpong", x, "ns", "<=", 300,
            "wake-up across 2 schedulers (ping-pong pass)")
    for case in sorted(k[len("qemu."):-len(".ucontext_over_cpc")] for k in bench
                       if k.startswith("qemu.") and k.endswith(".ucontext_over_cpc")):
        if case.startswith("lifecycle"):
            for peer in ("ucontext", "sigaltstack"):
                x = v("qemu.%s.%s_over_cpc" % (case, peer))
                if x is not None:
                    add("qemu.%s.%s" % (case, peer), x, "x", ">=", 5.0,
                        "QEMU table 2, %s: %s time / CPC time" % (case, peer))
    for ev in ("io", "timer"):
        x = v("runtime.service.%s.max" % ev)
        if x is not None:
            add("service.%s" % ev, x, "switches", "<=", 64,
                "%s served under a yield loop of 1000 threads, worst" %
                ("ready descriptor" if ev == "io" else "expired timer"))
    x = v("translator.compile.lines_per_source")
    if x is not None:
        add("translator.lines_per_source", x, "x", "<=", 3.0, "generated C lines per CPC line")
    x = v("translator.compile.ratio")
    if x is not None:
        add("translator.compile_ratio", x, "x", "<=", 1.5, "cpcc + cc time / cc alone")
    for name in sorted(k[len("translator.real."):-len(".ratio")] for k in bench
                       if k.startswith("translator.real.") and k.endswith(".ratio")):
        x = v("translator.real.%s.ratio" % name)
        if name.startswith("func"):
            add("translator.real.%s" % name, x, "x", "<=", 3.0,
                "one large cps function: cpcc + cc / cc on it without suspensions")
        else:
            add("translator.real.%s" % name, x, "x", "<=", 1.3,
                "%s: cpcc + cc time / cc alone" % name)
    x = v("translator.translate.max_lines_10s")
    if x is not None:
        add("translator.max_lines_10s", x, "lines", ">=", 20000,
            "largest function translated in 10 s (-O1 and above: frame-resident variables)")
    x = v("translator.translate.max_lines_10s_lifting")
    if x is not None:
        add("translator.max_lines_10s_lifting", x, "lines", ">=", 20000,
            "largest function translated in 10 s (-O0: lifted variables)")
    x = v("translator.translate.max_func_lines_10s")
    if x is not None:
        add("translator.max_func_lines_10s", x, "lines", ">=", 20000,
            "largest function of func10k's shape translated in 10 s")
    x = v("translator.compile.max_func_lines_10s")
    if x is not None:
        add("translator.max_func_lines_10s_cc", x, "lines", ">=", 20000,
            "largest function of func10k's shape translated and compiled in 10 s")
    return out


def main(argv):
    if len(argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    with open(argv[1], errors="replace") as f:
        bench = parse(f)
    rs = rows(bench)
    for name, value, unit, op, goal, met, what in rs:
        print("BENCH target.%s %.2f %s" % (name, value, unit))
    for name, value, unit, op, goal, met, what in rs:
        print("# target %s: %.2f %s (want %s %g): %s" % (name, value, unit, op, goal,
                                                        "met" if met else "NOT MET"))
    print("# targets: %d of %d met" % (sum(1 for r in rs if r[5]), len(rs)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
