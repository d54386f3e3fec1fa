"""*QEMU/CPC*'s section 7.2 (docs/references.md) on this machine: the block layer of the paper's
QEMU under many concurrent requests, CPC against ucontext.

    python3 bench/qemu/qemu_io.py QEMU_CPC_OUT     (make bench-qemu-io)

QEMU_CPC_OUT is an output directory of tests/qemu-cpc/build.sh, which holds
the two builds of the branch `cpc`: build-ucontext (gcc, ucontext backend)
and build-cpc (cpcc, lib/qemu/backend/coroutine-cpc.c).  For each build,
one `qemu-io` run on a fresh qcow2 image submits N `aio_write`s of 4 KiB
to distinct clusters (each allocates its cluster: qcow2's metadata path, a
coroutine per request, most of them waiting on the allocation lock) and
`aio_flush`es; a second run on the written image submits N `aio_read`s of
the same places.  Every request is in flight at once: `aio_*` only submits,
the main loop completes them.  The time of a run with no request (start,
open, close) is subtracted; the rest over N is the cost of a request.
qemu-io runs with `-t unsafe`: the host's page cache holds the image and
flushes are ignored, so that fsync's latency (qcow2 flushes between its
metadata updates), which dominates and varies by orders of magnitude on a
shared machine, does not hide the block layer's own cost.  Runs of the
two builds alternate; each figure is the median of the
repetitions.  Prints, per request, the wall time and (`.cpu`) the CPU time
of qemu-io and its threads (the thread pool's workers make the system
calls), which the load of a shared machine disturbs less:

    BENCH qemu_io.<aio_write|aio_read>[.cpu].<cpc|ucontext> <ns> ns
    BENCH qemu_io.<aio_write|aio_read>[.cpu].ucontext_over_cpc <ratio> x

BENCH_QUICK=1: fewer requests and repetitions (a smoke run).
"""
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

BUILDS = ['cpc', 'ucontext']
SIZE = 4096
CLUSTER = 65536


def timed(cmd):
    """(wall seconds, CPU seconds of the process and its threads) of a run."""
    r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                       timeout=600)
    dt = time.perf_counter() - t0
    r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    if p.returncode != 0 or 'failed' in p.stdout or p.stderr.strip():
        raise RuntimeError('%s: exit %d: %s' % (cmd[0], p.returncode,
                                                 (p.stdout + p.stderr).strip()[:300]))
    return dt, (r1.ru_utime - r0.ru_utime) + (r1.ru_stime - r0.ru_stime)


def requests(op, n):
    """qemu-io arguments submitting n concurrent requests, then waiting."""
    args = []
    for i in range(n):
        args += ['-c', '%s -q -P %d %d %d' % (op, 1 + i % 200, i * CLUSTER, SIZE)]
    return args + ['-c', 'aio_flush']


def one(out, build, n, tmp):
    """(write ns, read ns) per request for one repetition of `build`."""
    d = os.path.join(out, 'build-' + build)
    io = os.path.join(d, 'qemu-io')
    # (the image is made by the CPC build's qemu-img for both, so that both
    # read and write the same qcow2 file)
    img = os.path.join(out, 'build-cpc', 'qemu-img')
    image = os.path.join(tmp, build + '.qcow2')
    size = '%dM' % max(64, (n * CLUSTER) // (1 << 20) + 16)
    subprocess.run([img, 'create', '-f', 'qcow2', image, size], check=True,
                   stdout=subprocess.DEVNULL)
    io = [io, '-t', 'unsafe']
    base = timed(io + ['-c', 'aio_flush', image])
    w = timed(io + requests('aio_write', n) + [image])
    # (the reads check the pattern each write left: qemu-io reports a mismatch,
    # and a report fails the run)
    r = timed(io + requests('aio_read', n) + [image])
    os.unlink(image)
    return [max(x[i] - base[i], 0.0) * 1e9 / n for x in (w, r) for i in (0, 1)]


def main(argv):
    if len(argv) != 2:
        print(__doc__.strip().splitlines()[0], file=sys.stderr)
        return 2
    out = os.path.abspath(argv[1])
    for b in BUILDS:
        for prog in ('qemu-img', 'qemu-io'):
            if not os.access(os.path.join(out, 'build-' + b, prog), os.X_OK):
                print('# qemu_io: %s has no %s build of %s (run tests/qemu-cpc/build.sh)'
                      % (out, b, prog))
                return 1
    quick = bool(os.environ.get('BENCH_QUICK'))
    n = 200 if quick else 2000
    reps = 2 if quick else 7
    names = ('aio_write', 'aio_write.cpu', 'aio_read', 'aio_read.cpu')
    res = {(m, b): [] for m in names for b in BUILDS}
    tmp = tempfile.mkdtemp(prefix='qemu-io-bench-')
    try:
        for rep in range(reps):
            for b in (BUILDS if rep % 2 == 0 else BUILDS[::-1]):
                for m, x in zip(names, one(out, b, n, tmp)):
                    res[(m, b)].append(x)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    print('# qemu_io: %d concurrent requests of %d bytes per run, %d repetitions, medians'
          % (n, SIZE, reps))
    for m in names:
        med = {b: statistics.median(res[(m, b)]) for b in BUILDS}
        for b in BUILDS:
            print('BENCH qemu_io.%s.%s %.0f ns' % (m, b, med[b]))
        if med['cpc'] > 0:
            print('BENCH qemu_io.%s.ucontext_over_cpc %.2f x' % (m, med['ucontext'] / med['cpc']))
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
