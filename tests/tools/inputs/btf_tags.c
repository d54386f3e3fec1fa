/* Annotations as btf_type_tag type attributes (they travel with types). */
#define coroutine_fn __attribute__((btf_type_tag("coroutine_fn")))
#define blocking_fn __attribute__((btf_type_tag("blocking_fn")))

typedef int coroutine_fn co_cb(int);
int coroutine_fn co_read(int fd);
int blocking_fn read_sync(int fd);

int coroutine_fn co_twice(int fd) { return co_read(fd) + co_read(fd); }
int twice(int fd) { return co_read(fd) * 2; }
int apply(co_cb *cb, int x) { return cb(x); }
int coroutine_fn apply_co(co_cb *cb, int x) { return cb(x) + read_sync(x); }
co_cb *pick(int c) { return c ? co_twice : (co_cb *)twice; }
