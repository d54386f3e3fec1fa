/* A small multi-file CPC project, built by tests/install/run.sh the ways a
 * user builds one: a Makefile written for the original CPC, CMake, and
 * pkg-config. */
#ifndef SEEDER_H
#define SEEDER_H

#include <cpc/cpc_lib.h>

/* worker.cpc: sends `count` pieces numbered from `first` on ch. */
cps void worker(cpc_channel *ch, int first, int count);

/* stats.c (plain C): the sum of the pieces received. */
void stats_add(int piece);
long stats_sum(void);
int stats_count(void);

#endif
