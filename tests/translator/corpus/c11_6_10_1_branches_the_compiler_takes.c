/* 6.10.1 conditional inclusion where the translator's front-end (Clang) and the C compiler
   (gcc) disagree: they predefine other compiler macros (__clang__, __GNUC__) and know other
   builtins (__has_builtin).  The program must compute what the C compiler's branches
   compute, cps calls in every branch, a chain nested in a branch (first in its group, too), and a
   directive written over two lines. */
#include "corpus.h"

#ifndef __has_builtin
#define __has_builtin(x) 0
#endif

CPS int id(int x) { return x; }

CPS int compiler(void)
{
    int r = 0;
#if __GNUC__ >= 5
    r += id(1);
#if defined(__clang__)
    r += id(2);
#else
    r += id(4);
#endif
#elif defined(__clang__)
    r += id(8);
#else
    r += id(16);
#endif
#ifdef __clang__
    r += id(32);
#endif
#if defined(__clang_major__) \
    || __has_builtin(__builtin_bitreverse32)
    r += id(64);
#else
    r += id(128);
#endif
#if 1
#if 0
    r += id(256);
#else
    r += id(512);
#endif
#endif
    return r;
}

int main(void)
{
    printf("%d\n", compiler());
    return 0;
}
