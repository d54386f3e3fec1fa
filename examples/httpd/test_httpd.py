"""End-to-end tests of examples/httpd (the CPC HTTP/1.1 file server).

Run by `make test` (examples/httpd/httpd.mk) as
    HTTPD=build/examples/httpd/httpd python -m pytest -s examples/httpd/test_httpd.py

Everything talks to 127.0.0.1 only; every server is killed when its test
ends (and at exit); every test is bounded by an alarm.
"""
import atexit
import os
import queue
import random
import re
import resource
import selectors
import shutil
import signal
import socket
import subprocess
import tempfile
import threading
import time

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.dirname(os.path.dirname(HERE))
HTTPD = os.environ.get("HTTPD", os.path.join(TOP, "build", "examples", "httpd", "httpd"))

# Descriptors for this process (the clients): as many as the hard limit allows.
_soft, _hard = resource.getrlimit(resource.RLIMIT_NOFILE)
if _soft < _hard:
    resource.setrlimit(resource.RLIMIT_NOFILE, (_hard, _hard))

_servers = []


@atexit.register
def _kill_all():
    for p in _servers:
        if p.poll() is None:
            p.kill()


class Server:
    """An httpd process on 127.0.0.1, its output read by a thread."""

    def __init__(self, root, timeout=5, extra=(), nofile=None):
        def limits():
            if nofile is not None:
                resource.setrlimit(resource.RLIMIT_NOFILE, (nofile, nofile))
            else:
                h = resource.getrlimit(resource.RLIMIT_NOFILE)[1]
                resource.setrlimit(resource.RLIMIT_NOFILE, (h, h))

        self.proc = subprocess.Popen(
            [HTTPD, "-p", "0", "-d", root, "-t", str(timeout), "-a", "127.0.0.1", *extra],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, preexec_fn=limits)
        _servers.append(self.proc)
        self.lines = queue.Queue()
        self.stderr = []
        threading.Thread(target=self._pump, args=(self.proc.stdout, self.lines.put),
                         daemon=True).start()
        threading.Thread(target=self._pump, args=(self.proc.stderr, self.stderr.append),
                         daemon=True).start()
        line = self.next_line(10)
        m = re.match(r"listening on 127\.0\.0\.1:(\d+)$", line or "")
        assert m, f"no 'listening on' line from httpd: {line!r} {self.stderr}"
        self.port = int(m.group(1))
        assert self.port != 0

    @staticmethod
    def _pump(stream, put):
        for raw in stream:
            put(raw.decode(errors="replace").rstrip("\n"))

    def next_line(self, timeout):
        try:
            return self.lines.get(timeout=timeout)
        except queue.Empty:
            return None

    def stats(self):
        """SIGUSR1, then parse the stats line it prints."""
        while not self.lines.empty():
            self.lines.get_nowait()
        self.proc.send_signal(signal.SIGUSR1)
        deadline = time.time() + 5
        while time.time() < deadline:
            line = self.next_line(deadline - time.time())
            if line and line.startswith("stats:"):
                return {k: int(v) for k, v in re.findall(r"(\w+)=(\d+)", line)}
        raise AssertionError("no stats line after SIGUSR1")

    def wait_stats(self, pred, timeout):
        deadline = time.time() + timeout
        s = self.stats()
        while not pred(s) and time.time() < deadline:
            time.sleep(0.1)
            s = self.stats()
        return s

    def alive(self):
        return self.proc.poll() is None

    def stop(self):
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait(5)


# ---------------------------------------------------------------------------
# Fixtures

@pytest.fixture(autouse=True)
def _bounded():
    """No test may hang: an alarm fails it after 60 s."""
    def ring(sig, frame):
        raise TimeoutError("test took longer than 60 s")
    old = signal.signal(signal.SIGALRM, ring)
    signal.alarm(60)
    yield
    signal.alarm(0)
    signal.signal(signal.SIGALRM, old)


BIN = random.Random(1234).randbytes(1 << 20)    # 1 MiB of binary data


@pytest.fixture(scope="module")
def tree():
    top = tempfile.mkdtemp(prefix="httpd-test-")
    root = os.path.join(top, "www")
    os.makedirs(os.path.join(root, "sub"))
    os.makedirs(os.path.join(root, "noindex"))
    files = {
        "index.html": b"<h1>root index</h1>\n",
        "hello.txt": b"hello, world\n",
        "bin.dat": BIN,
        "empty.txt": b"",
        "space name.txt": b"spaced\n",
        "sub/index.html": b"<p>sub index</p>\n",
        "sub/page.txt": b"sub page\n",
    }
    for name, data in files.items():
        with open(os.path.join(root, name), "wb") as f:
            f.write(data)
    with open(os.path.join(top, "secret.txt"), "wb") as f:
        f.write(b"SECRET outside the root\n")
    os.symlink("../secret.txt", os.path.join(root, "out"))
    os.symlink("/etc/passwd", os.path.join(root, "abs"))
    os.symlink("hello.txt", os.path.join(root, "inside"))
    os.symlink("..", os.path.join(root, "up"))
    os.mkfifo(os.path.join(root, "fifo"))
    yield root, files
    shutil.rmtree(top, ignore_errors=True)


