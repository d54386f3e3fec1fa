#!/usr/bin/env python3
"""Write bench/RESULTS.md and its plots from a `make bench` log.

    results.py LOG RESULTS.md

The plots (PNG, matplotlib) go to a `results/` directory beside RESULTS.md:
requests/s and p99 latency against connections per server, the fib
crossover, and the primitives as bars per system.  Every figure comes from
the log; nothing is measured here.
"""
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "..", "runtime"))
import targets  # noqa: E402
import report as runtime_report  # noqa: E402  (bench/runtime/report.py)

import matplotlib  # noqa: E402
matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

SERVERS = [
    ("naive-cpc", "naive CPC"), ("naive-cpc-poll50", "naive CPC, 50 us poll before sleeping"),
    ("naive-st", "naive State Threads"),
    ("naive-pth", "naive GNU Pth"), ("naive-nptl", "naive nptl"),
    ("naive-fork", "naive fork"), ("httpd-ka", "httpd keep-alive"),
    ("nginx-ka", "nginx keep-alive"), ("httpd-close", "httpd close"),
    ("nginx-close", "nginx close"),
]
FIB_SYSTEMS = [("cpc", "CPC (cps calls, heap frames)"), ("boost", "boost.context (fcontext)"),
               ("ucontext", "ucontext (swapcontext)"), ("native", "plain C, no threads")]
# "Generating events with style" (docs/references.md), Table 1 (Core 2 Duo, x86-64) and the tic-tac-toe figures of its
# section 5: eCPC time / CPC time.
STYLE_TABLE1 = {"cpscall": "2.45", "switch": "1.67", "cond": "1.13", "spawn": "2.18",
           "tictactoe.manual": "1.20", "tictactoe.automatic": "1.18"}
# "Continuation-Passing C" (docs/references.md), fig. 4: threads in 4 GB (Core 2 Duo, 2011).
CPC_PAPER_FIG4_THREADS = {"nptl": "32,330", "pth": "700,000 (est.)", "st": "934,600",
                   "cpc": "50,190,000"}
IDLE_SYSTEMS = [("cpc", "CPC"), ("cpcc", "CPC via cpcc"), ("cpc_nocache", "CPC, no cache"),
                ("baseline", "event-driven C"), ("coro", "C++20 coroutines"),
                ("boost", "boost.context (16 KiB stacks)"), ("st", "State Threads"),
                ("pth", "GNU Pth (64 KiB stacks)"), ("nptl", "nptl (8 MiB stacks)")]
GIB8 = 8 * 1024 ** 3


def comments(lines):
    res = {}
    for line in lines:
        m = re.match(r"^# machine\.(\w+) (.*)$", line.rstrip("\n"))
        if m:
            res[m.group(1)] = m.group(2)
    return res


def v(bench, name):
    x = bench.get(name)
    return x[0] if x else None


def fmt_rps(x):
    return "-" if x is None else ("%.1f k" % (x / 1000) if x >= 1000 else "%.0f" % x)


def fmt_ms(x):
    if x is None:
        return "-"
    return "%.2f" % x if x < 10 else "%.0f" % x if x >= 100 else "%.1f" % x


def table(head, rows, align=None):
    out = ["| " + " | ".join(head) + " |",
           "|" + "|".join(":---" if i == 0 else "---:" for i in range(len(head))) + "|"]
    out += ["| " + " | ".join(str(c) for c in r) + " |" for r in rows]
    return "\n".join(out)


def server_conns(bench):
    cs = set()
    for name in bench:
        m = re.match(r"servers\.[\w-]+\.c(\d+)\.rps$", name)
        if m:
            cs.add(int(m.group(1)))
    return sorted(cs)


def plot_servers(bench, outdir):
    conns = server_conns(bench)
    files = []
    for metric, ylabel, fname in (("rps", "requests/s (median)", "servers-rps.png"),
                                  ("p99", "p99 latency, ms (median)", "servers-p99.png")):
        fig, ax = plt.subplots(figsize=(8, 5))
        for key, title in SERVERS:
            xs = [c for c in conns if v(bench, "servers.%s.c%d.%s" % (key, c, metric)) is not None]
            if not xs:
                continue
            ys = [v(bench, "servers.%s.c%d.%s" % (key, c, metric)) for c in xs]
            style = "-" if key.startswith("naive") else "--"
            line, = ax.plot(xs, ys, style, marker="o", label=title)
            if metric == "rps":
                lo = [v(bench, "servers.%s.c%d.rps.min" % (key, c)) for c in xs]
                hi = [v(bench, "servers.%s.c%d.rps.max" % (key, c)) for c in xs]
                if None not in lo and None not in hi:
                    ax.fill_between(xs, lo, hi, color=line.get_color(), alpha=0.15)
        ax.set_xscale("log")
        if metric == "p99":
            ax.set_yscale("log")
        ax.set_xlabel("concurrent connections (wrk)")
        ax.set_ylabel(ylabel)
        ax.grid(True, which="both", alpha=0.3)
        ax.legend(fontsize=8)
        fig.tight_layout()
        fig.savefig(os.path.join(outdir, fname), dpi=110)
        plt.close(fig)
        files.append(fname)
    return files


def plot_fib(bench, outdir):
    fig, ax = plt.subplots(figsize=(8, 5))
    any_ = False
    for key, title in FIB_SYSTEMS:
        pts = []
        for name, (val, _) in bench.items():
            m = re.match(r"fib\.%s\.e(\d+)$" % key, name)
            if m:
                pts.append((int(m.group(1)), val))
        if pts:
            pts.sort()
            ax.plot([p[0] for p in pts], [p[1] for p in pts], marker="o", label=title)
            any_ = True
    if not any_:
        plt.close(fig)
        return None
    ax.set_xscale("log", base=2)
    ax.set_yscale("log")
    ax.set_xlabel("procedure calls between context switches")
    ax.set_ylabel("ms for 100 threads x fib(20) (median)")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(os.path.join(outdir, "fib.png"), dpi=110)
    plt.close(fig)
    return "fib.png"


def plot_primitives(bench, outdir):
    systems = [s for s in runtime_report.SYSTEMS
               if any(v(bench, "runtime.%s.%s" % (t, s)) for t in ("switch", "cond", "spawn"))]
    if not systems:
        return None
    tests = ["switch", "cond", "spawn"]
    fig, axes = plt.subplots(1, 3, figsize=(12, 4.5))
    for ax, t in zip(axes, tests):
        names = [s for s in systems if v(bench, "runtime.%s.%s" % (t, s)) is not None]
        vals = [v(bench, "runtime.%s.%s" % (t, s)) for s in names]
        mins = [v(bench, "runtime.%s.%s.min" % (t, s)) or 0 for s in names]
        bars = ax.bar(range(len(names)), vals, color="C0", label="median")
        ax.scatter(range(len(names)), mins, color="C3", zorder=3, s=12, label="min")
        ax.set_xticks(range(len(names)))
        ax.set_xticklabels([runtime_report.TITLES.get(s, s) for s in names], rotation=40,
                           ha="right", fontsize=8)
        if max(vals) > 20 * min(vals):
            ax.set_yscale("log")
            ax.set_ylim(bottom=1)
        else:
            ax.set_ylim(bottom=0)
        ax.set_title(runtime_report.DESCR.get(t, t), fontsize=10)
        ax.set_ylabel("ns per operation")
        ax.bar_label(bars, labels=["%.1f" % x for x in vals], fontsize=7)
        ax.grid(True, axis="y", which="both", alpha=0.3)
    axes[0].legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(os.path.join(outdir, "primitives.png"), dpi=110)
    plt.close(fig)
    return "primitives.png"


def section_machine(md, mach, quick):
    md.append("## The machine\n")
    rows = [(k, mach[k]) for k in ("date", "cpu", "cores", "memory", "kernel", "cc",
                                   "load_start", "load_end", "wall_s", "busy_cores")
            if k in mach]
    md.append(table(["", ""], rows))
    loads = []
    for k in ("load_start", "load_end"):
        try:
            loads.append(float(mach[k].split()[0]))
        except (KeyError, ValueError, IndexError):
            pass
    md.append("")
    if quick:
        md.append("**This is a quick (smoke) run**: small counts, one repetition, short "
                  "points. Its figures show the shape, not the values.\n")
    # the load at the end counts the benchmark's own servers and load
    # generator: only the start tells whether something else ran
    if loads and loads[0] > 1.0:
        md.append("**Measured on a busy machine**: the 1-minute load average was %s "
                  "(start, end; the end counts the benchmark's own servers and load "
                  "generator) on %s cores; the benchmark itself keeps one to two cores busy. "
                  "Absolute "
                  "figures are noisy (server points moved up to 30%% between runs before); "
                  "compare systems within this run, whose repetitions are interleaved.\n"
                  % (" / ".join("%.2f" % x for x in loads), mach.get("cores", "?")))
    else:
        md.append("Load average %s (start / end; the end counts the benchmark's own servers "
                  "and load generator). Compare systems within this run, "
                  "whose repetitions are interleaved; absolute figures drift between "
                  "sessions.\n" % " / ".join("%.2f" % x for x in loads))


