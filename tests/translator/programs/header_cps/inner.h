#pragma once
#define INNER_VALUE 7
static cps int inner(int n)
{
    int i, s = 0;
    for (i = 0; i < n; i++) {
        cpc_yield();
        s += INNER_VALUE;
    }
    return s;
}
