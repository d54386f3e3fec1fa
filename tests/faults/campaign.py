#!/usr/bin/env python3
"""Fault-injection campaign: programs run with memory allocation failing.

    campaign.py [--short] [--seed S] [--jobs J]

Every subject -- the runtime's tests, the library's tests, a 10,000-thread
program, and examples/httpd under a bounded loopback load (-j 1 and -j 2)
-- first runs once counting its allocations (libfaultshim.so,
CPC_FAULT=count), then again and again with allocations failing
(CPC_FAULT=after:N -- every call after the N-th --, at:N -- the N-th only
--, random:P:SEED -- each call with probability P per thousand), N drawn
over the counted range.  Each run is classified:

  ok          completed with the expected output (httpd: stayed up, every
              answer correct or the connection refused or closed, and after
              a single failure (at:N) it still answers)
  reported    exited with status 71 (CPC_EXIT_EXHAUSTED), or with another
              non-zero status and a message naming what ran out ("out of
              memory", "Cannot allocate memory") on stderr; what it printed
              on stdout before is a prefix of the expected output
  segv, abort, signal   killed by SIGSEGV, SIGABRT, another signal
  hang        no exit (no answer, for httpd) within its time limit
  wrong       exit status 0 with output other than the expected, an exit
              that would be reported but printed output the expected does
              not begin with, or an httpd answer with a wrong body
  other       non-zero exit status without such a message

and the counts are printed per subject group; the campaign fails unless
every run is ok or reported.  --short (make test-faults) is a sample of
well under a minute; the default (make fuzz-faults) runs many more.

Environment (set by tests/faults/faults.mk): FAULTSHIM, CPCC,
FAULTS_BUILD, HTTPD, RT_BUILD, RT_SRC, LIB_TESTS, LIB_EXTRA_SRCS."""
import argparse
import collections
import concurrent.futures
import os
import random
import re
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ENV = os.environ
SHIM = ENV.get('FAULTSHIM', '')
CPCC = ENV.get('CPCC', os.path.join(HERE, '..', '..', 'bin', 'cpcc'))
OUT = ENV.get('FAULTS_BUILD', os.path.join(tempfile.gettempdir(), 'cpc-faults'))
# A message naming the memory that ran out (strerror(ENOMEM), getaddrinfo's
# EAI_MEMORY).  Other resources (OS threads, descriptors) are reported by
# exit status 71 alone.
OOM = re.compile(r'out of memory|Cannot allocate memory|ENOMEM|Memory allocation failure')
EXIT_EXHAUSTED = 71     # CPC_EXIT_EXHAUSTED, cpc/cpc_runtime.h
BAD = ('segv', 'abort', 'signal', 'hang', 'wrong', 'other')

# The runtime's tests that run under the campaign: those that check an
# output (t_NAME.expected) in the opt flavour and do not measure time or
# memory themselves (a run with allocations failing is slower).
RT_SKIP = {'t_slab_memory_returns', 't_time_cached', 't_main_loop_allocates_nothing',
           't_spawn_million', 't_wait_ten_million', 't_recursion_million'}
# The library's tests: all of them in the long campaign but dns, these in
# --short.  dns is left out: glibc's getaddrinfo crashes (SIGSEGV in
# nss_database_check_reload_and_get, glibc 2.36) when an allocation of its
# NSS state fails, whoever calls it.
LIB_SKIP = {'dns'}
# The library's tests in --short:
LIB_SHORT = ['io_pipe', 'timeout', 'channel', 'net', 'readline', 'sched_channel']


def exited_exhausted(rc, err):
    """Whether exit status rc, with err on stderr, reports a resource that
    ran out: status 71, or another failure status and a message about
    memory."""
    return rc == EXIT_EXHAUSTED or (rc > 0 and bool(OOM.search(err)))