def section_targets(md, bench):
    rs = targets.rows(bench)
    md.append("## Targets\n")
    if not rs:
        md.append("No target figures in this log.\n")
        return
    md.append("Ratios measured in this run (printed by `make bench` as `BENCH target.*` "
              "lines; never asserted by tests).\n")
    rows = [(w, "%.2f %s" % (val, u), "%s %g" % (op, g), "met" if met else "**not met**")
            for (n, val, u, op, g, met, w) in rs]
    md.append(table(["target", "measured", "goal", ""], rows))
    md.append("\n%d of %d met.\n" % (sum(1 for r in rs if r[5]), len(rs)))


# How the servers' system calls are shown: the names a server may use for
# the same job share a column.
SYSCALL_COLUMNS = [
    ("accept", ("accept4", "accept")), ("read", ("read", "recvfrom")),
    ("open", ("openat2", "openat")), ("stat", ("newfstatat", "fstat", "statx")),
    ("pread", ("pread64",)), ("send", ("sendto", "writev", "write", "sendfile")),
    ("shutdown", ("shutdown",)), ("close", ("close",)),
    ("socket options", ("setsockopt", "fcntl", "ioctl")), ("epoll_ctl", ("epoll_ctl",)),
    ("look", ("poll", "getsockopt")), ("wait", ("epoll_wait", "epoll_pwait", "pselect6", "select")),
]


