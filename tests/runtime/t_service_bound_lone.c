/* t_service_bound with one yielding thread: a yield with nobody else to
   run goes on at once (optimised code: the inline yield returns the
   thread itself to the loop's trampoline), and the loop still takes a
   ready descriptor and an expired timer within 64 switches. */
#define NYIELD 1
#include "t_service_bound.c"
