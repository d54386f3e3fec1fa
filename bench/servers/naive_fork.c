/* naive_fork.c -- the naive web server with processes: one fork(2) per
   connection (see naive_common.h).  Children are reaped by the kernel
   (SIGCHLD ignored). */
#include <errno.h>
#include <signal.h>
#include "naive_common.h"

static void handle(int fd)
{
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
}

int main(int argc, char **argv)
{
    int lfd = naive_listen(argc, argv), fd;
    pid_t pid;

    signal(SIGCHLD, SIG_IGN);
    for (;;) {
        fd = accept(lfd, NULL, NULL);
        if (fd < 0) {
            if (errno == EMFILE || errno == ENFILE || errno == EAGAIN)
                usleep(1000);
            continue;
        }
        pid = fork();
        if (pid == 0) {
            close(lfd);
            handle(fd);
            _exit(0);
        }
        close(fd);
    }
}