def section_syscalls(md, bench):
    """System calls per request (strace -c, bench/servers/run.py)."""
    rows = []
    for key, name in SERVERS:
        total = v(bench, "servers.%s.syscalls" % key)
        if total is None:
            continue
        row = [name]
        for _, names in SYSCALL_COLUMNS:
            xs = [v(bench, "servers.%s.syscalls.%s" % (key, n)) for n in names]
            xs = [x for x in xs if x is not None]
            row.append("%.2f" % sum(xs) if xs else "-")
        rows.append(row + ["%.2f" % total])
    if not rows:
        return
    md.append("")
    md.append(table(["system calls per request (10 conns)"] +
                    [c for c, _ in SYSCALL_COLUMNS] + ["all"], rows))
    md.append("\nCounted over one more point per server at 10 connections, not timed: at "
              "full speed by `perf stat` on the kernel's syscall tracepoints (the log says "
              "`# system calls per request: perf stat`), or by `strace -f -c` where perf "
              "cannot read them (traced, so slower: a traced server finds more requests "
              "already arrived, and fewer of its reads and accepts fail with `EAGAIN`). "
              "*socket options* is `setsockopt`, `fcntl` and `ioctl` together, *look* "
              "`cpc_accept`'s look at the listener's queue (`getsockopt(TCP_INFO)`, which "
              "counts the connections queued, so that one look serves them all), *wait* the calls that wait "
              "for descriptors (State Threads from Debian has no epoll support and waits "
              "with select(2)).\n")
    md.append("Where httpd's calls go, against nginx's: with keep-alive, a request costs a "
              "`read` and a `send`. The file comes from the per-scheduler cache of small "
              "files, whose entries an inotify watcher keeps valid without a system call per "
              "hit (a `stat` per hit with `-S`, or for a file reached through a symbolic "
              "link), where nginx opens, stats, reads and closes "
              "the file each time (`examples/httpd/cache.c`); waiting for the next request "
              "makes no system call (the descriptor is registered once, edge-triggered, "
              "`cpc_io_keep`). With `Connection: close`, a connection adds `accept4` (its "
              "socket non-blocking at once, and `TCP_NODELAY` inherited from the listening "
              "socket, so no `fcntl` or `setsockopt`), `cpc_accept`'s look at the "
              "listener, `shutdown` and `close`. Both servers defer the accept until the "
              "request has arrived (`TCP_DEFER_ACCEPT`: httpd's `-D`, nginx's `listen ... "
              "deferred`), so httpd reads a new connection at once and finds its request: "
              "no `epoll_ctl`, no wake-up and no empty read for it (without the deferral, "
              "0.98 `epoll_ctl` and 1.7 `epoll_wait` per request at 10 connections, 9.8 "
              "calls in all against 7.25; nginx goes from 10.35 to 8.3). Past about 2,000 "
              "connections arriving together the kernel's SYN queue (`tcp_max_syn_backlog`, "
              "2048 here) overflows and connections are set up by SYN cookies, which the "
              "deferral does not cover: at 10,000 connections about half of httpd's "
              "connections are accepted before their request again (0.47 `epoll_ctl` per "
              "accepted connection), each then costing an `epoll_ctl` and a wait. The response goes out with `MSG_MORE` and `shutdown` sends its "
              "last segment with the FIN, one segment less per connection than a `send` "
              "and a `close` (8 TCP segments per connection on loopback, both directions, "
              "where nginx's make 10).\n")
    md.append("Where a `Connection: close` request's CPU time goes (`perf record` on the "
              "server under the same wrk load, both servers deferring the accept, figures "
              "taken at a load average of 8-12 on this machine, so higher than in the "
              "tables; the shares are what counts): at 10 connections httpd's 20.6 us are "
              "the `shutdown` 6.1 us (it sends the response that `MSG_MORE` held back "
              "together with the FIN, and the sender's CPU delivers both through loopback "
              "to the client), `accept4` 3.5 us (setting up the socket and its file), "
              "`epoll_wait` 2.5 us (the sleeps between connections: wrk's core is the "
              "bottleneck and the server runs out of work, and each sleep costs 6-9 us on "
              "this virtual machine), `close` 1.8 us, `read` 1.5 us, `stat` 1.5 us, `send` "
              "1.4 us (the copy), the listener's `poll` 0.3 us, and httpd's own code (the "
              "runtime, parsing, the cache) 0.7 us, 3 % of the samples. nginx's 28.8 us "
              "are `writev` 9.3 us (the response and its delivery), `close` 6.6 us (the "
              "FIN, and the file's), `accept4` 3.3 us, `epoll_wait` 2.2 us, the file's "
              "`open`, `fstat` and `pread` 2.9 us, `recv` 1.3 us and nginx's own code 2.9 "
              "us. At 10,000 connections (httpd 23.3 us, nginx 32.0 us) the kernel is 92 % "
              "of both; httpd's `close` grows to 4.9 us, `accept4` to 3.8 us, `read` to 2.3 "
              "us (0.9 per connection, a third of them finding nothing: the SYN-cookie "
              "connections), and `epoll_ctl` with `epoll_wait` take 1.6 us. An `accept4` "
              "that finds the queue empty costs about 3 us, where a `poll` of the listener "
              "costs 0.2 us: `cpc_accept` looks first and calls `accept4` only "
              "when a connection is queued or a wait has just said one is (one look, "
              "`getsockopt(TCP_INFO)`, tells how many are queued, and serves them all); nginx's accept "
              "loop meets the empty queue 0.1-0.75 times per request. Polling before "
              "sleeping (`CPC_POLL_SPIN_US`) costs more CPU than the sleeps it avoids at "
              "these rates.\n")
    md.append("With keep-alive at 5,000 and 10,000 connections (httpd 0.84-0.91x nginx's "
              "CPU per request in alternated runs, against 0.61-0.73x at 10-1,000) the "
              "kernel is about 90 % of both servers' time and does the same work for both "
              "(a request in, a response out, two segments), so the ratio is bounded by what "
              "httpd drops of the rest. At 10,000 connections httpd's 15.0 us are the "
              "`send` 7.8 us (the response and its delivery to wrk, with the processing of "
              "segments that arrived while the socket was locked, `__release_sock`, 1.0 "
              "us), `read` 1.9 us, `stat` 1.0 us, `epoll_wait` 0.8 us, the set-up and "
              "tear-down of the 10,000 connections inside the 3-second point (`accept4`, "
              "`epoll_ctl`, `close`: about 1.3 us per request), and httpd's own code 1.5 us "
              "(10 % of the samples: the scheduler's loop, `io_wake`, the idle wheel's "
              "condvar, `http_date`, a new continuation per request). `epoll_wait` is "
              "called 0.36-0.45 times per request: while threads are runnable the "
              "scheduler looks at its descriptors every 64 switches or 50 us of CPU at "
              "most (the bound of issue 37), which at 13-15 us per request is every third "
              "request, and each look returns about three events; nginx, which runs every "
              "ready event before it asks again, calls it less than once in 50 requests "
              "but spends about as much in it (0.65 us). nginx's 16.7 us are `writev` 7.2 "
              "us, `recv` 1.8 us, the file's `open`, `pread` and `close` 3.2 us, its own "
              "code 2.2 us (its timer tree first: `ngx_rbtree_insert_timer_value` and "
              "`ngx_rbtree_delete` are 2.2 % of its samples) and `epoll_wait` 0.65 us. "
              "httpd keeps no timer per connection: an idle connection waits on one of the "
              "64 condvars of its scheduler's wheel (`idle_wait`), which one thread sweeps, "
              "so there is no heap of 10,000 timers; its memory is 229 B of RSS per idle "
              "connection (the table below). 0.8x nginx would put httpd at about 11 us at "
              "5,000 connections, which is what the kernel alone costs it there (90 % of "
              "12.2 us), and at 14.5-14.9 us at 10,000, which single runs reach (0.78x) "
              "and the median of three misses (0.84x)."
              " Alternated at a load average of 10 (2 rounds, 5,000 connections), httpd took 12.0 "
              "us per request with the gathering of section 4b and 12.2 us without, nginx 14.1 us "
              "(0.85x): httpd under keep-alive sleeps less than once in 100 requests, so the "
              "gathering hardly applies. "
              "The cache's `stat` per request (1.0 us at 10,000 connections, 0.65 us in a "
              "loop of `fstatat` on this machine) is gone: an inotify watcher per scheduler "
              "thread watches the root, the directories of each cached file's path and the "
              "file, and the kernel sends the thread `SIGIO` (`F_OWNER_TID`) inside the very "
              "system call that changes any of them, so the handler has raised the thread's "
              "flag before a request sent after the change can be read, and the next lookup "
              "drops the watched entries; a hit is then a test of that flag (`cache.h`; "
              "`test_cache_unit` runs every change watched and by `stat`, `test_httpd` "
              "rewrites, renames over and renames a directory over a cached file between two "
              "requests on one connection). httpd's own code per keep-alive request went "
              "from 5,954 to 4,781 user instructions (callgrind, 100 connections): the "
              "`Last-Modified` date of the file served last is kept (`http_format_head`, "
              "869 -> 419), the 8 KiB request buffer and the 10 KiB work record come from "
              "8 spares per scheduler instead of `malloc` and `free` (about 800 "
              "instructions), `is_tchar` is a switch instead of `strchr`. Alternated with "
              "the tree before (old and new in turn, the median of each server's points): "
              "with the watcher and the `Last-Modified` date alone (3 rounds, load average "
              "2.5 rising to 7.3), httpd with keep-alive took 9.3 us per request at 5,000 "
              "connections against 11.3 us before and 10.6 us at 10,000 against 13.3 us, "
              "0.81x and 0.77x nginx (0.85x and 0.84x before); with all four changes (5 "
              "rounds, load 4.3-7.5) 9.4 us against 10.7 us at 5,000 and 10.2 us against "
              "11.9 us at 10,000, 0.80x (single rounds 0.71-0.87x) and 0.74x (0.72-0.82x) "
              "nginx, against 0.88x and 0.85x before, p99 0.96x and 0.95x nginx's (0.98x "
              "and 1.00x before); a third series at a load of 6.5-9.8 (3 rounds, without the "
              "`is_tchar` change) gave 0.83x and 0.77x (0.84x and 0.81x before). With `Connection: close` httpd "
              "stays at 0.57-0.75x. System calls per request at 10 connections: 3.13 -> "
              "2.67-2.84 with keep-alive, 7.29 -> 6.24-6.36 with `Connection: close`. So "
              "10,000 connections meet 0.8x with a margin, 5,000 sit at it: single rounds "
              "there range over 0.71-0.87x. What is left at 5,000 connections (`perf "
              "record`, 8.9-9.3 us): the kernel is 89 % of the samples, `send` 66 % (the "
              "response, its delivery to wrk through loopback and the segments processed "
              "on release of the socket), `read` 18 %, `epoll_wait` 3.6 %; httpd's own "
              "code about 10 % (the scheduler's loop 1.6 %, parsing, the idle wheel's "
              "condvar, the continuation made per request), about 0.9 us, which is all "
              "that is left to take without touching the kernel's share (io_uring for the "
              "`read` and `send`, not tried). ")
    md.append("The naive CPC server's code makes the calls it asks for (`accept4`, `read`, `send`, "
              "`close`), `cpc_accept`'s `poll` of the listener, and one `epoll_ctl` for each "
              "connection that waits (one-shot); its listening socket is kept (`cpc_io_keep`), "
              "registered once. Its code stays naive, as in the paper: no deferred accept (which "
              "would serve every naive server alike: 27 -> 18.5 us for CPC and 33 -> 20 us for "
              "State Threads at 1,000 connections). State Threads, waiting with select(2), "
              "registers nothing but sets each socket non-blocking with `ioctl`. Where the naive "
              "CPC server's 29.5 us per request went at 5,000 connections (`perf record`, load 1.2,"
              " before the two changes below): `send` 8.3 us and `close` 8.1 us (the response, the "
              "FIN and their delivery through loopback), `epoll_wait` 4.1 us (0.97 calls and 0.6 "
              "sleeps per request: the switch out and back, `finish_task_switch`, is 10 % of the "
              "samples), `accept4` 3.6 us, `read` 2.3 us (2.2 calls, one finding nothing), "
              "`epoll_ctl` 1.3 us, the listener's `poll` 0.4 us and the program's own code "
              "(runtime, library, `malloc`) about 1 us. State Threads' select(2) over every "
              "descriptor is 39 % of its CPU time, yet runs so rarely (0.05 calls per request) that"
              " requests pile up between two calls and have mostly arrived by the time their "
              "connection is read (1.7-1.9 reads per request), and it sleeps a tenth as often "
              "(0.02-0.04 context switches per request). Two changes of the library and runtime, "
              "which every CPC server gets, take the naive server's extra calls and sleeps. (1) The"
              " first `cpc_read` of a connection `cpc_accept` returned waits for it before reading "
              "while the first reads lately found nothing (`lib/io.cpc`; one in 16 is made at once "
              "to follow the clients, and a kept descriptor or a read with a timeout under a second"
              " is read first): reads per request went from 2.3-2.5 to 1.2-1.3 at 5,000 connections"
              " and from 2.9-3.0 to 1.5-1.6 at 10,000 (where the 10,000 connections still open at "
              "the end add 0.5 accepted connections per completed request), and system calls from "
              "8.75-9.15 to 7.43-7.90 per request at 5,000 (State Threads 6.33-6.54: no `poll`, no "
              "`epoll_ctl`). (2) A scheduler that runs out of work while at least 256 threads wait "
              "for descriptors sleeps 200 us before it waits for the first event, so that one "
              "wake-up takes what came meanwhile, and backs off while its gatherings are followed "
              "by fewer than two events (`runtime/cpc_io.c`, docs/multicore.md, section 4b). On the"
              " quiet machine (load 1.2-2.5) a first version that gathered for 200 us at every idle"
              " period, without the look first and the back-off, took the naive server at 5,000 "
              "connections from 0.6 to 0.06 context switches and from 0.96 to 0.43 `epoll_wait` "
              "calls per request, and from 29.2-30.8 to 24.2-27.6 us. At a load average of 8-10, "
              "where the machine's other work starves wrk (6-11 k requests/s instead of 18-20 k), "
              "the server idles in short cycles of one or two events, sleeps only 0.2-0.28 times "
              "per request without gathering, and the gathering mostly backs off. Alternated there "
              "(3 rounds, load 8.8 and 10.4), the naive CPC server took 27.9 and 32.5 us per "
              "request at 5,000 and 10,000 connections, against 30.4 and 34.5 us before both "
              "changes and State Threads' 32.8 and 36.7 us (0.85x, 0.89x), and in a second series "
              "(load 6.6-10) 29.5 and 35.5 us against 33.3 and 37.8 us before and State Threads' "
              "29.7 and 36.5 us (1.00x, 0.97x), while a third at 5,000 connections (load 9.4), with"
              " the first-read change alone as a third server, put all three within 31.0-31.6 us: "
              "under that load the CPU time saved is within the noise, the system calls saved are "
              "not; single points vary by 15 %, as much as the gap a full run may show either way. "
              "With the 50 us poll before sleeping, the naive server makes dozens of `epoll_wait` "
              "calls per request at 10 connections, which is where its extra CPU time goes. ")
    md.append("p99 latency with `Connection: close` from 1,000 connections: wrk closes and "
              "reopens every connection, so each of the N connections waits its turn and "
              "the latency is near N over the throughput for any server (1-1.5 s at "
              "10,000 connections and 5-7 k requests/s): the p99 follows the requests/s, "
              "which wrk's core bounds, more than the server's own speed. Alternated, with "
              "deferred accept, httpd's p99 was 1.04x, 0.94x and 0.94x nginx's at 1,000, "
              "5,000 and 10,000 connections in one series of three rounds and 1.03x, 0.91x "
              "and 1.12x in another (single points swing by 20-40 %: 785-1,210 ms for "
              "nginx at 10,000 in the second), so neither shows p99 worse or better than "
              "nginx's beyond its noise. httpd's listener accepts until the queue is empty whenever it "
              "runs, the threads it spawns and the threads woken by their descriptors join "
              "the run queue's tail, so connections are served in the order they came; the "
              "listen queue (4096 for both) did not overflow in a 10,000-connection run of "
              "httpd without the deferral (`ListenOverflows` +0, against +1,075 for "
              "nginx). "
              "io_uring, enabled on this kernel (6.18), was not tried: with the connection's "
              "`epoll_ctl` gone under deferred accept and kept descriptors, what it could still "
              "save is the `epoll_wait` share (0.3-0.45 calls, 0.4-0.8 us per request with "
              "keep-alive) and the entries of the reads and sends, and for the naive server its one"
              " `epoll_ctl` per connection (1.3 us), at the price of a second I/O back-end to keep "
              "and test. ")


