#include "qemu_block.h"

int coroutine_fn bdrv_co_flush(BlockDriverState *bs)
{
    if (bs->drv->bdrv_co_flush) {
        int ret = bs->drv->bdrv_co_flush(bs);
        if (ret < 0)
            return ret;
    }
    return bdrv_flush_sync(bs);            /* blocking call in a coroutine */
}

int bdrv_flush(BlockDriverState *bs)       /* calls a coroutine function */
{
    return bdrv_co_flush(bs);
}

static int raw_probe(const char *f) { return f != 0; }
static int coroutine_fn raw_co_flush(BlockDriverState *bs) { (void)bs; return 0; }
static int raw_flush_native(BlockDriverState *bs) { (void)bs; return 0; }

BlockDriver bdrv_raw = {
    .format_name = "raw",
    .bdrv_probe = raw_probe,
    .bdrv_co_flush = raw_co_flush,          /* fine: interface wants coroutine_fn */
};
BlockDriver bdrv_bad = {
    .format_name = "bad",
    .bdrv_co_flush = raw_flush_native,      /* adds the annotation */
};

static void coroutine_fn flush_entry(void *opaque)
{
    bdrv_flush(opaque);
}

static void entry_native(void *opaque) { (void)opaque; }

void start_flush(BlockDriverState *bs)
{
    Coroutine *co = qemu_coroutine_create(flush_entry);
    qemu_coroutine_enter(co, bs);
    co = qemu_coroutine_create(entry_native);   /* plain function as CoroutineEntry */
    qemu_coroutine_enter(co, bs);
}

_Bool qemu_in_coroutine(void);
int flush_any(BlockDriverState *bs)         /* hybrid: tests the context */
{
    if (qemu_in_coroutine())
        return bdrv_co_flush(bs);
    return bdrv_flush_sync(bs);
}
