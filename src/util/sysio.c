#include "sysio.h"

#include <errno.h>
#include <poll.h>
#include <time.h>
#include <unistd.h>

double sysio_now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int sysio_write_all(int fd, const void *p, size_t n)
{
    const char *at = p;
    while (n > 0) {
        ssize_t w = write(fd, at, n);
        if (w < 0 && errno == EINTR)
            continue;
        if (w < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
            struct pollfd pfd = {fd, POLLOUT, 0};
            poll(&pfd, 1, 1000);
            continue;
        }
        if (w <= 0)
            return -1;
        at += w;
        n -= (size_t)w;
    }
    return 0;
}
