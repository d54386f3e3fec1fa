#include "api.h"

/* the primitive: switches natively, calls nothing cooperative */
void coroutine_fn co_yield(void) { }

int coroutine_fn read_sync(int sector) { co_yield(); return sector; }

int coroutine_fn never_yields(int x) { return x + 1; }

static int helper(int s) { return read_sync(s) + never_yields(s); }

static void note(int n) { (void)n; }

const Driver drv = { .read = read_sync, .notify = note };

int coroutine_fn through_driver(const Driver *d) { return d->read(3); }

int outer(int s)
{
    return helper(s);
}

static int cmd_read(int arg) { return read_sync(arg); }
const Command commands[] = { { "read", cmd_read } };
static int cmd_length(int arg) { return arg; }
const Command more[] = { { "length", cmd_length } };
