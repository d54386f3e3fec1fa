#include <cpc/cpc_runtime.h>
cps void from_header(int n);
