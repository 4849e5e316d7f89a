#include "oomdiag/livescan.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "feed.h"
#include "linesplit.h"
#include "sysio.h"

struct livescan {
    struct od_job *job;
    size_t input;
    int streams;
    int rfd[LIVESCAN_STREAMS], wfd[LIVESCAN_STREAMS];
    int high[LIVESCAN_STREAMS], low[LIVESCAN_STREAMS]; /* backlog marks: start and stop skipping */
    int skipping[LIVESCAN_STREAMS];
    struct linesplit split[LIVESCAN_STREAMS];
    unsigned long long lines; /* "\n" over all streams, for line numbers */
    struct livescan_stats stats;
    int failed;
    char *buf;
    pthread_t thread;
};

static int on_line(void *ctx, const struct line *ln, unsigned long long newlines)
{
    struct livescan *ls = ctx;
    int rc = 0;
    if (ln != NULL) {
        struct line merged = *ln;
        merged.number = ls->lines + 1;
        rc = od_job_feed_line(ls->job, ls->input, &merged);
    }
    ls->lines += newlines;
    return rc;
}

static unsigned long long count_newlines(const char *p, size_t n)
{
    unsigned long long k = 0;
    const char *end = p + n;
    while (p < end && (p = memchr(p, '\n', (size_t)(end - p))) != NULL) {
        k++;
        p++;
    }
    return k;
}

/* One chunk of stream I: scanned, or only counted when too much waits. */
static void consume(struct livescan *ls, int i, const char *p, size_t n)
{
    int waiting = 0;
    if (ioctl(ls->rfd[i], FIONREAD, &waiting) != 0)
        waiting = 0;
    if (!ls->skipping[i] && waiting >= ls->high[i])
        ls->skipping[i] = 1;
    else if (ls->skipping[i] && waiting <= ls->low[i])
        ls->skipping[i] = 0;
    ls->stats.bytes += n;
    if (ls->failed)
        return;
    if (ls->skipping[i]) {
        unsigned long long nl = count_newlines(p, n);
        ls->stats.skipped_bytes += n;
        ls->stats.skipped_newlines += nl;
        if (linesplit_skip(&ls->split[i], n, nl, on_line, ls) != 0)
            ls->failed = 1;
    } else if (linesplit_push(&ls->split[i], p, n, on_line, ls) != 0) {
        ls->failed = 1;
    }
}

static void *run_thread(void *arg)
{
    struct livescan *ls = arg;
    int open_count = ls->streams;
    while (open_count > 0) {
        struct pollfd pfd[LIVESCAN_STREAMS];
        for (int i = 0; i < ls->streams; i++)
            pfd[i] = (struct pollfd){ls->rfd[i], POLLIN, 0};
        if (poll(pfd, (nfds_t)ls->streams, -1) < 0) {
            if (errno == EINTR)
                continue;
            break;
        }
        for (int i = 0; i < ls->streams; i++) {
            if (ls->rfd[i] < 0 || !(pfd[i].revents & (POLLIN | POLLHUP | POLLERR)))
                continue;
            ssize_t n = read(ls->rfd[i], ls->buf, LIVESCAN_CHUNK);
            if (n < 0 && (errno == EINTR || errno == EAGAIN))
                continue;
            if (n <= 0) {
                close(ls->rfd[i]);
                ls->rfd[i] = -1;
                open_count--;
                continue;
            }
            consume(ls, i, ls->buf, (size_t)n);
        }
    }
    return NULL;
}

static void free_ls(struct livescan *ls)
{
    for (int i = 0; i < LIVESCAN_STREAMS; i++) {
        if (ls->rfd[i] >= 0)
            close(ls->rfd[i]);
        if (ls->wfd[i] >= 0)
            close(ls->wfd[i]);
        linesplit_free(&ls->split[i]);
    }
    free(ls->buf);
    free(ls);
}

struct livescan *livescan_start(struct od_job *job, const char *path, int streams)
{
    struct livescan *ls = calloc(1, sizeof *ls);
    if (ls == NULL)
        return NULL;
    ls->job = job;
    ls->streams = streams < 1 ? 1 : streams > LIVESCAN_STREAMS ? LIVESCAN_STREAMS : streams;
    for (int i = 0; i < LIVESCAN_STREAMS; i++)
        ls->rfd[i] = ls->wfd[i] = -1;
    ls->buf = malloc(LIVESCAN_CHUNK);
    long idx = od_job_feed_begin(job, path);
    int ok = idx >= 0 && ls->buf != NULL;
    for (int i = 0; ok && i < ls->streams; i++) {
        int p[2];
        if (linesplit_init(&ls->split[i]) != 0 || pipe2(p, O_CLOEXEC) != 0) {
            ok = 0;
            break;
        }
        ls->rfd[i] = p[0];
        ls->wfd[i] = p[1];
        fcntl(p[1], F_SETPIPE_SZ, LIVESCAN_PIPE_SIZE); /* as large as allowed; the default otherwise */
        int size = fcntl(p[1], F_GETPIPE_SZ);
        if (size <= 0)
            size = 65536;
        ls->high[i] = size / 2;
        ls->low[i] = size / 8;
    }
    if (ok) {
        ls->input = (size_t)idx;
        if (pthread_create(&ls->thread, NULL, run_thread, ls) == 0)
            return ls;
    }
    free_ls(ls);
    return NULL;
}

int livescan_fd(const struct livescan *ls, int stream)
{
    return stream < ls->streams ? ls->wfd[stream] : -1;
}

void livescan_put(struct livescan *ls, int stream, const char *p, size_t n)
{
    int fd = livescan_fd(ls, stream);
    if (fd >= 0)
        (void)sysio_write_all(fd, p, n);
}

int livescan_finish(struct livescan *ls, struct livescan_stats *stats)
{
    for (int i = 0; i < ls->streams; i++) {
        close(ls->wfd[i]);
        ls->wfd[i] = -1;
    }
    pthread_join(ls->thread, NULL);
    int rc = ls->failed ? -1 : 0;
    unsigned long long bytes = 0;
    for (int i = 0; i < ls->streams; i++) {
        if (rc == 0 && linesplit_end(&ls->split[i], on_line, ls) != 0)
            rc = -1;
        if (ls->split[i].open) /* an unfinished "\r" line of one stream still counts */
            ls->lines++;
        bytes += ls->split[i].bytes;
    }
    if (od_job_feed_end(ls->job, ls->input, ls->lines, bytes) != 0)
        rc = -1;
    if (stats != NULL)
        *stats = ls->stats;
    free_ls(ls);
    return rc;
}
