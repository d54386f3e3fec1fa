/* QEMU-style coroutine API: empty annotation macros (as in QEMU). */
#ifndef QEMU_BLOCK_H
#define QEMU_BLOCK_H
#define coroutine_fn
#define blocking_fn

typedef struct Coroutine Coroutine;
typedef void coroutine_fn CoroutineEntry(void *);
Coroutine *qemu_coroutine_create(CoroutineEntry *entry);
void qemu_coroutine_enter(Coroutine *co, void *opaque);
void coroutine_fn qemu_coroutine_yield(void);

typedef struct BlockDriverState BlockDriverState;
typedef struct BlockDriver {
    const char *format_name;
    int (*bdrv_probe)(const char *filename);
    int coroutine_fn (*bdrv_co_flush)(BlockDriverState *bs);
} BlockDriver;
struct BlockDriverState { BlockDriver *drv; };

int coroutine_fn bdrv_co_flush(BlockDriverState *bs);
int bdrv_flush(BlockDriverState *bs);       /* missing annotation in the header too */
int blocking_fn bdrv_flush_sync(BlockDriverState *bs);
#endif
