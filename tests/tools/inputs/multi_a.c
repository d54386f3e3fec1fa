#define coroutine_fn __attribute__((annotate("coroutine_fn")))
void coroutine_fn co_sleep(int ms);
int step(int n);
int coroutine_fn run(int n) { return step(n); }
int main(void) { return step(1); }