def section_servers(md, bench, plots):
    conns = server_conns(bench)
    md.append("## Web servers (*Continuation-Passing C*, section 4.2)\n")
    if not conns:
        md.append("No server figures in this log.\n")
        return
    md.append("wrk on loopback, one wrk thread pinned to one core, the server pinned to "
              "the other; a fresh server per point; repetitions interleaved. The naive "
              "servers (`bench/servers/naive_*`) have the same structure: one thread or "
              "process per connection, a canned 53-byte page, `Connection: close`. httpd "
              "(`examples/httpd`) and nginx (1 worker, access log off) serve the same page "
              "from a file, with keep-alive and with every request carrying "
              "`Connection: close`; both defer the accept of a connection until its "
              "request has arrived (`TCP_DEFER_ACCEPT`: httpd `-D`, nginx `listen ... "
              "deferred`).\n")
    head = ["requests/s: median (min-max)"] + ["%d conns" % c for c in conns]
    rows = []
    for key, title in SERVERS:
        row = [title]
        for c in conns:
            m = v(bench, "servers.%s.c%d.rps" % (key, c))
            lo, hi = (v(bench, "servers.%s.c%d.rps.%s" % (key, c, s)) for s in ("min", "max"))
            if m is None:
                row.append("-")
            elif lo is not None and hi is not None and lo != hi:
                row.append("%s (%s-%s)" % (fmt_rps(m), fmt_rps(lo).replace(" k", ""),
                                           fmt_rps(hi)))
            else:
                row.append(fmt_rps(m))
        if len(row) > 1 and any(c != "-" for c in row[1:]):
            rows.append(row)
    md.append(table(head, rows))
    for metric, title in (("mean", "mean latency, ms"), ("p99", "p99 latency, ms"),
                          ("cpu", "server CPU time per request, us"),
                          ("wrk_busy", "wrk busy, % of its core")):
        md.append("")
        rows = []
        for key, name in SERVERS:
            row = [name] + [fmt_ms(v(bench, "servers.%s.c%d.%s" % (key, c, metric)))
                            for c in conns]
            if any(c != "-" for c in row[1:]):
                rows.append(row)
        md.append(table([title + " (median)"] + ["%d" % c for c in conns], rows))
    md.append("\nServer CPU time per request (user + system of the server process over the "
              "point, divided by the requests wrk completed; not for the fork server, whose "
              "children are not counted) depends far less on what else runs on the machine "
              "than requests/s does. The row *50 us poll before sleeping* is the same naive "
              "CPC server with `CPC_POLL_SPIN_US=50`: its scheduler polls its descriptors "
              "for up to 50 us before it sleeps (docs/multicore.md, section 4a; off by "
              "default), and that time is in its CPU time. *wrk busy* is the load generator's CPU time over the "
              "point's wall time: near 100 %, wrk's one core is the bottleneck, and the point "
              "compares the servers by what they cost wrk as much as by their own speed.\n")
    section_syscalls(md, bench)
    errs = []
    for key, name in SERVERS:
        for c in conns:
            e = v(bench, "servers.%s.c%d.errors" % (key, c))
            if e:
                errs.append("%s at %d: %d" % (name, c, e))
    md.append("")
    if errs:
        md.append("Socket errors and non-2xx responses (all repetitions): " +
                  "; ".join(errs) + ". GNU Pth waits with select(2) and cannot use "
                  "descriptors numbered 1024 or more; wrk counts the connections it then "
                  "drops.\n")
    else:
        md.append("No socket errors and no non-2xx responses.\n")
    for p in plots:
        md.append("![%s](results/%s)\n" % (p, p))
    md.append("### Memory per idle keep-alive connection\n")
    rows = []
    for tag, name in (("httpd", "examples/httpd"), ("nginx", "nginx, 1 worker")):
        a, b = v(bench, "servers.idle_conn.%s" % tag), v(bench, "servers.idle_rss.%s" % tag)
        if a is not None:
            rows.append((name, "%.0f B" % a, "%.0f B" % b if b is not None else "-"))
    if rows:
        md.append("Each connection makes one request and stays open; RSS of the server "
                  "process after the crowd connected, over its RSS before (after one "
                  "warm-up request). Kernel socket buffers are not in RSS. nginx allocates "
                  "its connection table (`worker_connections`, 20,000 here) at start-up, "
                  "so its growth leaves that out; the whole RSS per connection is in the "
                  "last column.\n")
        md.append(table(["server", "RSS growth per connection", "whole RSS / connections"],
                        rows))
        md.append("")


def section_primitives(md, bench, plot):
    md.append("## Primitives (*Continuation-Passing C*, fig. 5)\n")
    res = runtime_report.parse("BENCH %s %s %s" % (k, val, u) for k, (val, u) in bench.items()
                               if k.startswith("runtime.") and
                               k.split(".")[1] in ("switch", "cond", "spawn", "idle"))
    if not res:
        md.append("No runtime figures in this log.\n")
        return
    md.append("From `make bench-runtime` (see README.md): ns per operation, median of the "
              "interleaved runs (minimum in parentheses), one core.\n")
    md.append(runtime_report.table(res))
    md.append("")
    if plot:
        md.append("![primitives](results/%s)\n" % plot)
    rows = []
    for mode in ("loop", "call", "cpscall"):
        x = v(bench, "translator.%s" % mode)
        if x is not None:
            rows.append((mode, "%.2f ns" % x,
                         "%.2f ns" % (v(bench, "translator.%s.min" % mode) or 0)))
    if rows:
        md.append("The paper's loop / call / cps-call columns (`bench/translator/cpscall.cpc`, "
                  "cpcc -O2):\n")
        md.append(table(["", "median", "min"], rows))
        md.append("")