@pytest.fixture(scope="module")
def server(tree):
    s = Server(tree[0], timeout=5)
    yield s
    assert s.alive(), "httpd died during the tests: " + "\n".join(s.stderr)
    s.stop()


# ---------------------------------------------------------------------------
# A small HTTP client on raw sockets

def connect(port, timeout=10):
    s = socket.create_connection(("127.0.0.1", port), timeout=timeout)
    s.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    return s


class Reader:
    def __init__(self, sock):
        self.sock = sock
        self.buf = b""

    def _more(self):
        data = self.sock.recv(65536)
        if not data:
            raise EOFError
        self.buf += data

    def response(self, head_only=False):
        """(status, headers dict (lower-case names), body)."""
        while b"\r\n\r\n" not in self.buf:
            self._more()
        head, self.buf = self.buf.split(b"\r\n\r\n", 1)
        lines = head.decode("latin-1").split("\r\n")
        m = re.match(r"HTTP/1\.1 (\d{3}) ", lines[0])
        assert m, f"bad status line {lines[0]!r}"
        headers = {}
        for line in lines[1:]:
            k, v = line.split(":", 1)
            headers[k.strip().lower()] = v.strip()
        n = 0 if head_only else int(headers.get("content-length", "0"))
        while len(self.buf) < n:
            self._more()
        body, self.buf = self.buf[:n], self.buf[n:]
        return int(m.group(1)), headers, body

    def at_eof(self, timeout=5):
        """True when the server closes the connection within timeout."""
        self.sock.settimeout(timeout)
        try:
            while True:
                data = self.sock.recv(65536)
                if not data:
                    return True
                self.buf += data
        except (ConnectionResetError, BrokenPipeError):
            return True
        except socket.timeout:
            return False


def request(port, raw, head_only=False):
    with connect(port) as s:
        s.sendall(raw)
        r = Reader(s)
        return r.response(head_only)


def get(path, extra=""):
    return f"GET {path} HTTP/1.1\r\nHost: t\r\n{extra}\r\n".encode()


def curl(port, *args, path="/", timeout=20):
    out = subprocess.run(["curl", "-sS", "--max-time", "10", *args,
                          f"http://127.0.0.1:{port}{path}"],
                         capture_output=True, timeout=timeout)
    return out


def curl_status(port, path, *args):
    out = curl(port, "-o", "/dev/null", "-w", "%{http_code}", *args, path=path)
    return int(out.stdout or b"0")


# ---------------------------------------------------------------------------
# Correct bodies

def test_bodies_byte_exact(server, tree):
    root, files = tree
    for name, data in files.items():
        out = curl(server.port, "-f", path="/" + name.replace(" ", "%20"))
        assert out.returncode == 0, (name, out.stderr)
        assert out.stdout == data, name
    assert curl(server.port, "-f", path="/").stdout == files["index.html"]
    assert curl(server.port, "-f", path="/sub/").stdout == files["sub/index.html"]
    assert curl(server.port, "-f", path="/inside").stdout == files["hello.txt"]
    assert curl(server.port, "-f", path="/hello.txt?x=1&y=2").stdout == files["hello.txt"]
    assert curl(server.port, "-f", path="/%68ello.txt").stdout == files["hello.txt"]


# httpd's cache of small files (cache.h) holds only files changed this
# long ago; the tests wait that long after writing the files they cache.
CACHE_SETTLE_S = 2


def test_small_files_are_served_from_the_cache_until_they_change(tmp_path):
    root = tmp_path / "www"
    (root / "d").mkdir(parents=True)
    (root / "page.html").write_bytes(b"first")
    (root / "d" / "index.html").write_bytes(b"<p>index</p>")
    (tmp_path / "secret.txt").write_bytes(b"SECRET")
    time.sleep(CACHE_SETTLE_S + 1.1)
    srv = Server(str(root))
    try:
        miss = request(srv.port, get("/page.html"))
        hit = request(srv.port, get("/page.html"))
        assert miss[0] == hit[0] == 200 and miss[2] == hit[2] == b"first"
        for h in ("content-type", "content-length", "last-modified"):
            assert miss[1][h] == hit[1][h], h
        assert srv.stats()["cache_hits"] == 1
        head = request(srv.port, get("/page.html").replace(b"GET", b"HEAD"), head_only=True)
        assert head[0] == 200 and head[1]["content-length"] == "5"
        assert srv.stats()["cache_hits"] == 2
        assert [request(srv.port, get("/d/"))[2] for _ in range(2)] == [b"<p>index</p>"] * 2
        assert srv.stats()["cache_hits"] == 3
        # Changed in place with the same size: served new at once.
        (root / "page.html").write_bytes(b"SECND")
        assert request(srv.port, get("/page.html"))[2] == b"SECND"
        # Replaced by a symbolic link out of the root: refused, not cached.
        (root / "page.html").unlink()
        os.symlink("../secret.txt", root / "page.html")
        assert request(srv.port, get("/page.html"))[0] == 403
        (root / "page.html").unlink()
        assert request(srv.port, get("/page.html"))[0] == 404
        assert srv.stats()["cache_hits"] == 3
    finally:
        srv.stop()