class Subject:
    """A program, its expected output, and how long a run may take."""

    def __init__(self, group, name, argv, expected=None):
        self.group, self.name, self.argv, self.expected = group, name, argv, expected
        self.allocations = None
        self.limit = 20.0

    def run(self, fault):
        env = dict(ENV, LD_PRELOAD=SHIM, CPC_FAULT=fault)
        env.pop('CPC_FAULT_REPORT', None)
        try:
            p = subprocess.run(self.argv, capture_output=True, env=env,
                               timeout=self.limit, cwd=OUT)
        except subprocess.TimeoutExpired:
            return 'hang', ''
        out = p.stdout.decode('utf-8', 'replace')
        err = p.stderr.decode('utf-8', 'replace')
        rc = p.returncode
        if rc < 0:
            kind = {signal.SIGSEGV: 'segv', signal.SIGABRT: 'abort'}.get(-rc, 'signal')
            return kind, err[-300:]
        if rc == 0:
            if self.expected is None or out == self.expected:
                return 'ok', ''
            return 'wrong', 'exit 0, output differs: ' + out[-300:]
        if not exited_exhausted(rc, err):
            return 'other', 'exit %d: %s' % (rc, (err or out)[-300:])
        if self.expected is not None and not self.expected.startswith(out):
            return 'wrong', 'exit %d, output not a prefix of the expected: %s' % (
                rc, out[-300:])
        return 'reported', ''

    def count(self):
        """Counts the allocations of a run without failure (and checks it
        passes): sets self.allocations and the time limit."""
        fd, report = tempfile.mkstemp(prefix='cpc-faults-count-')
        os.close(fd)
        env = dict(ENV, LD_PRELOAD=SHIM, CPC_FAULT='count', CPC_FAULT_REPORT=report)
        t0 = time.time()
        try:
            p = subprocess.run(self.argv, capture_output=True, env=env, timeout=120, cwd=OUT)
            out = p.stdout.decode('utf-8', 'replace')
            ok = p.returncode == 0 and (self.expected is None or out == self.expected)
            with open(report) as f:
                self.allocations = int(f.read().split()[1])
        except (subprocess.TimeoutExpired, OSError, ValueError, IndexError):
            ok = False
        finally:
            os.unlink(report)
        self.limit = max(10.0, 20 * (time.time() - t0))
        return ok


class Httpd(Subject):
    """examples/httpd under a bounded loopback load: CLIENTS clients send
    REQUESTS requests in all, each on a connection of its own, for two
    files whose contents are known."""
    REQUESTS = 40
    CLIENTS = 4

    def __init__(self, jobs):
        super().__init__('httpd', 'httpd -j%d' % jobs, None)
        self.jobs = jobs
        self.root = os.path.join(OUT, 'www')
        os.makedirs(self.root, exist_ok=True)
        self.files = {'small.txt': b'hello from httpd\n',
                      'big.bin': bytes(random.Random(1).randrange(256) for _ in range(200000))}
        for n, data in self.files.items():
            with open(os.path.join(self.root, n), 'wb') as f:
                f.write(data)

    def request(self, port, name):
        """'ok', 'refused' (closed, reset, an error status), 'hang' or 'wrong'."""
        try:
            with socket.create_connection(('127.0.0.1', port), timeout=5) as s:
                s.sendall(b'GET /%s HTTP/1.0\r\nHost: x\r\n\r\n' % name.encode())
                data = b''
                while True:
                    chunk = s.recv(65536)
                    if not chunk:
                        break
                    data += chunk
        except socket.timeout:
            return 'hang'
        except OSError:
            return 'refused'
        head, _, body = data.partition(b'\r\n\r\n')
        if not head.startswith(b'HTTP/1.') or b' 200 ' not in head.split(b'\r\n')[0]:
            return 'refused'
        m = re.search(rb'(?i)\r\ncontent-length: *(\d+)', head)
        if m and len(body) < int(m.group(1)):
            return 'refused'    # cut short: the server dropped the connection
        return 'ok' if body == self.files[name] else 'wrong'

    def serve(self, fault, load=True):
        env = dict(ENV, LD_PRELOAD=SHIM)
        if fault:
            env['CPC_FAULT'] = fault
        p = subprocess.Popen([ENV['HTTPD'], '-a', '127.0.0.1', '-p', '0', '-d', self.root,
                              '-t', '2', '-j', str(self.jobs)],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
        return p

    def run_server(self, fault, final_check):
        p = self.serve(fault)
        line = p.stdout.readline().decode('utf-8', 'replace')
        m = re.match(r'listening on 127\.0\.0\.1:(\d+)', line)
        if not m:
            try:
                _, err = p.communicate(timeout=10)
            except subprocess.TimeoutExpired:
                p.kill()
                p.communicate()
                return 'hang', 'no listening line'
            return self.classify_exit(p, err.decode('utf-8', 'replace'), exited_early=True)
        port = int(m.group(1))
        outcomes = []
        lock = threading.Lock()

        def client(i):
            names = list(self.files)
            for j in range(i, self.REQUESTS, self.CLIENTS):
                r = self.request(port, names[j % len(names)])
                with lock:
                    outcomes.append(r)

        threads = [threading.Thread(target=client, args=(i,)) for i in range(self.CLIENTS)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        alive = p.poll() is None
        final = None
        if alive and final_check:
            # The failed allocation may be this request's: one of two
            # must be answered.
            final = self.request(port, 'small.txt')
            if final == 'refused':
                final = self.request(port, 'small.txt')
        if p.poll() is None:
            p.send_signal(signal.SIGTERM)
        try:
            _, err = p.communicate(timeout=10)
        except subprocess.TimeoutExpired:
            p.kill()
            _, err = p.communicate()
        err = err.decode('utf-8', 'replace')
        if 'wrong' in outcomes or final == 'wrong':
            return 'wrong', 'an answer with a wrong body'
        if not alive:       # it ended during the load
            return self.classify_exit(p, err, exited_early=True)
        if 'hang' in outcomes or final == 'hang':
            return 'hang', 'a request got no answer within 5 s'
        if final == 'refused':
            return 'wrong', 'the server no longer answers after one failed allocation'
        # Alive, and every request answered correctly or refused (a
        # connection dropped for want of memory): the server held.
        if fault == 'count' and not all(o == 'ok' for o in outcomes):
            return 'other', 'requests refused without any fault'
        return 'ok', ''

    def classify_exit(self, p, err, exited_early):
        rc = p.returncode
        if rc is not None and rc < 0 and rc != -signal.SIGTERM:
            kind = {signal.SIGSEGV: 'segv', signal.SIGABRT: 'abort'}.get(-rc, 'signal')
            return kind, err[-300:]
        if rc is not None and exited_exhausted(rc, err):
            return 'reported', ''
        return 'other', 'exit %s: %s' % (rc, err[-300:])

    def run(self, fault):
        return self.run_server(fault, final_check=fault.startswith('at:'))

    def count(self):
        fd, report = tempfile.mkstemp(prefix='cpc-faults-count-')
        os.close(fd)
        saved = ENV.get('CPC_FAULT_REPORT')
        ENV['CPC_FAULT_REPORT'] = report
        try:
            kind, _ = self.run_server('count', final_check=True)
            with open(report) as f:
                self.allocations = int(f.read().split()[1])
        except (OSError, ValueError, IndexError):
            kind = 'other'
        finally:
            if saved is None:
                del ENV['CPC_FAULT_REPORT']
            else:
                ENV['CPC_FAULT_REPORT'] = saved
            os.unlink(report)
        return kind == 'ok'


# ---- subjects --------------------------------------------------------------------

def newer(target, *sources):
    return os.path.exists(target) and all(
        os.path.getmtime(target) >= os.path.getmtime(s) for s in sources if os.path.exists(s))


def build_cpc(src, name, extra=()):
    exe = os.path.join(OUT, name)
    lib = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(CPCC))),
                       'build', 'runtime', 'libcpc.a')
    if not newer(exe, src, lib, CPCC, *extra):
        r = subprocess.run([CPCC, '-O2', '-I', os.path.dirname(src), '-o', exe, src, *extra],
                           capture_output=True, text=True)
        if r.returncode != 0:
            raise SystemExit('campaign: cannot build %s:\n%s' % (src, r.stderr))
    return exe


