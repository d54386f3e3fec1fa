/*
 * naive_common.h -- what every naive web server of bench/servers shares:
 * the listening socket, the canned page and the test for a complete
 * request head.  The servers differ only in how they run one connection
 * concurrently with the others (a CPC thread, an ST thread, a Pth thread,
 * a kernel thread, a process): that is what the benchmark compares.
 *
 * Usage of every server:  naive-SYS PORT   (0 picks a free port); it
 * prints "listening on PORT" once it accepts connections.
 */
#ifndef NAIVE_COMMON_H
#define NAIVE_COMMON_H

#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <unistd.h>

/* A tiny page; no keep-alive: every response closes its connection. */
#define NAIVE_BODY "<html><body>Hello from a naive server.</body></html>\n"
#define NAIVE_RESPONSE                                                   \
    "HTTP/1.1 200 OK\r\n"                                                \
    "Content-Type: text/html\r\n"                                        \
    "Content-Length: 53\r\n"                                             \
    "Connection: close\r\n"                                              \
    "\r\n" NAIVE_BODY
#define NAIVE_RESPONSE_LEN (sizeof NAIVE_RESPONSE - 1)
#define NAIVE_BUF 1024

_Static_assert(sizeof NAIVE_BODY - 1 == 53, "Content-Length matches the body");

/* 1 when buf holds a whole request head (an empty line ends it). */
static inline int naive_request_complete(const char *buf, size_t len)
{
    size_t i;
    for (i = 3; i < len; i++)
        if (buf[i - 3] == '\r' && buf[i - 2] == '\n' && buf[i - 1] == '\r' &&
            buf[i] == '\n')
            return 1;
    return 0;
}

/* A listening socket on 127.0.0.1:port, with as many descriptors allowed
   as the hard limit permits; prints the real port.  Exits on failure. */
static inline int naive_listen(int argc, char **argv)
{
    struct sockaddr_in sa;
    socklen_t sl = sizeof sa;
    struct rlimit rl;
    int fd, one = 1;

    if (argc != 2) {
        fprintf(stderr, "usage: %s PORT\n", argv[0]);
        exit(2);
    }
    if (getrlimit(RLIMIT_NOFILE, &rl) == 0) {
        rl.rlim_cur = rl.rlim_max;
        setrlimit(RLIMIT_NOFILE, &rl);
    }
    memset(&sa, 0, sizeof sa);
    sa.sin_family = AF_INET;
    sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    sa.sin_port = htons((unsigned short)atoi(argv[1]));
    fd = socket(AF_INET, SOCK_STREAM, 0);
    if (fd < 0 || setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one) < 0 ||
        bind(fd, (struct sockaddr *)&sa, sizeof sa) < 0 || listen(fd, 4096) < 0 ||
        getsockname(fd, (struct sockaddr *)&sa, &sl) < 0) {
        perror("naive server: listen");
        exit(1);
    }
    printf("listening on %d\n", ntohs(sa.sin_port));
    fflush(stdout);
    return fd;
}

#endif
