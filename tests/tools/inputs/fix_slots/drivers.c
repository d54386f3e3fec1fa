/* Callbacks in native struct fields (QEMU's BlockDriver tables): a field
   that holds a function which must be cooperative is cooperative, so the
   calls through it are, and every function stored in it must be too, even
   one that calls nothing cooperative; another field of the same struct
   stays native.  A parameter copied into a field holds what the field
   holds.  A field whose values reach code that cannot change (here
   pthread_create) stays native, and so do the functions stored in it. */
#include <pthread.h>
#define coroutine_fn
void coroutine_fn co_yield(void);

typedef struct Driver {
    void (*close)(void *s);
    int (*probe)(const char *f);
    void *(*thread)(void *arg);
} Driver;

static void flush(void *s) { (void)s; co_yield(); }
static void a_close(void *s) { flush(s); }               /* calls flush */
static void b_close(void *s) { (void)s; }                /* in the same field */
static void c_close(void *s) { (void)s; }                /* through install() */
static int a_probe(const char *f) { return f != 0; }     /* a native field */
static void *a_thread(void *arg) { flush(arg); return 0; }

const Driver drv_a = { .close = a_close, .probe = a_probe, .thread = a_thread };
const Driver drv_b = { .close = b_close, .probe = a_probe };

void install(Driver *d, void (*cb)(void *)) { d->close = cb; }
void setup(Driver *d) { install(d, c_close); }

void drv_close(const Driver *d, void *s) { d->close(s); }  /* through the field */
int drv_probe(const Driver *d) { return d->probe("x"); }

void drv_start(const Driver *d)
{
    pthread_t t;
    pthread_create(&t, 0, d->thread, 0);
}
