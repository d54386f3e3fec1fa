/* Figure 3 of "QEMU/CPC", section 4.2 (docs/references.md). */
#define coroutine_fn __attribute__((annotate("coroutine_fn")))
#define blocking_fn __attribute__((annotate("blocking_fn")))

extern void coroutine_fn coro();
extern void blocking_fn block();

void native() { };
void coroutine_fn (*coro_fun_ptr)(void) = &coro;

void coroutine_fn spurious()    { }
void coroutine_fn good()        { coro(); native(); }
void missing()                  { coro(); }
void coroutine_fn call_missing() { missing(); }
void blocking_fn wrong()        { good(); }
void call_block()               { block(); }
void coroutine_fn wrong_call()  { coro(); block(); }
void ptr_call()                 { coro_fun_ptr(); }
