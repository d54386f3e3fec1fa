#!/usr/bin/env python3
"""Web server benchmark: the naive servers of "Continuation-Passing C" (section 4.2), examples/httpd and nginx.

    run.py BINDIR HTTPD

BINDIR holds naive-cpc, naive-st, naive-pth, naive-nptl, naive-fork (one
thread or process per connection, canned page, Connection: close);
naive-cpc-poll50 is naive-cpc run with CPC_POLL_SPIN_US=50;
HTTPD is examples/httpd's binary.  nginx (1 worker, the same page from a
file, access log off) runs from a configuration written into a temporary
directory.  Both httpd (-D) and nginx (listen ... deferred) defer the
accept of a connection until its request arrives (TCP_DEFER_ACCEPT): the
same kernel help for both.  httpd and nginx run twice: with keep-alive and with every
request carrying "Connection: close".

Every point is a fresh server pinned to one core (BENCH_SERVER_CPU,
default 0) and wrk pinned to the other (BENCH_WRK_CPU, default 1), one
wrk thread, on loopback, for BENCH_DURATION seconds.  Repetitions are
interleaved: each round runs every (connections, server) pair once, the
servers in an order rotated from round to round.  Prints per pair

    BENCH servers.<server>.c<conns>.rps <median> req/s   (+ .rps.min, .rps.max)
    BENCH servers.<server>.c<conns>.mean <median> ms
    BENCH servers.<server>.c<conns>.p99 <median> ms
    BENCH servers.<server>.c<conns>.errors <total> n     (socket errors + non-2xx)
    BENCH servers.<server>.c<conns>.cpu <median> us      (server CPU time per request,
                                                          user + system; not for fork)
    BENCH servers.<server>.c<conns>.wrk_busy <median> %  (wrk's CPU time / wall time:
                                                          near 100, wrk is the bottleneck)

then the system calls each server makes per request, over one more
point of SYSCALL_CONNS connections, not timed: counted at full speed by
perf stat on the kernel's syscall tracepoints when perf may read them
(the calls PERF_SYSCALLS names, and all calls in the total), else by
strace -f -c (traced, so slower: a traced server finds more requests
already arrived, and fewer of its reads and accepts fail with EAGAIN):

    BENCH servers.<server>.syscalls <total> n         (per request)
    BENCH servers.<server>.syscalls.<name> <calls> n  (those above 0.02)

then the memory of idle keep-alive connections, for httpd and nginx:
CONNS connections each make one request and stay open; the server's RSS
growth over its RSS before they connected, per connection:

    BENCH servers.idle_conn.<server> <bytes> B
    BENCH servers.idle_rss.<server> <bytes> B   (whole RSS / connections)

Environment: BENCH_QUICK=1 (1 s points, 10/100/1000 connections, one
round, 2,000 idle connections), BENCH_RUNS (rounds, default 3),
BENCH_DURATION (seconds per point, default 3), BENCH_CONNS (e.g.
"10 1000"), BENCH_SERVERS (subset of the names below), BENCH_IDLE_CONNS,
BENCH_SYSCALL_CONNS (the connections of the system call point, default
10; bench/report/results.py labels its table with 10).
"""
import os
import re
import resource
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time

QUICK = os.environ.get("BENCH_QUICK", "") not in ("", "0")
RUNS = int(os.environ.get("BENCH_RUNS", "1" if QUICK else "3"))
DURATION = int(os.environ.get("BENCH_DURATION", "1" if QUICK else "3"))
CONNS = [int(c) for c in os.environ.get(
    "BENCH_CONNS", "10 100 1000" if QUICK else "10 100 1000 5000 10000").split()]
IDLE_CONNS = int(os.environ.get("BENCH_IDLE_CONNS", "2000" if QUICK else "10000"))
SYSCALL_CONNS = int(os.environ.get("BENCH_SYSCALL_CONNS", "10"))
# The calls counted one by one under perf (all calls count in the total).
PERF_SYSCALLS = ["accept", "accept4", "read", "recvfrom", "write", "writev", "sendto",
                 "sendmsg", "sendfile64", "shutdown", "close", "openat", "openat2",
                 "newfstatat", "statx", "pread64", "setsockopt", "fcntl", "ioctl",
                 "epoll_ctl", "epoll_wait", "epoll_pwait", "select", "pselect6", "poll",
                 "ppoll", "io_uring_enter", "clock_gettime", "getsockopt", "brk",
                 "mmap", "munmap"]
