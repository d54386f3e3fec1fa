#define coroutine_fn __attribute__((annotate("coroutine_fn")))
void coroutine_fn co_sleep(int ms);
int step(int n) { co_sleep(n); return n; }
