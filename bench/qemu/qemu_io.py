"""Seed 003's section 7.2 on this machine: the block layer of the paper's
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
Runs of the two builds alternate; each figure is the median of the
repetitions.  Prints

    BENCH qemu_io.<aio_write|aio_read>.<cpc|ucontext> <ns> ns
    BENCH qemu_io.<aio_write|aio_read>.ucontext_over_cpc <ratio> x

BENCH_QUICK=1: fewer requests and repetitions (a smoke run).
"""
import os
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
    t0 = time.perf_counter()
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                       timeout=600)
    dt = time.perf_counter() - t0
    if p.returncode != 0 or 'failed' in p.stdout or p.stderr.strip():
        raise RuntimeError('%s: exit %d: %s' % (cmd[0], p.returncode,
                                                 (p.stdout + p.stderr).strip()[:300]))
    return dt


def requests(op, n):
    """qemu-io arguments submitting n concurrent requests, then waiting."""
    args = []
    for i in range(n):
        args += ['-c', '%s -q -P %d %d %d' % (op, 1 + i % 200, i * CLUSTER, SIZE)]
    return args + ['-c', 'aio_flush']


def one(out, build, n, tmp):
    """(write ns, read ns) per request for one repetition of `build`."""
    d = os.path.join(out, 'build-' + build)
    img, io = os.path.join(d, 'qemu-img'), os.path.join(d, 'qemu-io')
    image = os.path.join(tmp, build + '.qcow2')
    size = '%dM' % max(64, (n * CLUSTER) // (1 << 20) + 16)
    subprocess.run([img, 'create', '-f', 'qcow2', image, size], check=True,
                   stdout=subprocess.DEVNULL)
    base = timed([io, '-c', 'aio_flush', image])
    w = timed([io] + requests('aio_write', n) + [image]) - base
    # (the reads check the pattern each write left: qemu-io reports a mismatch,
    # and a report fails the run)
    r = timed([io] + requests('aio_read', n) + [image]) - base
    os.unlink(image)
    return max(w, 0.0) * 1e9 / n, max(r, 0.0) * 1e9 / n


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
    res = {(op, b): [] for op in ('aio_write', 'aio_read') for b in BUILDS}
    tmp = tempfile.mkdtemp(prefix='qemu-io-bench-')
    try:
        for rep in range(reps):
            for b in (BUILDS if rep % 2 == 0 else BUILDS[::-1]):
                w, r = one(out, b, n, tmp)
                res[('aio_write', b)].append(w)
                res[('aio_read', b)].append(r)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    print('# qemu_io: %d concurrent requests of %d bytes per run, %d repetitions, medians'
          % (n, SIZE, reps))
    for op in ('aio_write', 'aio_read'):
        med = {b: statistics.median(res[(op, b)]) for b in BUILDS}
        for b in BUILDS:
            print('BENCH qemu_io.%s.%s %.0f ns' % (op, b, med[b]))
        if med['cpc'] > 0:
            print('BENCH qemu_io.%s.ucontext_over_cpc %.2f x' % (op, med['ucontext'] / med['cpc']))
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
