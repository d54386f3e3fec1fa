/* A guarded header defining cps functions (header_cps_definitions.cpc). */
#ifndef HEADER_CPS_GUARDED_H
#define HEADER_CPS_GUARDED_H
#include "values.h"
static cps void helper(void)
{
    cpc_yield();
    printf("helper %d\n", HELPER_VALUE);
}
cps int twice(int x);
#endif
