/* Only a spurious annotation: a warning (exit 0, or 1 with --werror). */
#define coroutine_fn __attribute__((annotate("coroutine_fn")))
int coroutine_fn add(int a, int b) { return a + b; }