def read(path):
    try:
        with open(path) as f:
            return f.read()
    except OSError:
        return None


def runtime_subjects():
    src, build = ENV['RT_SRC'], ENV['RT_BUILD']
    out = []
    for line in open(os.path.join(src, 'TESTS')):
        parts = line.split()
        if not parts or parts[0].startswith('#') or 'opt' not in parts[1:]:
            continue
        name = parts[0]
        exp = read(os.path.join(src, name + '.expected'))
        exe = os.path.join(build, 'opt', name)
        if name in RT_SKIP or exp is None or not os.path.exists(exe):
            continue
        out.append(Subject('runtime tests', name, [exe], exp))
    return out


def lib_subjects(short):
    d = ENV['LIB_TESTS']
    extra = ENV.get('LIB_EXTRA_SRCS', '').split()
    names = sorted(f[:-4] for f in os.listdir(d) if f.endswith('.cpc') and f[:-4] not in LIB_SKIP)
    if short:
        names = [n for n in names if n in LIB_SHORT]
    out = []
    for name in names:
        src = os.path.join(d, name + '.cpc')
        text = open(src).read()
        m = re.search(r'test: args (.*?)(\*/|$)', text, re.M)
        args = m.group(1).split() if m else []
        exe = build_cpc(src, 'lib_' + name, extra)
        out.append(Subject('library tests', name, [exe] + args,
                           read(os.path.join(d, name + '.expected'))))
    return out


def ten_thousand():
    exe = build_cpc(os.path.join(HERE, 'programs', 'ten_thousand.cpc'), 'ten_thousand')
    return Subject('10,000 threads', 'ten_thousand', [exe], '10000 threads, total 77780\n')