SYSCALL_SERVERS = ["naive-cpc", "naive-cpc-epoll", "naive-cpc-uring", "naive-st", "httpd-ka",
                   "httpd-close", "httpd-epoll-ka", "httpd-epoll-close", "httpd-uring-ka",
                   "httpd-uring-close", "nginx-ka", "nginx-close"]
SERVER_CPU = os.environ.get("BENCH_SERVER_CPU", "0")
WRK_CPU = os.environ.get("BENCH_WRK_CPU", "1")
NGINX = shutil.which("nginx") or "/usr/sbin/nginx"

# The page every server sends: the naive servers have it compiled in
# (naive_common.h), httpd and nginx read it from this file.
PAGE = b"<html><body>Hello from a naive server.</body></html>\n"

SERVERS = ["naive-cpc", "naive-cpc-poll50", "naive-st", "naive-pth", "naive-nptl",
           "naive-fork", "httpd-ka", "httpd-close", "nginx-ka", "nginx-close"]
# Variants: the same binary with another environment.  naive-cpc-poll50
# turns on the runtime's polling before sleeping, for up to 50 us
# (docs/multicore.md, section 4a; off by default), to show what it buys and
# what CPU it costs.
# The CPC servers with the io_uring back-end (CPC_IO=uring; epoll is the
# default, docs/multicore.md section 4c) and with epoll named: run only
# when BENCH_SERVERS names them.
VARIANTS = {"naive-cpc-poll50": ("naive-cpc", {"CPC_POLL_SPIN_US": "50"}),
            "naive-cpc-epoll": ("naive-cpc", {"CPC_IO": "epoll"}),
            "httpd-epoll-ka": (None, {"CPC_IO": "epoll"}),
            "httpd-epoll-close": (None, {"CPC_IO": "epoll"}),
            "naive-cpc-uring": ("naive-cpc", {"CPC_IO": "uring"}),
            "httpd-uring-ka": (None, {"CPC_IO": "uring"}),
            "httpd-uring-close": (None, {"CPC_IO": "uring"})}
OPTIONAL_SERVERS = ["naive-cpc-epoll", "httpd-epoll-ka", "httpd-epoll-close",
                    "naive-cpc-uring", "httpd-uring-ka", "httpd-uring-close"]

NGINX_CONF = """daemon off;
master_process off;
worker_processes 1;
worker_rlimit_nofile 20000;
pid {dir}/nginx.pid;
error_log {dir}/error.log error;
events {{ worker_connections 20000; use epoll; multi_accept on; }}
http {{
    access_log off;
    keepalive_timeout 60s;
    keepalive_requests 1000000;
    client_body_temp_path {dir}/tmp;
    proxy_temp_path {dir}/tmp;
    fastcgi_temp_path {dir}/tmp;
    uwsgi_temp_path {dir}/tmp;
    scgi_temp_path {dir}/tmp;
    types {{ text/html html; }}
    server {{
        listen 127.0.0.1:{port} backlog=4096 deferred;
        root {root};
    }}
}}
"""


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


def wait_listening(port, proc, timeout=10.0):
    end = time.time() + timeout
    while time.time() < end:
        if proc.poll() is not None:
            return False
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
            return True
        except OSError:
            time.sleep(0.02)
    return False


