/* seen by b.c only (its -Iinclude_b): what b.c knows of a.c */
#define coroutine_fn
int step(int n);
