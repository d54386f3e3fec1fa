#ifdef WITH_CORO
#define coroutine_fn __attribute__((annotate("coroutine_fn")))
#else
#define coroutine_fn
#endif
void coroutine_fn co_wait(void);