def test_cached_files_changed_between_two_requests_are_served_new(tmp_path):
    """A cached file is checked by the cache's watcher (no stat per hit):
    rewritten in place, replaced by a rename, or found through a directory
    replaced by a rename, the next request on the same connection, sent
    right after the change, gets the new bytes; with one scheduler, with
    two (each its own cache and watcher), and with -S (a stat per hit)."""
    trees = {}
    for j in ("-j1", "-j2", "-S"):
        root = tmp_path / ("www" + j)
        (root / "d").mkdir(parents=True)
        (root / "same.txt").write_bytes(b"first")
        (root / "moved.txt").write_bytes(b"before")
        (root / "d" / "index.html").write_bytes(b"<p>old</p>")
        trees[j] = root
    time.sleep(CACHE_SETTLE_S + 1.1)
    for j, root in trees.items():
        srv = Server(str(root), extra=(j,))
        try:
            conns = {p: connect(srv.port) for p in ("/same.txt", "/moved.txt", "/d/")}
            readers = {p: Reader(s) for p, s in conns.items()}

            def fetch(path):
                conns[path].sendall(get(path))
                status, _, body = readers[path].response()
                assert status == 200
                return body

            assert [fetch(p) for p in conns] == [b"first", b"before", b"<p>old</p>"]
            assert [fetch(p) for p in conns] == [b"first", b"before", b"<p>old</p>"]
            assert srv.stats()["cache_hits"] == 3
            (root / "same.txt").write_bytes(b"SECND")          # same size, same inode
            assert fetch("/same.txt") == b"SECND"
            (root / "new.tmp").write_bytes(b"after!")
            os.rename(root / "new.tmp", root / "moved.txt")
            assert fetch("/moved.txt") == b"after!"
            (root / "d2").mkdir()
            (root / "d2" / "index.html").write_bytes(b"<p>new</p>")
            os.rename(root / "d", root / "d-old")
            os.rename(root / "d2", root / "d")
            assert fetch("/d/") == b"<p>new</p>"
            assert srv.stats()["cache_hits"] == 3
            for s in conns.values():
                s.close()
        finally:
            srv.stop()


def test_first_request_arriving_after_the_accept_is_served(server, tree):
    """httpd reads a new connection at once, before it waits: a request
    that is not there yet is waited for, then answered."""
    root, files = tree
    with connect(server.port) as s:
        time.sleep(0.3)
        s.sendall(get("/hello.txt"))
        r = Reader(s)
        status, _, body = r.response()
        assert (status, body) == (200, files["hello.txt"])
        s.sendall(get("/sub/page.txt", "Connection: close\r\n"))
        status, _, body = r.response()
        assert (status, body) == (200, files["sub/page.txt"])
        assert r.at_eof()


def test_new_connections_wait_first_while_requests_come_late(tree):
    """A new connection is read at once only while that usually finds its
    request: clients that send well after connecting make httpd wait first
    (one connection in eight still read early), and clients whose requests
    are there by the time they are accepted bring the early reads back.
    Every request is answered either way."""
    root, files = tree
    srv = Server(root)
    try:
        def fetch(s):
            status, _, body = Reader(s).response()
            assert (status, body) == (200, files["hello.txt"])

        base = srv.stats()["early_reads"]
        late = 48
        for _ in range(late):
            with connect(srv.port) as s:
                time.sleep(0.02)
                s.sendall(get("/hello.txt", "Connection: close\r\n"))
                fetch(s)
        early = srv.stats()["early_reads"] - base
        # The first 8 are read early and miss; then one in eight.
        assert early <= 8 + late // 8 + 2, early

        # Requests already there at the accept: the server is stopped while
        # the clients connect and send.
        batch, last = 40, None
        for _ in range(8):
            before = srv.stats()["early_reads"]
            srv.proc.send_signal(signal.SIGSTOP)
            try:
                socks = [connect(srv.port) for _ in range(batch)]
                for s in socks:
                    s.sendall(get("/hello.txt", "Connection: close\r\n"))
            finally:
                srv.proc.send_signal(signal.SIGCONT)
            for s in socks:
                fetch(s)
                s.close()
            last = srv.stats()["early_reads"] - before
        assert last == batch, last
    finally:
        srv.stop()


def test_big_binary_file(server, tmp_path):
    dest = tmp_path / "bin.dat"
    out = curl(server.port, "-f", "-o", str(dest), path="/bin.dat")
    assert out.returncode == 0, out.stderr
    assert dest.read_bytes() == BIN
    status, headers, body = request(server.port, get("/bin.dat"))
    assert status == 200 and headers["content-length"] == str(len(BIN)) and body == BIN
    assert headers["content-type"] == "application/octet-stream"