def section_instructions(md, bench):
    """Instructions per operation (bench/runtime/instructions.py) and where
    CPC's go: the analysis of each remaining gap to event-driven C."""
    tests = [t for t in ("switch", "cond", "spawn") if v(bench, "instr.%s.cpc" % t)]
    if not tests:
        return
    md.append("## Instructions per operation (callgrind)\n")
    md.append("Times on this shared machine move by 10-40% between runs; instruction counts "
              "(`bench/runtime/instructions.py`, valgrind's callgrind at N and 2N iterations, "
              "the difference per operation) do not. An operation: a switch (one thread's "
              "turn), half a cond round (a signal and a wait), a spawn (create, run, end).\n")
    systems = [("baseline", "event C"), ("coro", "C++20 coro"), ("cpc", "CPC"),
               ("cpcc", "CPC via cpcc")]
    rows = []
    for t in tests:
        base = v(bench, "instr.%s.baseline" % t)
        row = [t] + ["%.1f" % v(bench, "instr.%s.%s" % (t, s)) if v(bench, "instr.%s.%s" % (t, s))
                     is not None else "-" for s, _ in systems]
        cpc = v(bench, "instr.%s.cpc" % t)
        row.append("%.2f x" % (cpc / base) if base else "-")
        rows.append(row)
    md.append(table([""] + [n for _, n in systems] + ["CPC / event C"], rows))
    md.append("")
    md.append("Where CPC's instructions go (`bench-cpc`, by function): the scheduler's loop and "
              "trampoline (`sched_*`), the primitive (`cpc_wait`, and the functions of "
              "`cpc_signal` and `cpc_spawn_continuation`: optimised code yields, signals and "
              "spawns inline, in the thread code), "
              "continuations made and freed, and the threads' own "
              "code (bodies, resume functions, spawn thunks), beside event-driven C's total:\n")
    rows = []
    for t in tests:
        row = [t]
        for g in ("loop", "primitive", "alloc", "thread"):
            x = v(bench, "instr.%s.cpc.%s" % (t, g))
            row.append("%.1f" % x if x is not None else "-")
        row.append("%.1f" % (v(bench, "instr.%s.baseline" % t) or 0))
        rows.append(row)
    md.append(table(["", "loop", "primitive", "alloc", "thread code", "event C, all"], rows))
    md.append("")
    md.append(
        "What each gap is made of (read from the annotated code, `callgrind_annotate --dump-"
        "instr=yes`; `bench-cpc`, via cpcc within one instruction; optimised code yields, "
        "signals and spawns inline, so those count in the thread code):\n\n"
        "- *Loop.* Event-driven C's run loop pops a task and calls its callback: 9 "
        "instructions a switch (C++20's the same, plus 2 in `coroutine_handle::resume`). In "
        "CPC, a yield called from the default loop's trampoline switches directly: it queues "
        "its thread and returns the one at the head (docs/abi.md, \"The run queue\"). The "
        "trampoline then tests the returned continuation (NULL: suspended; 3 with gcc's copy "
        "of it), refills the call budget (1), tests it for an end (`length == 0`, whose load "
        "also finds the top frame's function: 3), counts down the service interval (2) and "
        "calls (2): 11.5 a switch (15.3 when a yield returns NULL and the loop takes the next"
        " thread from the queue's head). A thread taken from the queue's head, after a wait "
        "or a spawn, costs about 15: the head's test and pop, the count-down, the end test, "
        "the call and the result test. The end test, the result test and the refill are the "
        "continuation protocol's; the count-down is the price of the service bound.\n"
        "- *Yield.* 11 instructions in the caller: the load of the loop's run queue (`cpc__tls_direct`: a thread-local of the library, initial-exec, costs the executable a load of its offset and the load: 2), the queue's head and its test (3), the push at the tail and the pop of the head (6); event C's push is 6, and its loop pops. The thread-local is never NULL: outside a scheduler's loop (pool workers, foreign OS threads, nested runs, native code) it points at an empty, read-only run queue whose condvar key no condvar carries, so the empty head that sends a yield (or a spawn) to the function, and the key compare that sends a signal there, also cover \"no loop\": the NULL test is gone from the yield, the signal and the spawn (2 instructions each; switch 45.5 to 43.5 by hand and 47.5 to 45.5 via cpcc, cond 79 to 77, spawn 93 to 92.2 and 103 to 102.2, a spawn into an empty queue now calling the function; in time within the noise of alternating runs: cond 3.11 to 3.08 ns by hand, via cpcc 3.08 to 3.09, event C 2.46, C++20 3.08). A yield that finds the queue empty calls the function, which queues the thread for the loop to take again. As a function, `cpc_yield` costs a jump, 10 instructions and the return.\n"
        "- *Signal and wait.* `cpc_signal` checks the condvar (NULL, owner and no removable waiter: one compare of a word) and the scheduler before its pop and push, about 18; an untimed `cpc_wait` (its own entry, `cpc_wait_plain__cps`) checks the condvar and the room for its 8-byte wait record (a cps entry reserves room for its frames and return value, not for a primitive's record) before pushing, about 19; event C's queue operations are inline, about 20 for both. Optimised code signals inline (a macro of `cpc/cpc_runtime.h`, as it yields: the loop's thread-local run queue, the condvar's magic and count of removable waiters compared with the scheduler's key as one word): one instruction more than the call and the function (79.0 a cond operation, by hand and via cpcc), and 5-10% faster in alternating runs under `chrt -f 1` (via cpcc 3.30-3.59 ns before, 2.99-3.22 after; event C 2.41-2.70, C++20 2.99-3.12), the call and its return gone from the thread's code. A wait that switched directly would add its test and the pop (about 7) to save the difference between the loop's two paths (about 4). Measured: a wait that switches directly (it returns the queue's head when the loop's trampoline runs it, as the yield does) runs 82.5 instructions a cond operation against 77.5, and is no faster in alternating runs (3.48-3.67 ns against 3.17-3.66 ns, `chrt -f 1`), so the wait returns NULL. An inline untimed wait (a macro as for the signal: the loop's key, the room for the record, the record and the push written in the thread's code) was measured: 75.5 instructions a cond operation by hand against 77, but 79 via cpcc, where gcc stops inlining the generated body into the resume function (`ping__body` called from `ping__resume_1`, 5 more instructions and a fifth saved register) and reloads the thread-local after the signal's stores (pointer stores that gcc does not tell apart from it); left out. The function's key check reads the runtime's own thread-local in one instruction, the executable's macro in three. The wait's room test is gone: a cps function with a frame that calls `cpc_wait` reserves the 8-byte record above its frame at its entry (a member `struct { struct F__frame f; char w[CPC_WAIT_RECORD]; } w;` of its `union F__reserve`, folded into the entry's one room test) and waits through `cpc_wait_reserved__cps`, the untimed wait without the test (docs/abi.md; the debug runtime checks the reservation). 74.0 instructions a cond operation against 77.0, by hand and via cpcc: the loop 15.5, the wait 16, the thread code 42.5. In alternating runs (11 rounds, `chrt -f 1`, pinned, load 7.6) via cpcc 2.98 ns median (2.91 min) against 3.11 (3.04), by hand 2.95 (2.87) against 3.11 (2.93), event C 2.43 (2.38): 1.23x event C median, 1.22x min, from 1.28x. Where the 74 go, instruction by instruction (`callgrind --dump-instr=yes`, via cpcc): the wait's 16 are its check of the condvar (NULL, and its magic against the scheduler's key: 6), the record's link word, which is also the result CPC_CONDVAR and says \"plain waiter\" to the relinking of removable waiters (1), the waiter's `cpc_next` (1), the queue's append with its empty-queue test (5), the return of NULL and a copy (3); the inline signal's 18 are the loop's thread-local (2), the same check (5), the head's load and test (3), its pop with `cpc_next` cleared for the run queue and the run queue's empty test (5) and the append (3); the loop's 15.5 are the head's test and pop (5), the count-down of the service interval (2), the end test (2), the call (2) and the test of its NULL result (3). None of these repeats a check: the signal checks the condvar it signals and the wait the one it waits on, and in the ping-pong these differ; the end test is what makes `return cpc_wait(c);` in a thread's outermost function legal (the thread is woken with no frame left), the stores of `cpc_next` keep both queues' ends without a tail test at the pop, and moving the empty-queue test from the append to the pop (a tail always valid) would trade 2 instructions of the signal for 2-3 of the loop. The rest of the gap to event C's 44.5 is in the thread code (pong's resume function: 43): 12 instructions keep registers (4 pushes, 4 pops, two stack adjustments, `k` copied in and out of a saved register) that only the benchmark's cold timer calls use, and 7 find the frame, reload `n` and `i` from it and store `i` back, where event C reads its task's fields in place: what frame-resident variables (at -O1 and above) remove; the loop's test (3) and the tail call of the wait (2) are the program's.\n"
        "- *Thread code.* The yielder's resume function (cpcc) runs 22 instructions besides "
        "the yield: 9 keep registers (3 pushes, 3 pops, the stack adjustment twice, the copy "
        "of `k` into a saved register) that only its cold paths (the calls of the timer) use,"
        " which gcc does not shrink-wrap; 2 are copies gcc hoists for those paths (`k->c`, "
        "the length); 11 reload the loop's state from the frame, test it, store `i` back and "
        "return. Event C keeps its state in its task and reads it in place (21 a switch, 4 of"
        " them register saves); C++20's coroutine saves one register but dispatches on its "
        "resume index (a chain of compares), which CPC does not need: each resume point has "
        "its own function. Those saves come from the benchmark's timer calls (`mark_start`, `mark_end`, inlined into the loop), not from the runtime header's macros, whose cold paths (the yield's call when no loop runs it, the bounce when the call budget is spent) are tail calls and need no saved register: with the timer calls out of line and cold, gcc still saves 2 registers and adjusts the stack, since a call in the middle of the loop needs them.\n"
        "- *The switch against C++20* (45 via cpcc, 43.5 by hand, against 37; `callgrind --dump-instr=yes` on both, instruction by instruction). C++20's coroutine runs 28 and its loop 9; cpcc's resume function runs 34 and the loop 11. Of the 8 more: register saves +4 (CPC pushes and pops 3 registers and moves `k`, C++20 one; gcc saves them for the timer calls that the benchmark's loop makes, on both sides, because CPC's loop state lives in registers between the frame's load and store, C++20's in its frame); the loop's state +1 (gcc loads `id`, which only the cold timer path reads, on every pass); the queue +4 (the thread-local run queue, 2, against C++20's global queue, and the head's test and the result's copy of the direct switch); the loop +2 (the budget refill, 1, and the service count-down, 2, against C++20's pop, which the yield does in CPC); and -3 for the frame (CPC finds it with the length, 3, plus gcc's hoisted `k->c`, 1; C++20 tests and sets its resume index, 7). The benchmark is fair in shape (the same loop, the same inline timer calls, one `co_await` or `cpc_yield`); what CPC is given that C++20 is not is a scheduler per OS thread (a thread-local queue: C++20's would cost it the same 1-2 loads) and the service bound (its count-down: C++20's loop serves no I/O or timers). What the generated code would need to reach C++20: frame-resident variables at -O1 and above (the issue allows them: the 4 register saves and the hoisted copies go when the loop's state is read and written in the frame, as C++20 does), which is the translator's. The end test could go only with a sentinel frame (idle thread above 32 bytes); the count-down is the service bound. Timed (alternating runs, `chrt -f 1`, pinned, 21 each, load 13-14): via cpcc 1.96 ns median (1.93 min) against C++20 1.85 (1.71), event C 2.08 (1.80), by hand 1.98 (1.92); before the NULL test went, via cpcc 1.98 (1.92), by hand 1.98 (1.95): the 2 instructions do not show in time, and the switch stays 1.06x C++20 (0.94x event C). On the quiet machine (load 0.4-1, the same 21 alternating runs): via cpcc 1.95 ns (1.90 min), by hand 1.95 (1.92), C++20 1.69 (1.67), event C 2.07 (1.87): 1.15x C++20, 0.94x event C; cond by hand 3.01 (2.93), via cpcc 3.03 (2.97), event C 2.44 (2.36), C++20 3.08 (2.94): 1.23-1.24x event C; spawn by hand 4.11 (3.94), via cpcc 4.57 (4.39), event C 8.40 (8.05): 0.49x and 0.54x (min 0.49x, 0.55x). The switch's time is bound by the queue's store and reload of a link, which event C and C++20 pay too.\n"
        "- *Frame-resident variables* (cpcc's default from -O1 on, `--dataflow=frame`; `-O2 --dataflow=lifting` against it, the same tree, `bench/runtime/instructions.py`). Via cpcc a switch takes 42.5 instructions against 45.5 lifted, a cond 72.5 against 77.0, a spawn 86.2 against 83.3: the yielder's and ping's loops read and write `i` and `n` in the frame (`addq $1` and a compare on the field) where lifting reloaded them after the resume and stored `i` back before the yield; the resume function still pushes and pops 2 registers and adjusts the stack for the cold timer calls, which gcc does not shrink-wrap. The spawner loses 3: `cpc_continuation_new` and `cpc_spawn_continuation` are native calls gcc must assume may write the frame (it is heap memory), so `i` is reloaded after each, where lifting kept it in a saved register. The cps call (`bench/translator` cpscall: 29.8 instructions an iteration, callgrind) does not change. Generated C of the translator's large functions: `gotos` at 4,000 labels 25.5 MB lifted, 1.4 MB resident; at 8,000 (16,006 lines) 101 MB and 2.8 MB, translated in 8.4 s and 6.6 s of CPU (16,000 labels, 32,006 lines: 14.2 s resident, over the 10 s budget: the translation's own passes, not the restores, then bound it; load 6-8); func10k 3.9 MB and 3.1 MB, gcc -O2 9.0 s and 7.8-8.4 s on it against 2.9 s for the same function as plain C (3.1x and 2.7-2.9x; load 6-9). Timed (11 alternating runs, pinned, load 1.1): switch 1.75 ns median (1.73 min) resident against 1.89 (1.83) lifted, C++20 1.81 (1.59), event C 1.91 (1.79); cond 2.87 (2.69) against 2.99 (2.87), event C 2.37 (2.24): 1.21x where lifting is 1.26x; spawn 4.26 (4.02) against 3.96 (3.81), event C 8.11 (7.77): 0.53x.\n"
        "- *Wake-up across schedulers* (`bench/multicore`, ping-pong). A pass of the ball: the signaller locks the shared condvar, pops the waiter, reads the waiter's scheduler from its wait record and pushes it onto that scheduler's inbox, a lock-free stack (one compare-and-swap; the eventfd is written only when that scheduler sleeps); the idle scheduler, spinning on its inbox for up to 50 us (giving its core away every 64 pauses), takes the stack with one exchange, reverses it and runs the thread, which takes the program's mutex. Each step touches memory the other OS thread wrote last, so a pass costs what moving a few cache lines between the two threads costs, and that depends on where the host runs them: `multicore.handoff.2threads` (two OS threads passing a flag, no CPC) measured 188-226 ns on this virtual machine at one time (two cores: a pass then took 710-725 ns, 3.8 hand-offs) and 22-25 ns at others (two hyperthreads of one core), all under `chrt -f 1` at load 8-10; a pass's nanoseconds are comparable only between runs with the same floor. The inbox was a mutex-protected FIFO: each pass took and released the receiver's inbox lock on both sides. Step by step (callgrind, 40,000 passes, the spin left out): `pthread_mutex_lock` 186 instructions a pass and `pthread_mutex_unlock` 144 (the program's mutex, the condvar's and the inbox's), the inbox push 43, its drain 39; the lock-free stack takes 62 and 48 instructions off the two lock calls, 20 off the push and 9 off the drain, about 140 a pass, and 4 atomic read-modify-writes become 2. `strace -c -f` (20,000 rounds): about one `sched_yield` a pass from the spin (under strace a pass is slow enough to reach 64 pauses) and almost no eventfd `write` (28 before, 5 after, per 40,000 passes): the receiver is awake, spinning, and no wake-up costs a system call; `multicore.pingpong.2sched.sleeps` is 0.000 a pass. Where the stack's head sits decides whether it pays: beside the run queue (the line the receiving loop writes at every pass) a pass took 301 ns, median of 10 alternating runs, against the mutex inbox's 273 ns; at the start of a line of its own, 226 ns. Alternated 10 times (`chrt -f 1`, load 8.9, floor 22-25 ns: hyperthreads), the mutex inbox took 275 ns a pass median (256 min) and the lock-free one 230 ns (200 min); `make bench-multicore`'s best of 3 printed 198 ns against 280 ns (CPU 400 against 563 ns a pass). On two separate cores (floor 188-226 ns) it was not measured: the host placed the two threads on hyperthreads throughout. The slowdown measured after the direct-switch loop (278-310 ns to 329-360 ns) is not in the code (callgrind: the same instructions in both trees) but in the placement of the heap: the benchmark's two shared condvars, allocated 80 bytes apart, came to share a cache line (one's lock, the other's wait list) when the heap's layout moved by 16 bytes, which on two cores cost 10% a pass; a shared condvar now takes a cache line of its own, and so do a scheduler and its continuation heap (aligned allocations: alone, that alignment moved the ping-pong from 265 to 294 ns on hyperthreads; with the stack head in its own line, the whole is the 230 ns above). Tried and left out: a test-and-set lock instead of the pthread mutexes of inbox and condvar (30% slower on two cores), storing a woken thread's link only when it changes, raising the inbox's flag after its lock is released, and spinning 4 us before the first `sched_yield` (each no faster). The lines a pass moves, read from the code (no hardware counters on this virtual machine): the signaller takes the program's mutex and reads the turn, two lines apart in the benchmark's data, both written last by the other side (2); its signal locks the shared condvar the other side waited on (1), pops the waiter, whose `cpc_next` and wait record (`home`) the waiter wrote as it suspended, and writes its `cpc_next` (1), compare-and-swaps the receiver's inbox head, which the receiver exchanged last (1), and reads the receiver's `parked`, which shares the run queue's line that the receiver writes at every switch (1, a shared copy that the receiver's next write invalidates); then it waits on its own condvar, which the other side signalled last (1). The receiver's spin then reads its inbox line back (1) and the woken thread's `cpc_next` (1), and its thread takes the mutex and the turn (2). On the path from one player's turn to the other's, the dependent moves are the mutex and the turn, the condvar, the waiter's continuation, the inbox (signaller's side), then the inbox and the continuation again (receiver's side): at least the inbox and the program's own ball (mutex and turn) must cross, so a pass cannot cost less than about two hand-offs, about 400 ns on two separate cores (floor 188-226 ns): the 300 ns target is out of reach there for any wake-up that hands the thread through memory the other core reads, and the ping-pong's measure is then the number of hand-offs above those two. Measured again at both placements (alternating rounds, `chrt -f 1`, load 7-11): on hyperthreads (floor 21-26 ns) 200-216 ns a pass median, 181-187 min; on two separate cores (floor 195-251 ns) 916-950 ns median, 864-891 min, about 4.5 hand-offs. The benchmark's turn put in its mutex's cache line (it sits in the line of the condvar pointers, apart from the mutex) measured 890 ns median against 950 on separate cores in one set of 10 alternating rounds (floor 195-237 ns) but 920 against 916 in another of 18 (floor 195-251 ns), and 199 against 203 ns on hyperthreads: no consistent change, so the benchmark stays as it was measured before. Tried in the runtime and left out, each measured alternating with the tree at both placements: `parked` moved off the run queue's line into the line of `awake`, which changes only when the scheduler sleeps (separate cores 977 ns median against 950 in 10 alternating rounds, 966 against 916 in 18; hyperthreads 256 against 210: slower); a signaller that writes nothing into the woken thread's continuation (the shared condvar's pop leaves its `cpc_next` alone, and a push onto an empty inbox tags the head's low bit instead of linking the thread, so the receiver finds a one-thread stack without reading it): 1,018-1,108 ns median against 916-950 on separate cores and 266-271 against 214-219 on hyperthreads, slower at both (probably because the receiver reads and then writes that line: a line the signaller wrote comes back in one transfer, where one it only read also makes the receiver's write wait for an invalidation); four pauses between two looks at the inbox instead of one (216 against 216 ns on hyperthreads). Instructions a pass (callgrind, 20,000 rounds, the spin left out): about 520, of which `pthread_mutex_lock` 124 and `pthread_mutex_unlock` 104 (the program's mutex twice, the two condvars' once), the player's code 67, the shared signal 52 and wait 40, the inbox drain 26 and push 23, the loops 25, the idle path's look at timers (`sched_poll_timeout`, `cpc__tmr_next`: 18) and clock 10.\n- *Tic-tac-toe on two schedulers* (`bench/multicore`, 72 threads, one per opening move and reply, spread round-robin). The two schedulers get exactly the same work (274,968 nodes of the search each: counted), and callgrind counts the same instructions on one scheduler and on two (371.00 M against 371.05 M at 4 rounds), yet the busiest scheduler's CPU time on two was 0.17-0.19 s against 0.30-0.32 s on one (1.70-1.80x), and two separate one-scheduler processes run side by side each took only 3-5% more CPU than one alone. The difference was false sharing in the benchmark: each thread's board (an array whose address is taken, so a heap environment allocated where its function is entered) was allocated by the main thread before `cpc_link` moved the thread, so the 72 boards were 32-byte blocks side by side, alternating between the schedulers, two per cache line, written at every node of the search by two cores. The board now lives in `ttt_rounds`, entered after the move, and is allocated by the thread of the scheduler that searches it: in alternating runs (`chrt -f 1`, load 8, floor 22-24 ns) the busiest scheduler's CPU went from 0.169-0.175 s to 0.151-0.160 s, and the scaling from 1.73-1.76x (median of ratios 1.75) to 1.80-1.84x (1.82); fib in the same runs 1.87-2.08x. What still varies between runs: where the host puts the two vCPUs (fib's single-scheduler time moved by 11-13% when the benchmark's code moved: the same instructions, `fib__cps` 32 bytes further into its cache line), and other programs on the machine (without `chrt`, at load 4-9, single runs vary by 30-60% in wall time, which is why `run.py` keeps the best of 5 and prints `scaling_cpu`, the busiest OS thread's CPU time, beside the wall time).\n"
        "- *Spawn.* CPC spends fewer instructions than event C (its continuations come from a per-size-class cache instead of malloc and free), but fewer per nanosecond: its time is bounded by chains of dependent memory operations (the slab's free list, each pop's load waiting for the previous pop's store; the slab's live count; the run queue's tail), where malloc and free run at a high rate. The loop that takes directly switched threads costs it 1.1 instructions (101.0 against 99.9) and 2-3% in alternating runs. Optimised code spawns inline (a macro of `cpc/cpc_runtime.h`, as it yields and signals: in a scheduler's loop, the push at the run queue's tail): 93.0 instructions (103.0 via cpcc, against 99.0 and 109.0 with the call) and 8-11% faster in alternating runs under `chrt -f 1` (5.89-6.06 ns against 6.31-6.74; via cpcc 6.08-6.16 against 6.67-6.85; event C 8.26-8.73 in the same runs: 0.69-0.75x, the target being 0.6x). On this host (AMD EPYC, 2.6 GHz nominal; no performance counters in this virtual machine, so cycles are not measured) a spawn's 92 instructions in 5.5-5.7 ns would be 6.3 a cycle at the nominal clock, so the core runs well above it and the chains named above are not all of the time: instructions and taken branches show too (the inline free below removed 7 instructions and 2 taken branches, the call and its return, and 29% of the time). Where they are: allocation 16 (`cpc_continuation_new`: the heap's thread-local, the size class, the slab's free list pop and live count) plus its call; the free 15 (slab or malloc'd, the slab's heap compared with the scheduler's, the push and the live count) plus its call from the loop; the loop 22.7; the spawner's and the child's code. The default scheduler's loop now frees an ended thread's slot inline (the slot test, the slab's heap compared with the default one, the push on the slab's free list and its live count; `cpc_internal.h`, `struct slab` moved there; anything else calls the function): 85.2 instructions (95.2 via cpcc) against 92.2 (102.2), and 25-29% faster in alternating runs (21 each, `chrt -f 1`, pinned, load 8.5): 4.17 ns median (4.05 min) against 5.86 (5.74) before both changes of this analysis, via cpcc 4.68 (4.48) against 6.10 (6.00); event C 8.45 (8.10), C++20 10.28 (10.04) in the same runs: 0.49x event C by hand, 0.55x via cpcc (min 0.50x, 0.55x). More time than instructions went: the call and return around the free, and its jump back into the loop, cost more than their count on this host. `t_ended_threads_memory_returns` checks that slabs emptied by the loop's free still go back to the system (it fails, 9.9 MB kept, when the inline free skips the slab's slow path), and `t_ended_threads_of_other_heap` that a slot of another scheduler's heap goes back through that heap's remote list (its TSan flavour reports a race when the heap compare is skipped). A header-inline allocation of constant small sizes (the size class folded, the heap through a never-NULL thread-local as the run queue's) would save about 5 more; not tried. Via cpcc, the child is a leaf (a cps function that makes no cps call), whose entry spends no call budget (docs/abi.md, \"Leaf functions\"): 83.2 instructions a spawn against 95.2, below the hand-written benchmark's 85.2 (the decrement and its test, a saved register and the stack adjustments gone from `child__cps`); the `bench/translator` cps call, whose callee is a leaf too, runs 29.8 instructions an iteration against 32.6 (callgrind), 0.85 ns against 1.10 ns median in 7 alternating runs (`chrt -f 1`, pinned, load 9.5).\n")


