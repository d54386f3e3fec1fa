#!/usr/bin/env python3
"""Generate one large cps function of a given shape, for the translator's scaling
benchmark (`make bench-translator`, run.py `scaling`).

Shapes (N is the size; every shape has about one cps call per line):
  and_chain   return g(0) && g(1) && ... && g(N-1);
  sum         return g(0) + g(1) + ... + g(N-1);
  else_if     N `else if` branches, each calling g
  returns     N `if (x == i) return g(i);`, each followed by a cps call
  gotos       N labels, a cps call after each, a conditional backward goto every line
  locals      N locals, each initialised by a cps call
  blocks      a macro that expands to 2**N blocks, each a cps call
  cleanup_blocks  a macro that expands to 2**N blocks, each a local with a cleanup
              attribute and no cps call (one call before them, one after): thousands of
              locals no frame holds

Usage: shapes.py SHAPE N > file.cpc
"""
import random
import sys

HEAD = '#include <cpc/cpc_runtime.h>\ncps int g(int x) { return x + 1; }\n'


def and_chain(n):
    return ['cps int f(void) {',
            '    return ' + ' &&\n        '.join('g(%d)' % i for i in range(n)) + ';', '}']


def sum_(n):
    return ['cps int f(void) {',
            '    return ' + ' +\n        '.join('g(%d)' % i for i in range(n)) + ';', '}']


def else_if(n):
    out = ['cps int f(int x) {', '    int r = 0;']
    for i in range(n):
        out.append('    %sif (x == %d) r = g(%d);' % ('else ' if i else '', i, i))
    return out + ['    return r;', '}']


def returns(n):
    out = ['cps int f(int x) {']
    for i in range(n):
        out.append('    if (x == %d) return g(%d);' % (i, i))
        out.append('    x = g(x) + %d;' % i)
    return out + ['    return x;', '}']


def gotos(n):
    r = random.Random(n)
    out = ['cps int f(int n) {', '    int a = 0, i = 0;',
           '    int ' + ', '.join('v%d' % k for k in range(n)) + ';']
    for k in range(n):
        out.append('L%d: v%d = g(a + %d); a += v%d;' % (k, k, k, k))
        if k:
            out.append('    if (i++ < n && (a & 3) == %d) goto L%d;' % (k % 4, r.randrange(k)))
    return out + ['    return a + ' + ' + '.join('v%d' % k for k in range(0, n, 7)) + ';', '}']


def locals_(n):
    out = ['cps int f(int n) {']
    out += ['    int v%d = g(n + %d);' % (k, k) for k in range(n)]
    return out + ['    return ' + ' + '.join('v%d' % k for k in range(0, n, max(1, n // 50))) + ';',
                  '}']


def blocks(n):
    out = ['#define B0 { x = g(x); }']
    out += ['#define B%d B%d B%d' % (k, k - 1, k - 1) for k in range(1, n + 1)]
    return out + ['cps int f(int x) {', '    B%d' % n, '    return x;', '}']


def cleanup_blocks(n):
    out = ['static int total;', 'static void done(int *p) { total += *p; }',
           '#define B0 { int __attribute__((cleanup(done))) x = 1; }']
    out += ['#define B%d B%d B%d' % (k, k - 1, k - 1) for k in range(1, n + 1)]
    return out + ['cps int f(int x) {', '    x = g(x);', '    B%d' % n, '    return g(x) + total;',
                  '}']


SHAPES = {'and_chain': and_chain, 'sum': sum_, 'else_if': else_if, 'returns': returns, 'gotos': gotos,
          'locals': locals_, 'blocks': blocks, 'cleanup_blocks': cleanup_blocks}


def source(shape, n):
    return HEAD + '\n'.join(SHAPES[shape](n)) + '\n'


if __name__ == '__main__':
    sys.stdout.write(source(sys.argv[1], int(sys.argv[2])))