def test_headers(server):
    status, h, body = request(server.port, get("/index.html"))
    assert status == 200
    assert h["content-type"].startswith("text/html")
    assert "date" in h and "last-modified" in h
    assert "connection" not in h            # HTTP/1.1: persistent by default


# ---------------------------------------------------------------------------
# Status codes

@pytest.mark.parametrize("path,args,status", [
    ("/nope.txt", (), 404),
    ("/sub/nope/", (), 404),
    ("/hello.txt/x", (), 404),
    ("/noindex/", (), 403),
    ("/fifo", (), 403),
    ("/out", (), 403),                       # symlink to ../secret.txt
    ("/abs", (), 403),                       # symlink to /etc/passwd
    ("/up/secret.txt", (), 403),             # symlink to ..
    ("/../secret.txt", ("--path-as-is",), 403),
    ("/sub/../../secret.txt", ("--path-as-is",), 403),
    ("/%2e%2e/secret.txt", ("--path-as-is",), 403),
    ("/%2E%2e%2fsecret.txt", ("--path-as-is",), 403),
    ("/sub/..%2f..%2fsecret.txt", ("--path-as-is",), 403),
    ("/sub/../hello.txt", ("--path-as-is",), 200),   # stays inside: fine
    ("/hello.txt", ("-X", "POST"), 405),
    ("/hello.txt", ("-X", "DELETE"), 405),
    ("/sub", (), 301),
])
def test_status(server, path, args, status):
    assert curl_status(server.port, path, *args) == status


def test_405_allow_and_301_location(server):
    status, h, _ = request(server.port, b"PUT /x HTTP/1.1\r\nHost: t\r\n\r\n")
    assert status == 405 and h["allow"] == "GET, HEAD"
    status, h, _ = request(server.port, get("/sub?q=1"))
    assert status == 301 and h["location"] == "/sub/"


def test_head(server, tree):
    out = curl(server.port, "-f", "-I", path="/bin.dat")
    assert out.returncode == 0
    assert b"HTTP/1.1 200 OK" in out.stdout
    assert f"Content-Length: {len(BIN)}".encode() in out.stdout
    # On one connection: HEAD must send no body, so the GET after it parses.
    with connect(server.port) as s:
        s.sendall(b"HEAD /hello.txt HTTP/1.1\r\nHost: t\r\n\r\n" + get("/hello.txt"))
        r = Reader(s)
        st1, h1, b1 = r.response(head_only=True)
        st2, h2, b2 = r.response()
        assert (st1, b1, h1["content-length"]) == (200, b"", "13")
        assert (st2, b2) == (200, tree[1]["hello.txt"])
        st3 = request(server.port, b"HEAD /nope HTTP/1.1\r\nHost: t\r\n\r\n", head_only=True)[0]
        assert st3 == 404


# ---------------------------------------------------------------------------
# Keep-alive

def test_keepalive_curl_two_urls(server, tree):
    port = server.port
    out = subprocess.run(["curl", "-sS", "-v", "--max-time", "10",
                          f"http://127.0.0.1:{port}/hello.txt",
                          f"http://127.0.0.1:{port}/sub/page.txt"],
                         capture_output=True, timeout=20)
    assert out.returncode == 0
    assert out.stdout == tree[1]["hello.txt"] + tree[1]["sub/page.txt"]
    assert b"Re-using existing connection" in out.stderr or \
        b"Reusing existing connection" in out.stderr, out.stderr.decode()


def test_keepalive_sequential_and_pipelined(server, tree):
    files = tree[1]
    with connect(server.port) as s:
        r = Reader(s)
        for name in ["hello.txt", "bin.dat", "empty.txt", "nope", "sub/page.txt"]:
            s.sendall(get("/" + name))
            status, h, body = r.response()
            assert status == (404 if name == "nope" else 200)
            if status == 200:
                assert body == files[name]
        # pipelined: three requests in one write, answered in order
        s.sendall(get("/hello.txt") + get("/sub/page.txt") + get("/index.html"))
        assert [r.response()[2] for _ in range(3)] == \
            [files["hello.txt"], files["sub/page.txt"], files["index.html"]]
        # leading empty lines between requests are ignored
        s.sendall(b"\r\n" + get("/hello.txt"))
        assert r.response()[2] == files["hello.txt"]
        # Connection: close is honoured
        s.sendall(get("/hello.txt", "Connection: close\r\n"))
        status, h, body = r.response()
        assert status == 200 and h.get("connection") == "close"
        assert r.at_eof()