# ---- the campaign --------------------------------------------------------------------

def faults_for(subject, runs, rng):
    """`runs` fault settings for subject: after:N and at:N over its counted
    allocations (the first few always among them), and random ones."""
    total = max(1, subject.allocations)
    n_after = max(1, runs * 2 // 5)
    n_at = max(1, runs * 2 // 5)
    n_rand = max(1, runs - n_after - n_at)

    def points(k):
        first = list(range(0, min(total, 3)))
        pool = range(len(first), total + 1)     # none of the first again
        rest = sorted(rng.sample(pool, min(len(pool), max(0, k - len(first)))))
        return (first + rest)[:k]

    out = ['after:%d' % n for n in points(n_after)]
    out += ['at:%d' % (n + 1) for n in points(n_at)]
    out += ['random:%d:%d' % (rng.choice((2, 20, 200)), rng.randrange(1 << 30))
            for _ in range(n_rand)]
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--short', action='store_true')
    ap.add_argument('--seed', type=int, default=None)
    ap.add_argument('--jobs', type=int, default=2)
    ap.add_argument('--only', default=None,
                    help='subjects whose name contains this (e.g. a test name)')
    a = ap.parse_args()
    if not SHIM or not os.path.exists(SHIM):
        raise SystemExit('campaign: FAULTSHIM is not set (run through make)')
    os.makedirs(OUT, exist_ok=True)
    seed = a.seed if a.seed is not None else (1 if a.short else int(time.time()))
    rng = random.Random(seed)
    t0 = time.time()

    rt = runtime_subjects()
    if a.short:
        rt = rng.sample(rt, min(6, len(rt)))
    subjects = rt + lib_subjects(a.short) + [ten_thousand()]
    if 'HTTPD' in ENV and os.path.exists(ENV['HTTPD']):
        subjects += [Httpd(1), Httpd(2)]
    if a.only:
        subjects = [s for s in subjects if a.only in s.name]
    # runs per subject
    per = {'runtime tests': 4, 'library tests': 4, '10,000 threads': 24, 'httpd': 10} \
        if a.short else \
        {'runtime tests': 40, 'library tests': 40, '10,000 threads': 600, 'httpd': 150}

    jobs = []
    unusable = []
    for s in subjects:
        if not s.count():
            unusable.append(s.name)
            continue
        for f in faults_for(s, per[s.group], rng):
            jobs.append((s, f))
    if unusable:
        print('campaign: these subjects fail without any fault (the campaign fails): %s'
              % ', '.join(unusable), flush=True)

    counts = collections.defaultdict(collections.Counter)
    failures = []
    with concurrent.futures.ThreadPoolExecutor(max_workers=a.jobs) as ex:
        futures = {ex.submit(s.run, f): (s, f) for s, f in jobs}
        for fut in concurrent.futures.as_completed(futures):
            s, f = futures[fut]
            kind, detail = fut.result()
            counts[s.group][kind] += 1
            if kind in BAD:
                failures.append((s.name, f, kind, detail))

    print('fault-injection campaign%s (seed %d), %d runs in %.0f s:'
          % (' --short' if a.short else '', seed, len(jobs), time.time() - t0))
    cols = ('ok', 'reported') + BAD
    print('  %-16s %6s ' % ('subjects', 'runs') + ' '.join('%8s' % c for c in cols))
    total = collections.Counter()
    for g in ('runtime tests', 'library tests', '10,000 threads', 'httpd'):
        c = counts.get(g)
        if not c:
            continue
        total.update(c)
        print('  %-16s %6d ' % (g, sum(c.values())) + ' '.join('%8d' % c[k] for k in cols))
    print('  %-16s %6d ' % ('all', sum(total.values())) + ' '.join('%8d' % total[k] for k in cols))
    with open(os.path.join(OUT, 'failures.txt'), 'w') as log:
        for name, f, kind, detail in sorted(failures):
            line = 'FAIL %s CPC_FAULT=%s: %s %s' % (name, f, kind,
                                                  detail.strip().replace('\n', ' | '))
            log.write(line + '\n')
    for name, f, kind, detail in sorted(failures)[:40]:
        print('FAIL %s CPC_FAULT=%s: %s %s' % (name, f, kind, detail.strip().replace('\n', ' | ')))
    if len(failures) > 40:
        print('... %d failures in all: %s' % (len(failures), os.path.join(OUT, 'failures.txt')))
    return 1 if failures or unusable else 0


if __name__ == '__main__':
    sys.exit(main())
