/* The definition, in C on the runtime's interface: the continuation comes
   first (NULL from native code); a char argument arrives promoted to int. */
#include <cpc/cpc_runtime.h>

int scaled(cpc_continuation *k, int base, double factor)
{
    return (int)(base * factor) + (k != NULL ? 1 : 0);
}
