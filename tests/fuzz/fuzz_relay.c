/* libFuzzer: the `run` relay (relay.h) fed a fake child's bytes and exit.
 * Byte 0 picks the set-up: the destination (a pipe, a file, a pipe whose
 * reader is gone, none), whether a live scan's pipe is there, whether a
 * log copy is taken (the read/write path) or tee/splice may be tried;
 * byte 1 the relay's buffer size; byte 2 the size of the pieces the child
 * writes.  The rest is what the child writes, piece by piece, the relay
 * moving what waits after each; then the child exits (its end closes) and
 * the relay runs to the end.  Checks: the bytes moved add up to what was
 * written; the destination (unless its reader is gone), the scan's pipe
 * and the log copy each get exactly those bytes, in order; a destination
 * whose reader is gone is marked failed and nothing else is lost. */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "relay.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

enum { INPUT_MAX = 60000, PIPE_SIZE = 1024 * 1024 };

static void check(int ok, const char *what)
{
    if (!ok) {
        fprintf(stderr, "fuzz_relay: broken promise: %s\n", what);
        abort();
    }
}

struct copy {
    unsigned char *p;
    size_t len;
};

static void on_copy(void *ctx, const char *p, size_t n)
{
    struct copy *c = ctx;
    check(c->len + n <= INPUT_MAX, "the log copy got more than was written");
    memcpy(c->p + c->len, p, n);
    c->len += n;
}

static void make_pipe(int p[2])
{
    check(pipe2(p, O_CLOEXEC) == 0, "pipe");
    fcntl(p[1], F_SETPIPE_SZ, PIPE_SIZE);
}

/* What the destination pipe and the scan's pipe received so far: read
 * after every move, as `oomdiag run`'s reader and live scan read them (a
 * pipe holds a limited number of buffers however small each is, so
 * unread, tee and splice would wait). */
struct sink {
    int fd; /* a non-blocking read end, or -1 */
    unsigned char *p;
    size_t len;
};

static void take(struct sink *s)
{
    if (s->fd < 0)
        return;
    for (;;) {
        ssize_t k = read(s->fd, s->p + s->len, INPUT_MAX + 1 - s->len);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0)
            break;
        s->len += (size_t)k;
        check(s->len <= INPUT_MAX, "more bytes out than were written");
    }
}

/* Relays what waits on R's source (nothing blocks: poll first). */
static size_t pump(struct relay *r, struct copy *cp, int to_end, struct sink *dest, struct sink *scan)
{
    size_t moved = 0;
    for (;;) {
        struct pollfd pfd = {r->from, POLLIN, 0};
        if (!to_end && poll(&pfd, 1, 0) <= 0)
            break;
        ssize_t n = relay_once(r, cp ? on_copy : NULL, cp);
        int e = errno;
        take(dest);
        take(scan);
        if (n < 0 && (e == EINTR || e == EAGAIN))
            continue; /* as run.c does: a signal (libFuzzer's timer) came */
        if (n < 0)
            fprintf(stderr, "fuzz_relay: relay_once: %s\n", strerror(e));
        check(n >= 0, "a read error on the child's pipe");
        if (n == 0)
            break;
        moved += (size_t)n;
    }
    return moved;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static unsigned char *got, *dest_got, *scan_got;
    if (got == NULL) {
        signal(SIGPIPE, SIG_IGN); /* as `oomdiag run` has it */
        got = malloc(INPUT_MAX + 1);
        dest_got = malloc(INPUT_MAX + 1);
        scan_got = malloc(INPUT_MAX + 1);
        check(got != NULL && dest_got != NULL && scan_got != NULL, "out of memory");
    }
    if (size < 3)
        return 0;
    unsigned mode = data[0];
    size_t bufsize = 1 + (size_t)data[1] * 64, piece = 1 + (size_t)data[2] * 97;
    const unsigned char *in = data + 3;
    size_t n = size - 3 > INPUT_MAX ? INPUT_MAX : size - 3;
    int dest_kind = (mode >> 1) & 3; /* 0 pipe, 1 file, 2 reader gone, 3 none */
    int with_scan = (mode >> 3) & 1, with_copy = (mode >> 4) & 1;

    int child[2], dest[2] = {-1, -1}, scan[2] = {-1, -1};
    make_pipe(child);
    if (dest_kind == 0 || dest_kind == 2)
        make_pipe(dest);
    if (dest_kind == 1) {
        dest[0] = dest[1] = memfd_create("fuzz_relay", MFD_CLOEXEC);
        check(dest[0] >= 0, "memfd_create");
    }
    if (dest_kind == 2) {
        close(dest[0]);
        dest[0] = -1;
    }
    if (with_scan)
        make_pipe(scan);
    struct sink ds = {dest_kind == 0 ? dest[0] : -1, dest_got, 0}, ss = {scan[0], scan_got, 0};
    if (ds.fd >= 0)
        fcntl(ds.fd, F_SETFL, O_NONBLOCK);
    if (ss.fd >= 0)
        fcntl(ss.fd, F_SETFL, O_NONBLOCK);
    char *buf = malloc(bufsize);
    struct copy cp = {malloc(INPUT_MAX), 0};
    check(buf != NULL && cp.p != NULL, "out of memory");
    struct relay r = {child[0], dest[1], scan[1], mode & 1, 0, buf, bufsize, 0};

    size_t moved = 0;
    for (size_t off = 0; off < n;) {
        size_t k = n - off < piece ? n - off : piece;
        check(write(child[1], in + off, k) == (ssize_t)k, "the child's write");
        off += k;
        moved += pump(&r, with_copy ? &cp : NULL, 0, &ds, &ss);
    }
    close(child[1]); /* the child exits */
    moved += pump(&r, with_copy ? &cp : NULL, 1, &ds, &ss);
    check(moved == n, "the bytes moved do not add up to the bytes written");

    if (dest_kind == 0) {
        check(!r.to_failed, "a destination that takes everything failed");
        check(ds.len == n && memcmp(ds.p, in, n) == 0, "the destination pipe did not get the child's bytes");
    }
    if (dest_kind == 1) {
        check(!r.to_failed, "a destination that takes everything failed");
        check(pread(dest[0], got, INPUT_MAX + 1, 0) == (ssize_t)n && memcmp(got, in, n) == 0,
              "the destination file did not get the child's bytes");
    }
    if (dest_kind == 2)
        check(r.to_failed || n == 0, "a destination whose reader is gone did not fail");
    if (with_scan)
        check(ss.len == n && memcmp(ss.p, in, n) == 0, "the scan did not get the child's bytes");
    if (with_copy)
        check(cp.len == n && memcmp(cp.p, in, n) == 0, "the log copy is not the child's bytes");
    close(child[0]);
    if (dest[0] >= 0)
        close(dest[0]);
    if (dest[1] >= 0 && dest[1] != dest[0])
        close(dest[1]);
    if (with_scan) {
        close(scan[0]);
        close(scan[1]);
    }
    free(buf);
    free(cp.p);
    return 0;
}