def section_fib(md, bench, plot):
    md.append("## Heap frames against stacks (*One-shot continuations*, fig. 5)\n")
    every = sorted({int(m.group(1)) for k in bench
                    for m in [re.match(r"fib\.\w+\.e(\d+)$", k)] if m})
    if not every:
        md.append("No fib figures in this log.\n")
        return
    md.append("100 threads each compute fib(20) by the doubly recursive algorithm, the "
              "running thread switching every N procedure calls; ms of CPU time per run, "
              "median. CPC: every call a cps call (frames in the heap-allocated "
              "continuation), `cpc_yield`. Stackful: native calls on a 16 KiB stack per "
              "thread, switching back to a round-robin scheduler (boost.context's "
              "`jump_fcontext`; `swapcontext`, which makes a system call for the signal "
              "mask). Plain C: the same calls, no threads, no switches.\n")
    rows = []
    for key, title in FIB_SYSTEMS:
        row = [title] + [fmt_ms(v(bench, "fib.%s.e%d" % (key, e))) for e in every]
        if any(c != "-" for c in row[1:]):
            rows.append(row)
    md.append(table(["calls per switch"] + [str(e) for e in every], rows))
    md.append("")
    notes = []
    for key, title in (("boost", "boost.context"), ("ucontext", "ucontext")):
        x = v(bench, "fib.crossover.%s" % key)
        if x is not None:
            notes.append("%s beats CPC from one switch every **%d** calls" % (title, x)
                         if x else "%s never beats CPC here" % title)
    if notes:
        md.append("Crossover: " + "; ".join(notes) + ". *One-shot continuations* found the heap "
                  "(CPS) version ahead only for switches more often than every 4 to 8 "
                  "calls.\n")
    if plot:
        md.append("![fib](results/%s)\n" % plot)