def test_close_response_arrives_whole_despite_requests_after_it(server, tree):
    """The last response goes out before the close, even when the client
    sent more than the server reads (a close with unread input resets the
    connection, dropping whatever was not sent yet)."""
    files = tree[1]
    big = get("/sub/page.txt", "X-Pad: " + "p" * 6000 + "\r\n")
    for name in ("hello.txt", "nope"):
        with connect(server.port) as s:
            s.sendall(get("/" + name, "Connection: close\r\n") + big * 8)
            r = Reader(s)
            status, h, body = r.response()
            assert h.get("connection") == "close"
            assert (status, body) == ((200, files[name]) if name != "nope" else
                                      (404, b"404 Not Found\n"))


def test_http10(server, tree):
    with connect(server.port) as s:
        s.sendall(b"GET /hello.txt HTTP/1.0\r\n\r\n")
        r = Reader(s)
        status, h, body = r.response()
        assert status == 200 and body == tree[1]["hello.txt"]
        assert r.at_eof()
    with connect(server.port) as s:
        s.sendall(b"GET /hello.txt HTTP/1.0\r\nConnection: keep-alive\r\n\r\n")
        r = Reader(s)
        assert r.response()[1]["connection"] == "keep-alive"
        s.sendall(b"GET /hello.txt HTTP/1.0\r\nConnection: keep-alive\r\n\r\n")
        assert r.response()[0] == 200


# ---------------------------------------------------------------------------
# Bad input

@pytest.mark.parametrize("raw,status", [
    (b"GARBAGE\r\n\r\n", 400),
    (b"GET /\r\n\r\n", 400),
    (b"GET  / HTTP/1.1\r\nHost: t\r\n\r\n", 400),
    (b"GET / HTTP/1.1 extra\r\nHost: t\r\n\r\n", 400),
    (b"GET / FTP/1.1\r\nHost: t\r\n\r\n", 400),
    (b"GET nopath HTTP/1.1\r\nHost: t\r\n\r\n", 400),
    (b"G@T / HTTP/1.1\r\nHost: t\r\n\r\n", 400),
    (b"\x16\x03\x01\x00\xa5\x01\x00\x00\xa1\x03\x03", 400),   # a TLS hello
    (b"GET / HTTP/1.1\r\n\r\n", 400),                          # no Host
    (b"GET / HTTP/1.1\r\nHost: t\r\nBad Header: x\r\n\r\n", 400),
    (b"GET / HTTP/1.1\r\nHost: t\r\nNoColon\r\n\r\n", 400),
    (b"GET / HTTP/1.1\r\nHost: t\r\n folded\r\n\r\n", 400),
    (b"GET /%zz HTTP/1.1\r\nHost: t\r\n\r\n", 400),
    (b"GET /a%00b HTTP/1.1\r\nHost: t\r\n\r\n", 400),
    (b"GET / HTTP/2.0\r\nHost: t\r\n\r\n", 505),
    (b"GET / HTTP/0.9\r\nHost: t\r\n\r\n", 505),
    (b"GET /" + b"a" * 9000 + b" HTTP/1.1\r\nHost: t\r\n\r\n", 414),
    (b"GET / HTTP/1.1\r\nHost: t\r\n" + b"X-Long: " + b"b" * 9000 + b"\r\n\r\n", 431),
])
def test_bad_requests(server, raw, status):
    with connect(server.port) as s:
        try:
            s.sendall(raw)
        except (BrokenPipeError, ConnectionResetError):
            pass                                # server answered early
        r = Reader(s)
        got, h, body = r.response()
        assert got == status, raw[:60]
        assert h.get("connection") == "close"
        assert r.at_eof(), "connection not closed after a malformed request"
    assert request(server.port, get("/hello.txt"))[0] == 200


def test_request_with_body_is_answered_then_closed(server):
    with connect(server.port) as s:
        s.sendall(b"POST /hello.txt HTTP/1.1\r\nHost: t\r\nContent-Length: 5\r\n\r\nabcde")
        r = Reader(s)
        status, h, _ = r.response()
        assert status == 405 and h.get("connection") == "close"
        assert r.at_eof()


# ---------------------------------------------------------------------------
# Timeouts

def test_deferred_accept_takes_a_connection_once_its_request_arrives(tree):
    """-D: the kernel keeps a new connection until its request arrives
    (TCP_DEFER_ACCEPT), so httpd has not accepted it while it is silent,
    and accepts, reads and answers it at once when the request comes."""
    root, files = tree
    srv = Server(root, extra=("-D",))
    try:
        base = srv.stats()["accepted"]
        with connect(srv.port) as s:
            time.sleep(0.3)
            assert srv.stats()["accepted"] == base
            s.sendall(get("/hello.txt", "Connection: close\r\n"))
            r = Reader(s)
            status, _, body = r.response()
            assert (status, body) == (200, files["hello.txt"])
            assert r.at_eof()
        assert srv.stats()["accepted"] == base + 1
    finally:
        srv.stop()