class Server:
    """One server process, started pinned to SERVER_CPU."""

    def __init__(self, name, bindir, httpd, work):
        self.name, self.proc, self.port = name, None, None
        self.bindir, self.httpd, self.work = bindir, httpd, work

    def command(self):
        kind = self.name.split("-")[0]
        if kind == "naive":
            binary = VARIANTS.get(self.name, (self.name, {}))[0]
            return [os.path.join(self.bindir, binary), str(self.port)]
        if kind == "httpd":
            return [self.httpd, "-p", str(self.port), "-d", self.work.root, "-t", "60",
                    "-D"]
        conf = os.path.join(self.work.dir, "nginx-%d.conf" % self.port)
        with open(conf, "w") as f:
            f.write(NGINX_CONF.format(dir=self.work.dir, port=self.port,
                                      root=self.work.root))
        return [NGINX, "-e", os.path.join(self.work.dir, "error.log"),
                "-p", self.work.dir, "-c", conf]

    def start(self, trace=None):
        """Start the server; trace: a file for strace -f -c's summary."""
        for _ in range(3):
            self.port = free_port()
            traced = ["strace", "-f", "-c", "-o", trace] if trace else []
            cmd = ["taskset", "-c", SERVER_CPU] + traced + self.command()
            env = dict(os.environ, **VARIANTS.get(self.name, (None, {}))[1])
            self.proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, env=env,
                                         stderr=subprocess.PIPE, start_new_session=True)
            if wait_listening(self.port, self.proc):
                return True
            self.stop()
        return False

    def stop(self):
        if self.proc is None:
            return
        try:
            os.killpg(self.proc.pid, signal.SIGKILL)   # the fork server's children too
        except ProcessLookupError:
            pass
        self.proc.wait()
        self.proc = None

    def cpu_seconds(self):
        """User + system CPU time of the server process (all its threads;
        not the fork server's children)."""
        with open("/proc/%d/stat" % self.proc.pid) as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def rss(self):
        with open("/proc/%d/status" % self.proc.pid) as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) * 1024
        return 0


class Work:
    def __init__(self):
        self.tmp = tempfile.TemporaryDirectory(prefix="cpc-bench-servers-")
        self.dir = self.tmp.name
        self.root = os.path.join(self.dir, "www")
        os.makedirs(os.path.join(self.dir, "tmp"))
        os.makedirs(os.path.join(self.dir, "logs"))
        os.makedirs(self.root)
        with open(os.path.join(self.root, "index.html"), "wb") as f:
            f.write(PAGE)


UNIT = {"us": 1e-3, "ms": 1.0, "s": 1e3, "m": 60e3}


def ms(text):
    m = re.match(r"([\d.]+)(us|ms|s|m)$", text)
    return float(m.group(1)) * UNIT[m.group(2)] if m else None


def wrk(port, conns, close):
    cmd = ["taskset", "-c", WRK_CPU, "wrk", "-t1", "-c%d" % conns, "-d%ds" % DURATION,
           "--timeout", "10s", "--latency"]
    if close:
        cmd += ["-H", "Connection: close"]
    cmd.append("http://127.0.0.1:%d/index.html" % port)
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.monotonic()
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=DURATION + 60)
    wall = time.monotonic() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    out = p.stdout
    r = {}
    m = re.search(r"Requests/sec:\s+([\d.]+)", out)
    if not m:
        return None, (p.stderr or out).strip()[-300:]
    r["rps"] = float(m.group(1))
    # How busy the load generator was: near 100 %, the point measures wrk
    # as much as the server.
    r["wrk_busy"] = 100.0 * (after.ru_utime + after.ru_stime - before.ru_utime
                             - before.ru_stime) / wall
    m = re.search(r"(\d+) requests in", out)
    r["requests"] = int(m.group(1)) if m else 0
    m = re.search(r"^\s+Latency\s+(\S+)", out, re.M)
    r["mean"] = ms(m.group(1)) if m else None
    m = re.search(r"^\s+99%\s+(\S+)", out, re.M)
    r["p99"] = ms(m.group(1)) if m else None
    errors = 0
    m = re.search(r"Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)", out)
    if m:
        errors += sum(int(x) for x in m.groups())
    m = re.search(r"Non-2xx or 3xx responses: (\d+)", out)
    if m:
        errors += int(m.group(1))
    r["errors"] = errors
    return r, None


def strace_summary(path):
    """{syscall: calls} from strace -c's table."""
    calls = {}
    with open(path) as f:
        for line in f:
            t = line.split()
            if len(t) in (5, 6) and re.match(r"[\d.]+$", t[0]) and t[-1] != "total":
                calls[t[-1]] = int(t[3])
    return calls


def children(pid):
    """The child processes of pid."""
    out = []
    for task in os.listdir("/proc/%d/task" % pid):
        with open("/proc/%d/task/%s/children" % (pid, task)) as f:
            out += [int(x) for x in f.read().split()]
    return out


