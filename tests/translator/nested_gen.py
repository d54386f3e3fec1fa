#!/usr/bin/env python3
"""Random C programs with nested functions, for differential testing against
gcc: functions nested up to three deep read and write the variables of the
functions around them, call one another (recursively too) and declare
variables in inner blocks; each block prints the variables it declared.

    nested_gen.py SEED            print the program of SEED
    nested_gen.py [--cps] SEED    print the program of SEED (its cps variant)
    nested_gen.py --check A B     compile seeds A..B with gcc (GCC's own
                                  nested functions) and cpcc, native and cps
                                  variants, and compare the outputs

Evaluation order is kept out of the programs' meaning: a call is a whole
expression with call-free arguments, and a variable that a call may write is
assigned with `=` only.
"""
import os
import random
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
CPCC = os.path.join(HERE, '..', '..', 'bin', 'cpcc')
OPS = ['+', '-', '*', '^', '&', '|']


class Gen:
    """With cps=True the same program (same random choices) with every
    nested function cps, cooperation points (`cpc_yield()`) here and there,
    and the body run by a spawned thread: one thread, so it must print
    what the native program prints."""

    def __init__(self, seed, cps=False):
        self.r = random.Random(seed)
        self.yields = random.Random(seed * 7 + 1)
        self.cps = cps
        self.count = 0

    def leaf(self, vars_):
        r = self.r
        return r.choice(vars_ + ['g0', str(r.randint(0, 9))])

    def pure(self, vars_, depth):
        if depth <= 0 or self.r.random() < 0.4:
            return self.leaf(vars_)
        return '(%s %s %s)' % (self.pure(vars_, depth - 1), self.r.choice(OPS),
                               self.pure(vars_, depth - 1))

    def expr(self, vars_, fns):
        """(text, has_call)"""
        if fns and self.r.random() < 0.35:
            name, arity, recursive = self.r.choice(fns)
            args = ['(%s & 7)' % self.pure(vars_, 1) for _ in range(arity)]
            if recursive:
                args.append(str(self.r.randint(0, 5)))
            if arity == 1 and not recursive and self.r.random() < 0.5 and not self.cps:
                # through a pointer, from native code (cps functions are called directly)
                return 'apply(%s, %s)' % (name, args[0]), True
            return '%s(%s)' % (name, ', '.join(args)), True
        return self.pure(vars_, 2), False

    def block(self, depth, vars_, fns, ind):
        r = self.r
        own_vars, vars_, fns, out = [], list(vars_), list(fns), []
        for _ in range(r.randint(2, 5)):
            c = r.random()
            if c < 0.25:
                self.count += 1
                v = 'v%d' % self.count
                out.append('%sint %s = %s;' % (ind, v, self.expr(vars_, fns)[0]))
                vars_.append(v)
                own_vars.append(v)
            elif c < 0.5 and depth < 3:
                out += self.function(depth, vars_, fns, ind)
            elif c < 0.85:
                v = r.choice(vars_)
                e, call = self.expr(vars_, fns)
                op = '' if call else r.choice(['+', '-', '^', ''])
                out.append('%s%s %s= %s;' % (ind, v, op, e))
            else:
                out.append(ind + '{')
                out += self.block(depth + 1, vars_, fns, ind + '    ')
                out.append(ind + '}')
            if self.cps and self.yields.random() < 0.3:
                out.append(ind + 'cpc_yield();')
        for v in own_vars:
            out.append('%sprintf("%s=%%d\\n", %s);' % (ind, v, v))
        return out

    def function(self, depth, vars_, fns, ind):
        r = self.r
        self.count += 1
        name = 'n%d' % self.count
        params = ['p%d_%d' % (self.count, i) for i in range(r.randint(0, 2))]
        # a recursive function counts down a parameter that nothing else writes
        recursive = r.random() < 0.3
        decl = ['int ' + p for p in params] + (['int depth'] if recursive else [])
        out = ['%s%sint %s(%s) {' % (ind, 'cps ' if self.cps else '', name,
                                      ', '.join(decl) or 'void')]
        inner = vars_ + params
        out += self.block(depth + 1, inner, fns, ind + '    ')
        if recursive:
            out.append('%s    if (depth > 0) return %s(%s);' % (
                ind, name, ', '.join(params + ['depth - 1'])))
        out.append('%s    return %s;' % (ind, self.pure(inner, 2)))
        out.append(ind + '}')
        fns.append((name, len(params), recursive))
        return out

    def program(self):
        body = self.block(0, ['a', 'b'], [], '    ')
        cps = 'cps ' if self.cps else ''
        run = ('    cpc_spawn body();\n    cpc_main_loop();' if self.cps else '    body();')
        return '\n'.join(['#include <stdio.h>'] +
                         (['#include <cpc/cpc_runtime.h>'] if self.cps else []) +
                         ['static int g0 = 3;',
                          'static int apply(int (*f)(int), int x) { return f(x); }',
                          '%svoid body(void) {' % cps,
                          '    int a = 1, b = 2;'] + body +
                         ['    printf("a=%d b=%d g0=%d\\n", a, b, g0);', '}',
                          'int main(void) {', run, '    return 0;', '}']) + '\n'


def program(seed, cps=False):
    return Gen(seed, cps).program()


def check(seed, tmp, opt='-O0', cps=False, extra=()):
    """None, or why cpcc's build of the program (its cps variant when cps)
    differs from gcc's build of the native one."""
    outs = []
    for name, cmd, variant in (
            ('gcc', ['gcc', '-x', 'c', '-std=gnu11', '-w', opt, '-Wl,--no-warn-execstack'], False),
            ('cpcc', [CPCC, '-w', opt] + list(extra), cps)):
        src = os.path.join(tmp, '%s%d.cpc' % (name, seed))
        with open(src, 'w') as f:
            f.write(program(seed, variant))
        exe = os.path.join(tmp, '%s%d' % (name, seed))
        r = subprocess.run(cmd + ['-o', exe, src], capture_output=True, text=True)
        if r.returncode != 0:
            return 'seed %d: %s failed to compile\n%s' % (seed, name, r.stderr[-2000:])
        p = subprocess.run([exe], capture_output=True, text=True, timeout=30)
        outs.append((p.returncode, p.stdout))
    if outs[0] != outs[1]:
        return 'seed %d: outputs differ (gcc status %d, cpcc status %d)' % (
            seed, outs[0][0], outs[1][0])
    return None


def main(argv):
    if argv and argv[0] == '--check':
        a, b = int(argv[1]), int(argv[2])
        fails = 0
        with tempfile.TemporaryDirectory() as tmp:
            for seed in range(a, b + 1):
                for cps in (False, True):
                    why = check(seed, tmp, '-O2' if seed % 2 else '-O0', cps,
                                ['--dataflow=environments'] if cps and seed % 3 == 0 else [])
                    if why:
                        fails += 1
                        print(why + (' (cps)' if cps else ''))
        print('nested_gen: %d seeds, %d differ' % (b - a + 1, fails))
        return 1 if fails else 0
    if argv[0] == '--cps':
        sys.stdout.write(program(int(argv[1]), True))
    else:
        sys.stdout.write(program(int(argv[0])))
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