def test_deferred_accept_still_times_out_a_silent_client(tree):
    """-D: a client that never sends is accepted after about a second (the
    kernel's first SYN-ACK retransmission), then closed by the timeout."""
    srv = Server(tree[0], timeout=1, extra=("-D",))
    try:
        with connect(srv.port) as silent:
            t0 = time.time()
            assert Reader(silent).at_eof(8), "silent client not disconnected"
            assert time.time() - t0 > 0.9
        st = srv.wait_stats(lambda s: s["connections"] == 0, 5)
        assert st["accepted"] == 1 and st["connections"] == 0, st
    finally:
        srv.stop()


def test_silent_client_is_timed_out_and_freed(tree):
    srv = Server(tree[0], timeout=1)
    try:
        silent = [connect(srv.port) for _ in range(5)]
        partial = connect(srv.port)
        partial.sendall(b"GET /hello.txt HTTP/1.1\r\nHost: t\r\n")   # never finished
        idle = connect(srv.port)
        idle.sendall(get("/hello.txt"))
        ri = Reader(idle)
        assert ri.response()[0] == 200                                 # then idle
        time.sleep(0.2)
        assert srv.stats()["connections"] == 7
        t0 = time.time()
        for s in silent:
            assert Reader(s).at_eof(5), "silent client not disconnected"
        rp = Reader(partial)
        assert rp.response()[0] == 408
        assert rp.at_eof(5)
        assert ri.at_eof(5), "idle keep-alive connection not timed out"
        elapsed = time.time() - t0
        assert 0.5 < elapsed < 4, elapsed
        st = srv.wait_stats(lambda s: s["connections"] == 0, 5)
        assert st["connections"] == 0, st
        # a slow client trickling its head one byte at a time is cut off too
        slow = connect(srv.port)
        t0 = time.time()
        closed = False
        for ch in get("/hello.txt")[:-2]:
            try:
                slow.send(bytes([ch]))
            except OSError:
                closed = True
                break
            if Reader(slow).at_eof(0.15):
                closed = True
                break
        assert closed and time.time() - t0 < 4, "slow client not timed out"
        for s in silent + [partial, idle, slow]:
            s.close()
        assert request(srv.port, get("/hello.txt"))[0] == 200
    finally:
        srv.stop()


# ---------------------------------------------------------------------------
# Clients going away

def test_client_disconnects_mid_response(server, tree):
    for i in range(30):
        s = socket.socket()
        s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        s.settimeout(10)
        s.connect(("127.0.0.1", server.port))
        s.sendall(get("/bin.dat"))
        got = s.recv(1000)
        assert got.startswith(b"HTTP/1.1 200")
        if i % 2:
            # abortive close: the server's next write gets ECONNRESET
            s.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, b"\x01\x00\x00\x00\x00\x00\x00\x00")
        s.close()
    # and one that sends several requests then vanishes without reading
    s = connect(server.port)
    s.sendall(get("/bin.dat") * 5)
    s.close()
    time.sleep(0.3)
    assert server.alive()
    assert request(server.port, get("/hello.txt"))[2] == tree[1]["hello.txt"]
    st = server.wait_stats(lambda s: s["connections"] == 0, 5)
    assert st["connections"] == 0, st


def test_slow_readers_do_not_hold_up_others(server, tree):
    """50 clients ask for the 1 MiB file and do not read: their threads wait
    in cpc_io_wait for room in the socket, and everyone else is served."""
    hogs = []
    for _ in range(50):
        s = socket.socket()
        s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        s.connect(("127.0.0.1", server.port))
        s.sendall(get("/bin.dat"))
        hogs.append(s)
    time.sleep(0.3)
    worst = 0
    for _ in range(20):
        t0 = time.time()
        assert request(server.port, get("/hello.txt"))[2] == tree[1]["hello.txt"]
        worst = max(worst, time.time() - t0)
    assert worst < 1.0, f"a small request took {worst:.2f} s behind the slow readers"
    # the slow readers still get their whole file once they read
    r = Reader(hogs[0])
    status, h, body = r.response()
    assert status == 200 and body == BIN
    for s in hogs:
        s.close()