def section_dataflow(md, bench):
    md.append("## Data flow: lambda lifting against environments (*Generating events with style*, Table 1)\n")
    tests = [("cpscall", "cps call (ns)"), ("switch", "switch (ns)"),
             ("cond", "condvar (ns)"), ("spawn", "spawn (ns)"),
             ("tictactoe.manual", "tic-tac-toe, manual allocation (ms per task)"),
             ("tictactoe.automatic", "tic-tac-toe, automatic allocation (ms per task)")]
    rows = []
    for t, title in tests:
        a, b = v(bench, "dataflow.%s.lifting" % t), v(bench, "dataflow.%s.environments" % t)
        r = v(bench, "dataflow.%s.ratio" % t)
        if a is None and b is None:
            continue
        rows.append((title, fmt_ms(a), fmt_ms(b), "%.2f" % r if r else "-", STYLE_TABLE1.get(t, "-")))
    if not rows:
        md.append("No data-flow figures in this log.\n")
        return
    md.append("The same CPC sources compiled by `cpcc -O2 --dataflow=lifting` (CPC) and "
              "`--dataflow=environments` (eCPC); medians of interleaved runs. The "
              "tic-tac-toe generator (`bench/papers/tictactoe.cpc`) explores the 3^9 "
              "grids with three threads per step; both schemes and both allocations must "
              "print the same checksum. Ratio: environments / lifting (above 1: "
              "environments slower).\n")
    md.append(table(["benchmark", "lifting", "environments", "ratio",
                     "*Generating events with style* (Core 2 Duo; tic-tac-toe: Centrino)"], rows))
    md.append("")


