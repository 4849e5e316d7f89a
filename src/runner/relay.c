#include "relay.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <unistd.h>

#include "sysio.h"

/* A destination someone made non-blocking: wait until it takes more. */
static void wait_writable(int fd)
{
    struct pollfd pfd = {fd, POLLOUT, 0};
    poll(&pfd, 1, 1000);
}


static void to_dest(struct relay *r, const char *p, size_t n)
{
    if (r->to >= 0 && !r->to_failed && sysio_write_all(r->to, p, n) != 0) {
        r->to_failed = 1;
        r->to_errno = errno;
    }
}

/* tee + splice. Returns bytes moved, 0 at the end, -1 on error, -2 when
 * the kernel does not do it for these descriptors (nothing moved). */
static ssize_t fast_once(struct relay *r)
{
    ssize_t n = tee(r->from, r->scan, r->bufsize, 0);
    if (n < 0)
        return errno == EINVAL || errno == ENOSYS ? -2 : -1;
    if (n == 0)
        return 0;
    size_t left = (size_t)n;
    while (left > 0 && r->to >= 0 && !r->to_failed && r->fast) {
        ssize_t s = splice(r->from, NULL, r->to, NULL, left, SPLICE_F_MOVE);
        if (s > 0)
            left -= (size_t)s;
        else if (s < 0 && errno == EINTR)
            continue;
        else if (s < 0 && errno == EAGAIN)
            wait_writable(r->to);
        else if (s < 0 && (errno == EINVAL || errno == ENOSYS))
            r->fast = 0; /* a terminal, a file opened for appending: write it */
        else {
            r->to_failed = 1;
            r->to_errno = s < 0 ? errno : EIO;
        }
    }
    /* What the scan has and the destination has not: read it out. */
    while (left > 0) {
        ssize_t k = read(r->from, r->buf, left < r->bufsize ? left : r->bufsize);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0)
            break;
        to_dest(r, r->buf, (size_t)k);
        left -= (size_t)k;
    }
    return n;
}

ssize_t relay_once(struct relay *r, void (*copy)(void *ctx, const char *p, size_t n), void *ctx)
{
    if (r->fast && copy == NULL && r->scan >= 0) {
        ssize_t n = fast_once(r);
        if (n != -2)
            return n;
        r->fast = 0;
    }
    ssize_t n;
    do
        n = read(r->from, r->buf, r->bufsize);
    while (n < 0 && errno == EINTR);
    if (n <= 0)
        return n;
    to_dest(r, r->buf, (size_t)n);
    if (copy != NULL)
        copy(ctx, r->buf, (size_t)n);
    if (r->scan >= 0)
        sysio_write_all(r->scan, r->buf, (size_t)n);
    return n;
}
