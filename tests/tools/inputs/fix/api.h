/* The interface: yield is the library's primitive, declared cooperative. */
#define coroutine_fn
typedef struct Driver {
    int (*read)(int sector);            /* holds a cooperative function */
    void (*notify)(int n);              /* holds a native one */
} Driver;
void coroutine_fn co_yield(void);
int read_sync(int sector);              /* the definition says coroutine_fn */
int coroutine_fn never_yields(int x);   /* spurious */
typedef int (*handler_t)(int arg);      /* the type of a table's handlers */
typedef struct Command { const char *name; handler_t run; } Command;