def section_memory(md, bench, lines):
    md.append("## Idle threads in 8 GiB (*Continuation-Passing C*, fig. 4)\n")
    rows = []
    for key, title in IDLE_SYSTEMS:
        x = v(bench, "runtime.idle.%s" % key)
        if x is None or x <= 0:
            continue
        rows.append((title, "%.0f B" % x, "{:,}".format(int(GIB8 / x)),
                     CPC_PAPER_FIG4_THREADS.get(key, "-")))
    if not rows:
        md.append("No idle-thread figures in this log.\n")
        return
    counts = [l.strip().lstrip("# ").replace("idle thread counts: ", "")
              for l in lines if "idle thread counts:" in l]
    md.append("Bytes per idle thread: peak RSS growth over a bounded crowd of threads "
              "blocked on one condition variable (thread counts: %s), extrapolated to 8 GiB "
              "rather than allocated. Kernel memory is not in RSS: an nptl thread "
              "also holds a kernel stack (16 KiB) and task structure, and its 8 MiB stack "
              "reservation limits it by address space and overcommit first.\n" % "; ".join(counts))
    md.append(table(["system", "bytes per idle thread", "threads in 8 GiB",
                     "*Continuation-Passing C*, in 4 GB (2011)"], rows))
    md.append("")


def section_translation(md, bench):
    md.append("## Translation\n")
    a, b = v(bench, "translator.compile.source_lines"), v(bench, "translator.compile.generated_lines")
    r, c = v(bench, "translator.compile.lines_per_source"), v(bench, "translator.compile.ratio")
    if r is None and c is None:
        md.append("No translation figures in this log.\n")
        return
    rows = []
    if r is not None:
        rows.append(("generated C lines per CPC line", "%.2f (%d lines become %d)" % (
            r, a or 0, b or 0)))
    if c is not None:
        rows.append(("`cpcc -O2 -c` CPU time / `cc -O2 -c` on the generated C", "%.2fx (%.2f s / %.2f s)" % (
            c, v(bench, "translator.compile.cpcc") or 0, v(bench, "translator.compile.gcc") or 0)))
    md.append("A generated 5,000-line CPC file (`bench/translator/gen5k.py`).\n")
    md.append(table(["", ""], rows))
    md.append("")
    md.append(
        "The translator's own CPU outside the emitter and `boxing` (bench/README.md, \"Translation "
        "speed on real code\", measured apart in alternated runs): finding the file's conditional "
        "directives without tokenizing it, `cc -E` on the file up to its last `#endif` only, the "
        "`macros` pass walking only the subtrees that touch a macro invocation, `consistency` "
        "asking the cps-ness of a header's function only when its name is declared again, the "
        "unevaluated operands of a definition made once for `typecheck` and `unevaluated`, and "
        "cpcc ending without the interpreter's teardown took the whole translation "
        "(`cpcc --cpc-emit-c`) of this file from 2.09 to 1.68 s of CPU, and 16-23% off the other "
        "real-code cases but the library's six small files (7%); `cpcc -O2 -c` on it went from "
        "1.36-1.46x to 1.32-1.36x cc on the generated C in the same rounds, still above the "
        "1.3x target. The C written is the same byte for byte (`tests/translator/same_c.py`). "
        "What is left of those passes is mostly what each parse costs: listing its cursors "
        "through libclang's callbacks (about 1.2 us a node), the functions' analyses made again "
        "for the new cursors, and `gen5k`'s four parses, each pass that edits (`rename`, "
        "`normalize`, `boxing`) changing what the next one reads.\n")


def section_qemu_io(md, bench, lines):
    md.append("## The paper's QEMU under concurrent requests (*QEMU/CPC*, section 7.2)\n")
    rows = []
    for op, title in (("aio_write", "aio_write, 4 KiB, allocating: wall"),
                      ("aio_write.cpu", "aio_write: CPU"),
                      ("aio_read", "aio_read, 4 KiB: wall"), ("aio_read.cpu", "aio_read: CPU")):
        c, u = v(bench, "qemu_io.%s.cpc" % op), v(bench, "qemu_io.%s.ucontext" % op)
        r = v(bench, "qemu_io.%s.ucontext_over_cpc" % op)
        if c is None and u is None:
            continue
        rows.append((title, "%.0f" % c if c is not None else "-",
                     "%.0f" % u if u is not None else "-", "%.2f" % r if r else "-"))
    if not rows:
        skipped = [l.strip().lstrip("# ") for l in lines if "bench-qemu-io: skipped" in l]
        md.append((skipped[0] + "\n") if skipped else "No qemu-io figures in this log.\n")
        return
    setup = [l.strip().lstrip("# ").replace("qemu_io: ", "") for l in lines
             if l.startswith("# qemu_io: ")]
    md.append("`qemu-io` of the branch `cpc` of kerneis/qemu, built by cpcc with the CPC backend "
              "and by gcc with ucontext (tests/qemu-cpc/build.sh), on a qcow2 image: every "
              "request in flight at once, the cost of a run without requests subtracted "
              "(%s). ns per request; ratio: ucontext / CPC (above 1: CPC faster).\n"
              % "; ".join(setup))
    md.append(table(["requests", "CPC", "ucontext", "ratio"], rows))
    md.append("")


def main(argv):
    if len(argv) != 3:
        print(__doc__, file=sys.stderr)
        return 2
    log, out = argv[1], argv[2]
    with open(log, errors="replace") as f:
        lines = f.readlines()
    bench = targets.parse(lines)
    if not bench:
        print("results.py: no BENCH lines in %s" % log, file=sys.stderr)
        return 1
    mach = comments(lines)
    quick = any("quick" in l for l in lines if l.startswith("# ") and "run(s)" in l)
    outdir = os.path.join(os.path.dirname(os.path.abspath(out)), "results")
    os.makedirs(outdir, exist_ok=True)
    md = ["# Benchmark results\n",
          "Written by `make bench-report` from `%s` (the latest `make bench`). "
          "Every figure below was measured in that one run; how each is measured is in "
          "[README.md](README.md).\n" % os.path.relpath(log, os.path.dirname(os.path.dirname(
              os.path.abspath(out))))]
    section_machine(md, mach, quick)
    section_targets(md, bench)
    section_servers(md, bench, plot_servers(bench, outdir))
    section_primitives(md, bench, plot_primitives(bench, outdir))
    section_instructions(md, bench)
    section_fib(md, bench, plot_fib(bench, outdir))
    section_dataflow(md, bench)
    section_memory(md, bench, lines)
    section_translation(md, bench)
    section_qemu_io(md, bench, lines)
    failed = [l.strip()[2:] for l in lines if l.startswith("# FAILED")]
    if failed:
        md.append("## Failures in this run\n")
        md.append("\n".join("- " + f for f in failed) + "\n")
    with open(out, "w") as f:
        f.write("\n".join(md).rstrip() + "\n")
    print("results.py: wrote %s and %s/" % (out, outdir))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
