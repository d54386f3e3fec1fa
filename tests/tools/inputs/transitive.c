/* A missing annotation propagates: `missing` calls a coroutine_fn (error),
   `caller` and `caller2` only call functions that must be coroutine_fn
   (warnings naming the chain). */
#define coroutine_fn
void coroutine_fn coro(void);
void missing(void) { coro(); }
void caller(void) { missing(); }
void caller2(void) { caller(); }
