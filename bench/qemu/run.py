"""Run table 2 of "QEMU/CPC" (docs/references.md) on every backend and print the figures.

    python3 bench/qemu/run.py BUILD_DIR      (make bench-qemu)

Each backend binary (bench-cpc, bench-ucontext, bench-sigaltstack,
bench-thread) prints `qemu.<case>.<backend> <ns>` lines; this prints them as

    BENCH qemu.<case>.<backend> <ns> ns
    BENCH qemu.<case>.<peer>_over_cpc <ratio> x

(ratio: how many times slower than cpc the peer is), then a table like the
paper's and, for each case, whether cpc is at least 5x faster than ucontext
(the target; printed, never asserted).  BENCH_QUICK=1 for a smoke run.
"""
import os
import subprocess
import sys

BACKENDS = ['cpc', 'ucontext', 'sigaltstack', 'thread']
CASES = ['lifecycle', 'lifecycle_pool', 'nesting', 'nesting_pool', 'yield', 'yield_pool']
TARGET = 5.0


def run(out, backend):
    exe = os.path.join(out, 'bench-' + backend)
    try:
        p = subprocess.run([exe], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           text=True, timeout=600)
    except (OSError, subprocess.TimeoutExpired) as e:
        print('# %s: did not run: %s' % (backend, e))
        return {}
    if p.returncode != 0:
        print('# %s: exit %d: %s' % (backend, p.returncode, p.stderr.strip()[:200]))
    res = {}
    for line in p.stdout.splitlines():
        parts = line.split()
        if len(parts) == 2 and parts[0].startswith('qemu.'):
            _, case, b = parts[0].split('.')
            res[case] = float(parts[1])
    return res


def main():
    out = sys.argv[1]
    quick = os.environ.get('BENCH_QUICK', '0') not in ('', '0')
    print('# QEMU/CPC, table 2: ns per operation%s; the machine may be shared (noisy)'
          % (' (BENCH_QUICK: short runs)' if quick else ''))
    results = {}
    for b in BACKENDS:
        results[b] = run(out, b)
        for case in CASES:
            if case in results[b]:
                print('BENCH qemu.%s.%s %.1f ns' % (case, b, results[b][case]))
        sys.stdout.flush()
    cpc = results.get('cpc', {})
    for b in BACKENDS[1:]:
        for case in CASES:
            if case in cpc and case in results[b] and cpc[case] > 0:
                print('BENCH qemu.%s.%s_over_cpc %.1f x' % (case, b, results[b][case] / cpc[case]))
    print('#')
    print('# %-12s %10s %10s %10s %10s %10s %10s' % (
        'pool', 'lifecycle', '', 'nesting', '', 'yield', ''))
    print('# %-12s %10s %10s %10s %10s %10s %10s' % ('', 'no', 'yes', 'no', 'yes', 'no', 'yes'))
    for b in BACKENDS:
        cells = []
        for case in CASES:
            v = results[b].get(case)
            cells.append('%10.1f' % v if v is not None else '%10s' % '-')
        print('# %-12s %s' % (b, ' '.join(cells)))
    uc = results.get('ucontext', {})
    for case in CASES:
        if case in cpc and case in uc:
            r = uc[case] / cpc[case]
            print('# target cpc >= %gx faster than ucontext, %-15s %6.1fx  %s' % (
                TARGET, case + ':', r, 'met' if r >= TARGET else 'NOT met'))


if __name__ == '__main__':
    main()