def test_two_schedulers_serve_and_count(tree):
    """-j 2: two schedulers with a listening socket each (SO_REUSEPORT).
    Parallel clients get byte-exact answers, and the counters, updated
    from both schedulers' OS threads, add up."""
    s = Server(tree[0], timeout=5, extra=("-j", "2"))
    try:
        with open("/proc/%d/net/tcp" % s.proc.pid) as f:
            port_hex = ":%04X" % s.port
            listening = [l for l in f if port_hex in l.split()[1] and l.split()[3] == "0A"]
        assert len(listening) == 2, "expected two listening sockets on the port"
        errors = []

        def client(n):
            try:
                for _ in range(n):
                    body = request(s.port, get("/hello.txt"))[2]
                    if body != tree[1]["hello.txt"]:
                        errors.append(body)
            except Exception as e:  # noqa: BLE001 -- reported below
                errors.append(repr(e))
        threads = [threading.Thread(target=client, args=(25,)) for _ in range(8)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(30)
        assert not errors, errors[:3]
        st = s.wait_stats(lambda st: st["connections"] == 0, 5)
        assert st["accepted"] == 200 and st["requests"] == 200, st
        assert st["connections"] == 0, st
        assert len(os.listdir("/proc/%d/task" % s.proc.pid)) >= 2
    finally:
        s.stop()


def test_pipelined_requests_filling_the_buffer_exactly_then_more(server, tree):
    # The server reads at most HTTP_HEAD_MAX (8192) bytes at a time.  Here
    # a read fills the buffer with whole requests, and the next request
    # waits in the socket: the connection's descriptor is kept
    # (edge-triggered), so no new edge announces it once the buffer is
    # consumed -- the server must read it without waiting.
    head_max = 8192
    n = 8
    base = len(get("/hello.txt", "X-Pad: \r\n"))
    pads = [(head_max // n) - base] * n
    pads[-1] += head_max - n * (head_max // n)
    burst = b"".join(get("/hello.txt", "X-Pad: %s\r\n" % ("p" * k)) for k in pads)
    assert len(burst) == head_max
    with connect(server.port) as s:
        s.sendall(burst + get("/index.html"))
        r = Reader(s)
        bodies = [r.response()[2] for _ in range(n + 1)]
    assert bodies == [tree[1]["hello.txt"]] * n + [tree[1]["index.html"]]


def test_half_closed_client_gets_its_answer(server, tree):
    with connect(server.port) as s:
        s.sendall(get("/hello.txt"))
        s.shutdown(socket.SHUT_WR)
        r = Reader(s)
        assert r.response()[2] == tree[1]["hello.txt"]
        assert r.at_eof()


# ---------------------------------------------------------------------------
# Load

def test_wrk_1000_connections(server):
    out = subprocess.run(
        ["wrk", "-c", "1000", "-t", "2", "-d", "3s", "--timeout", "10s",
         f"http://127.0.0.1:{server.port}/hello.txt"],
        capture_output=True, text=True, timeout=40,
        preexec_fn=lambda: resource.setrlimit(resource.RLIMIT_NOFILE, (_hard, _hard)))
    print("\n" + out.stdout)
    assert out.returncode == 0, out.stderr
    m = re.search(r"(\d+) requests in", out.stdout)
    assert m and int(m.group(1)) >= 1000, out.stdout
    # Strict: every connection was served, no socket error of any kind (a
    # timeout here would mean a request waited 10 s), no error status.
    assert "Socket errors" not in out.stdout, out.stdout
    assert "Non-2xx" not in out.stdout, out.stdout
    rps = re.search(r"Requests/sec:\s+([\d.]+)", out.stdout)
    print(f"BENCH httpd.wrk_1000_rps {float(rps.group(1)):.0f} req/s")
    st = server.wait_stats(lambda s: s["connections"] == 0, 10)
    assert st["connections"] == 0, st
    assert st["accepted"] >= 1000


# ---------------------------------------------------------------------------
# Running out of descriptors

def _open_requests(port, n, path="/hello.txt"):
    socks = []
    for _ in range(n):
        s = socket.socket()
        s.settimeout(5)
        s.connect(("127.0.0.1", port))   # completes in the kernel's backlog
        s.sendall(get(path))
        socks.append(s)
    return socks


def _answered(socks, timeout, close=False):
    """Statuses of the responses that arrive within timeout (None if not);
    close=True closes each connection as soon as it is answered."""
    sel = selectors.DefaultSelector()
    readers = {}
    for s in socks:
        s.setblocking(False)
        readers[s] = Reader(s)
        sel.register(s, selectors.EVENT_READ)
    result = {}
    deadline = time.time() + timeout
    while len(result) < len(socks) and time.time() < deadline:
        for key, _ in sel.select(max(0.0, deadline - time.time())):
            s = key.fileobj
            try:
                data = s.recv(65536)
            except (BlockingIOError, InterruptedError):
                continue
            except ConnectionResetError:
                data = b""
            r = readers[s]
            r.buf += data
            if b"\r\n\r\n" in r.buf or not data:
                m = re.match(rb"HTTP/1\.1 (\d{3})", r.buf)
                result[s] = int(m.group(1)) if m else "closed"
                sel.unregister(s)
                if close:
                    s.close()
    sel.close()
    for s in socks:
        if s.fileno() >= 0:
            s.setblocking(True)
    return [result.get(s) for s in socks]


def test_out_of_descriptors_keeps_serving(tree):
    """64 descriptors: the server keeps a reserve, so the connections it has
    accepted are all answered; the rest wait in the backlog and are served
    once some connections close."""
    srv = Server(tree[0], timeout=10, nofile=64)
    try:
        socks = _open_requests(srv.port, 100)
        first = _answered(socks, 3)
        served = [s for s, st in zip(socks, first) if st == 200]
        waiting = [s for s, st in zip(socks, first) if st is None]
        assert len(served) >= 30, first
        assert len(waiting) >= 100 - 64, first
        assert set(first) <= {200, None}, first
        st = srv.stats()
        assert 30 <= st["connections"] < 64, st
        for s in served:
            s.close()
        # each one answered is closed at once, making room for the next
        later = _answered(waiting, 10, close=True)
        assert later == [200] * len(waiting), later
        assert request(srv.port, get("/hello.txt"))[0] == 200
        assert srv.alive()
    finally:
        srv.stop()


def test_emfile_on_accept_backs_off(tree):
    """No reserve (-m): accept itself fails with EMFILE; the server backs
    off instead of spinning or dying, answers what it can (200, or 503 when
    no descriptor is left to open the file), and serves again once
    connections close."""
    srv = Server(tree[0], timeout=10, nofile=48, extra=("-m", "100000"))
    try:
        socks = _open_requests(srv.port, 80)
        statuses = _answered(socks, 6)
        assert any(st is not None for st in statuses), statuses
        assert set(statuses) <= {200, 503, None}, statuses
        assert srv.alive()
        cpu0 = _cpu_seconds(srv.proc.pid)
        time.sleep(1)
        # backing off, not spinning on a listener that stays readable
        assert _cpu_seconds(srv.proc.pid) - cpu0 < 0.5
        for s in socks:
            s.close()
        time.sleep(0.5)
        assert request(srv.port, get("/hello.txt"))[0] == 200
        out = curl(srv.port, "-f", path="/bin.dat")
        assert out.stdout == BIN
        assert any("backing off" in line for line in srv.stderr), srv.stderr
        assert srv.alive()
    finally:
        srv.stop()


def _cpu_seconds(pid):
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


# ---------------------------------------------------------------------------
# Ten thousand idle keep-alive connections

N_IDLE = 10000


def test_ten_thousand_idle_keepalive_connections(tree):
    need = N_IDLE + 200
    if _hard < need:
        pytest.skip(f"RLIMIT_NOFILE hard limit {_hard} < {need}")
    srv = Server(tree[0], timeout=60)
    socks = []
    sel = selectors.DefaultSelector()
    try:
        # warm up, then the baseline
        for _ in range(20):
            assert request(srv.port, get("/hello.txt"))[0] == 200
        base = srv.wait_stats(lambda s: s["connections"] == 0, 5)
        t0 = time.time()
        pending = {}
        answered = 0
        # connect in waves of 500, one request each, read the responses,
        # keep the connections open
        while len(socks) < N_IDLE:
            wave = []
            for _ in range(min(500, N_IDLE - len(socks))):
                s = socket.socket()
                s.setblocking(False)
                s.connect_ex(("127.0.0.1", srv.port))
                wave.append(s)
                socks.append(s)
                pending[s] = b""
                sel.register(s, selectors.EVENT_WRITE)
            deadline = time.time() + 20
            left = len(wave)
            while left and time.time() < deadline:
                for key, ev in sel.select(1):
                    s = key.fileobj
                    if ev & selectors.EVENT_WRITE:
                        s.send(get("/hello.txt"))
                        sel.modify(s, selectors.EVENT_READ)
                        continue
                    try:
                        data = s.recv(4096)
                    except BlockingIOError:
                        continue
                    pending[s] += data
                    if pending[s].endswith(b"hello, world\n") or not data:
                        assert pending[s].startswith(b"HTTP/1.1 200"), pending[s][:100]
                        sel.unregister(s)
                        del pending[s]
                        answered += 1
                        left -= 1
            assert left == 0, f"{left} connections of a wave not answered"
        setup = time.time() - t0
        st = srv.wait_stats(lambda s: s["connections"] >= N_IDLE, 10)
        assert st["connections"] == N_IDLE, st
        assert answered == N_IDLE
        per_conn = (st["rss_kb"] - base["rss_kb"]) * 1024 / N_IDLE
        print(f"\nhttpd: {N_IDLE} idle keep-alive connections opened and served in "
              f"{setup:.1f} s; RSS {base['rss_kb']} kB -> {st['rss_kb']} kB")
        print(f"BENCH httpd.idle_conn_bytes {per_conn:.0f} B")
        print(f"BENCH httpd.idle_rss_kb {st['rss_kb']} kB")
        # they are all still usable: a second request on a few of them
        for s in socks[::1000]:
            s.setblocking(True)
            s.settimeout(5)
            s.sendall(get("/sub/page.txt"))
            assert Reader(s).response()[2] == tree[1]["sub/page.txt"]
        # and a newcomer is served promptly
        t1 = time.time()
        assert request(srv.port, get("/hello.txt"))[0] == 200
        assert time.time() - t1 < 2
        assert per_conn < 4096, "an idle connection should cost well under 4 KiB"
    finally:
        sel.close()
        for s in socks:
            s.close()
        try:
            if srv.alive():
                st = srv.wait_stats(lambda s: s["connections"] == 0, 10)
                assert st["connections"] == 0, st
        finally:
            srv.stop()
