/* tests/qemu/qtest.h -- helpers for the tests of <cpc/qemu-coroutine.h>.
 * CHECK prints "ok: what" or "FAIL: what (file:line)", so that a failure
 * shows up as a difference from the .expected file. */
#ifndef CPC_QTEST_H
#define CPC_QTEST_H

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cpc/qemu-coroutine.h>

#define CHECK(cond, what)                                               \
    do {                                                                \
        if (cond)                                                       \
            printf("ok: %s\n", what);                                   \
        else                                                            \
            printf("FAIL: %s (%s:%d)\n", what, __FILE__, __LINE__);     \
        fflush(stdout);                                                 \
    } while (0)

/* Run fn(arg) in a child process; true if it aborted (SIGABRT) with a
   message on stderr containing `msg`. */
static inline int aborts_with(void (*fn)(void *), void *arg, const char *msg)
{
    int fds[2];
    char buf[4096];
    size_t len = 0;
    ssize_t n;
    int status;
    fflush(stdout);
    if (pipe(fds) != 0)
        return 0;
    pid_t pid = fork();
    if (pid == 0) {
        dup2(fds[1], 2);
        close(fds[0]);
        fn(arg);
        _exit(0);
    }
    close(fds[1]);
    while (len < sizeof buf - 1 &&
           (n = read(fds[0], buf + len, sizeof buf - 1 - len)) > 0)
        len += (size_t)n;
    buf[len] = 0;
    close(fds[0]);
    waitpid(pid, &status, 0);
    return WIFSIGNALED(status) && WTERMSIG(status) == SIGABRT &&
           strstr(buf, msg) != NULL;
}

#endif
