#include "seeder.h"

static long sum;
static int count;

void stats_add(int piece)
{
    sum += piece;
    count++;
}

long stats_sum(void) { return sum; }
int stats_count(void) { return count; }
