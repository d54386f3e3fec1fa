/* corpus.h -- the thin layer that lets every corpus program build both as
 * plain C (the reference, `cc prog.c`) and as CPC (`cpcc -DCORPUS_CPC`, with
 * the program's `main` renamed and run in a spawned cps thread by run.py).
 *
 *   CPS       `cps` under CPC, nothing in plain C: marks every function that
 *             can be cps (not variadic ones, not those native code calls).
 *   CHECK(c)  prints the failed condition and exits with status 1.
 */
#ifndef CORPUS_H
#define CORPUS_H
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef CORPUS_CPC
#include <cpc/cpc_runtime.h>
#define CPS cps
#else
#define CPS
#endif

#define CHECK(c) ((c) ? (void)0 : (printf("CHECK failed at line %d: %s\n", __LINE__, #c), \
                                  fflush(stdout), exit(1)))
#endif
