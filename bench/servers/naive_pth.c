/* naive_pth.c -- the naive web server with GNU Pth: one Pth thread per
   connection (see naive_common.h).  Pth waits with select(2), so it
   cannot serve descriptors numbered FD_SETSIZE (1024) or above. */
#include <errno.h>
#include <pth.h>
#include "naive_common.h"

static void *handle(void *arg)
{
    int fd = (int)(long)arg;
    char *buf = malloc(NAIVE_BUF);
    size_t len = 0, sent = 0;
    ssize_t n;

    if (buf == NULL)
        goto out;
    while (len < NAIVE_BUF) {
        n = pth_read(fd, buf + len, NAIVE_BUF - len);
        if (n <= 0)
            goto out;
        len += (size_t)n;
        if (naive_request_complete(buf, len))
            break;
    }
    while (sent < NAIVE_RESPONSE_LEN) {
        n = pth_write(fd, NAIVE_RESPONSE + sent, NAIVE_RESPONSE_LEN - sent);
        if (n <= 0)
            goto out;
        sent += (size_t)n;
    }
out:
    free(buf);
    close(fd);
    return NULL;
}

int main(int argc, char **argv)
{
    int lfd = naive_listen(argc, argv), fd;
    pth_attr_t attr;

    pth_init();
    attr = pth_attr_new();
    pth_attr_set(attr, PTH_ATTR_JOINABLE, FALSE);
    for (;;) {
        fd = pth_accept(lfd, NULL, NULL);
        if (fd < 0) {
            if (errno == EMFILE || errno == ENFILE)
                pth_usleep(1000);
            continue;
        }
        if (pth_spawn(attr, handle, (void *)(long)fd) == NULL)
            close(fd);
    }
}
