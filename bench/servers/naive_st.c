/* naive_st.c -- the naive web server with State Threads: one ST thread
   per connection (see naive_common.h).  ST's epoll event system is used
   when the library has it, as CPC's runtime uses epoll. */
#include <errno.h>
#include <st.h>
#include "naive_common.h"

static void *handle(void *arg)
{
    st_netfd_t nfd = arg;
    char *buf = malloc(NAIVE_BUF);
    size_t len = 0, sent = 0;
    ssize_t n;

    if (buf == NULL)
        goto out;
    while (len < NAIVE_BUF) {
        n = st_read(nfd, buf + len, NAIVE_BUF - len, ST_UTIME_NO_TIMEOUT);
        if (n <= 0)
            goto out;
        len += (size_t)n;
        if (naive_request_complete(buf, len))
            break;
    }
    while (sent < NAIVE_RESPONSE_LEN) {
        n = st_write(nfd, NAIVE_RESPONSE + sent, NAIVE_RESPONSE_LEN - sent,
                     ST_UTIME_NO_TIMEOUT);
        if (n <= 0)
            goto out;
        sent += (size_t)n;
    }
out:
    free(buf);
    st_netfd_close(nfd);
    return NULL;
}

int main(int argc, char **argv)
{
    int lfd = naive_listen(argc, argv);
    st_netfd_t lnfd, nfd;

    st_set_eventsys(ST_EVENTSYS_ALT);   /* epoll where available */
    if (st_init() < 0 || (lnfd = st_netfd_open_socket(lfd)) == NULL) {
        perror("st_init");
        return 1;
    }
    for (;;) {
        nfd = st_accept(lnfd, NULL, NULL, ST_UTIME_NO_TIMEOUT);
        if (nfd == NULL) {
            if (errno == EMFILE || errno == ENFILE)
                st_usleep(1000);
            continue;
        }
        if (st_thread_create(handle, nfd, 0, 0) == NULL)
            st_netfd_close(nfd);
    }
}
