/* seen by a.c only (its -Iinclude_a) */
#define coroutine_fn
void coroutine_fn fetch(int n);
void coroutine_fn wait_io(void);
