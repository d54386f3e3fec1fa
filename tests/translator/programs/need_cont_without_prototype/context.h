/* Declared without a prototype, as old C code declares its functions: the
   call's arguments get the default promotions. */
#include <cpc/cpc_runtime.h>
int scaled() __attribute__((cpc_need_cont));