def perf_can_count():
    """Whether perf stat may count the syscall tracepoints here."""
    if not shutil.which("perf"):
        return False
    try:
        p = subprocess.run(["perf", "stat", "-x,", "-e", "raw_syscalls:sys_enter", "true"],
                           capture_output=True, text=True, timeout=30)
    except (OSError, subprocess.TimeoutExpired):
        return False
    return p.returncode == 0 and re.search(r"^\d+,", p.stderr, re.M) is not None


def perf_syscalls_per_request(name, bindir, httpd, work):
    """{syscall: calls per request} of one point at full speed, counted by
    perf stat on the syscall tracepoints, or None.  "other" holds the calls
    PERF_SYSCALLS does not name."""
    srv = Server(name, bindir, httpd, work)
    if not srv.start():
        return None
    out = os.path.join(work.dir, "perf-%s.txt" % name)
    events = ["raw_syscalls:sys_enter"]
    events += ["syscalls:sys_enter_" + n for n in PERF_SYSCALLS
               if os.path.exists("/sys/kernel/tracing/events/syscalls/sys_enter_" + n)]
    perf = None
    try:
        perf = subprocess.Popen(["perf", "stat", "-x,", "-o", out, "-e", ",".join(events),
                                 "-p", str(srv.proc.pid)],
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        time.sleep(0.5)                 # attached before the load starts
        res, _ = wrk(srv.port, SYSCALL_CONNS, close=not name.endswith("-ka"))
    finally:
        if perf is not None:
            perf.send_signal(signal.SIGINT)
            try:
                perf.wait(10)
            except subprocess.TimeoutExpired:
                perf.kill()
        srv.stop()
    if res is None or not res["requests"] or not os.path.exists(out):
        return None
    calls, total = {}, None
    with open(out) as f:
        for line in f:
            t = line.split(",")
            if len(t) < 3 or not re.match(r"\d+$", t[0]):
                continue
            if t[2] == "raw_syscalls:sys_enter":
                total = int(t[0])
            elif t[2].startswith("syscalls:sys_enter_"):
                calls[t[2][len("syscalls:sys_enter_"):]] = int(t[0])
    if total is None:
        return None
    calls["other"] = max(0, total - sum(calls.values()))
    return {k: v / res["requests"] for k, v in calls.items()}


def syscalls_per_request(name, bindir, httpd, work):
    """{syscall: calls per request} of one traced point, or None."""
    trace = os.path.join(work.dir, "strace-%s.txt" % name)
    srv = Server(name, bindir, httpd, work)
    if not srv.start(trace=trace):
        return None
    try:
        res, _ = wrk(srv.port, SYSCALL_CONNS, close=not name.endswith("-ka"))
    finally:
        # strace blocks the signals that would stop it, and writes its
        # summary when the traced server ends: kill the server, its child.
        for pid in children(srv.proc.pid):
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        try:
            srv.proc.wait(10)
        except subprocess.TimeoutExpired:
            pass
        srv.stop()
    if res is None or not res["requests"] or not os.path.exists(trace):
        return None
    return {k: v / res["requests"] for k, v in strace_summary(trace).items()}


def idle_memory(server, n):
    """RSS growth of the server per idle keep-alive connection."""
    request = b"GET /index.html HTTP/1.1\r\nHost: bench\r\n\r\n"
    # Warm the server up with one connection, so start-up allocations are
    # not charged to the crowd.
    with socket.create_connection(("127.0.0.1", server.port)) as s:
        s.sendall(request)
        s.recv(4096)
    time.sleep(0.2)
    before = server.rss()
    socks = []
    try:
        for _ in range(n):
            s = socket.create_connection(("127.0.0.1", server.port), timeout=10)
            s.sendall(request)
            socks.append(s)
        for s in socks:
            got = b""
            while b"\r\n\r\n" not in got or not got.endswith(PAGE):
                chunk = s.recv(4096)
                if not chunk:
                    raise OSError("server closed an idle connection")
                got += chunk
        time.sleep(0.5)
        after = server.rss()
    finally:
        for s in socks:
            s.close()
    return (after - before) / n, after / n


def say(line):
    print(line, flush=True)


def main(argv):
    if len(argv) != 3:
        print(__doc__, file=sys.stderr)
        return 2
    bindir, httpd = argv[1], argv[2]
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    wanted = os.environ.get("BENCH_SERVERS", "").split()
    servers = [s for s in SERVERS + OPTIONAL_SERVERS
               if s in wanted or (not wanted and s in SERVERS)]
    if not os.access(NGINX, os.X_OK):
        say("# nginx not found: no nginx rows")
        servers = [s for s in servers if not s.startswith("nginx")]
    conns = [c for c in CONNS if c + 64 <= hard]
    work = Work()
    say("# web servers: %d round(s) of %d s per point, server on cpu %s, wrk on cpu %s%s"
        % (RUNS, DURATION, SERVER_CPU, WRK_CPU, ", quick" if QUICK else ""))
    samples = {(s, c): [] for s in servers for c in conns}
    failures = []
    start = time.time()
    for r in range(RUNS):
        for c in conns:
            k = r % len(servers)
            for name in servers[k:] + servers[:k]:
                srv = Server(name, bindir, httpd, work)
                if not srv.start():
                    failures.append("%s did not start" % name)
                    continue
                try:
                    cpu0 = srv.cpu_seconds()
                    res, err = wrk(srv.port, c, close=not name.endswith("-ka"))
                    if res is not None and res["requests"] > 0 and name != "naive-fork":
                        res["cpu"] = (srv.cpu_seconds() - cpu0) * 1e6 / res["requests"]
                finally:
                    srv.stop()
                if res is None:
                    failures.append("%s c%d: wrk: %s" % (name, c, err))
                    say("# %s at %d connections: wrk failed: %s" % (name, c, err))
                else:
                    samples[(name, c)].append(res)
    for name in servers:
        for c in conns:
            xs = samples[(name, c)]
            if not xs:
                continue
            rps = [x["rps"] for x in xs]
            key = "BENCH servers.%s.c%d" % (name, c)
            say("%s.rps %.0f req/s" % (key, statistics.median(rps)))
            say("%s.rps.min %.0f req/s" % (key, min(rps)))
            say("%s.rps.max %.0f req/s" % (key, max(rps)))
            for f in ("mean", "p99"):
                v = [x[f] for x in xs if x[f] is not None]
                if v:
                    say("%s.%s %.3f ms" % (key, f, statistics.median(v)))
            v = [x["cpu"] for x in xs if x.get("cpu") is not None]
            if v:
                say("%s.cpu %.2f us" % (key, statistics.median(v)))
            say("%s.wrk_busy %.0f %%" % (key, statistics.median(x["wrk_busy"] for x in xs)))
            say("%s.errors %d n" % (key, sum(x["errors"] for x in xs)))
    use_perf = perf_can_count()
    if use_perf or shutil.which("strace"):
        say("# system calls per request: %s" % (
            "perf stat, syscall tracepoints, full speed" if use_perf
            else "strace -f -c, traced"))
        for name in SYSCALL_SERVERS:
            if name not in servers:
                continue
            count = perf_syscalls_per_request if use_perf else syscalls_per_request
            per = count(name, bindir, httpd, work)
            if per is None:
                failures.append("%s: no system call count" % name)
                continue
            say("BENCH servers.%s.syscalls %.2f n" % (name, sum(per.values())))
            for k, x in sorted(per.items(), key=lambda kv: -kv[1]):
                if x >= 0.02:
                    say("BENCH servers.%s.syscalls.%s %.2f n" % (name, k, x))
    else:
        say("# neither perf nor strace usable: no system call counts")
    for name in ("httpd-ka", "nginx-ka"):
        if name not in servers:
            continue
        srv = Server(name, bindir, httpd, work)
        if not srv.start():
            failures.append("%s did not start" % name)
            continue
        try:
            per, total = idle_memory(srv, IDLE_CONNS)
            tag = name.split("-")[0]
            say("BENCH servers.idle_conn.%s %.0f B" % (tag, per))
            say("BENCH servers.idle_rss.%s %.0f B" % (tag, total))
        except OSError as e:
            failures.append("%s idle connections: %s" % (name, e))
            say("# %s: %d idle connections failed: %s" % (name, IDLE_CONNS, e))
        finally:
            srv.stop()
    say("# idle keep-alive connections: %d" % IDLE_CONNS)
    say("# %.0f s" % (time.time() - start))
    for f in failures:
        say("# FAILED: " + f)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
