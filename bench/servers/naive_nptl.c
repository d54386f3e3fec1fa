/* naive_nptl.c -- the naive web server with kernel threads (glibc's
   nptl): one detached pthread per connection, default attributes (see
   naive_common.h). */
#include <errno.h>
#include <pthread.h>
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
        n = read(fd, buf + len, NAIVE_BUF - len);
        if (n <= 0)
            goto out;
        len += (size_t)n;
        if (naive_request_complete(buf, len))
            break;
    }
    while (sent < NAIVE_RESPONSE_LEN) {
        n = write(fd, NAIVE_RESPONSE + sent, NAIVE_RESPONSE_LEN - sent);
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
    pthread_attr_t attr;
    pthread_t t;

    pthread_attr_init(&attr);
    pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
    for (;;) {
        fd = accept(lfd, NULL, NULL);
        if (fd < 0) {
            if (errno == EMFILE || errno == ENFILE)
                usleep(1000);
            continue;
        }
        if (pthread_create(&t, &attr, handle, (void *)(long)fd) != 0)
            close(fd);
    }
}
