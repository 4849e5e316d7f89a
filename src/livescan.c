#include "livescan.h"

#include <stdlib.h>

#include "feed.h"
#include "linesplit.h"

struct livescan {
    struct spool *spool;
    struct od_job *job;
    size_t input;
    int streams;
    struct linesplit split[SPOOL_STREAMS];
    unsigned long long lines; /* "\n" over all streams, for line numbers */
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

static int on_data(void *ctx, int stream, const char *p, size_t n)
{
    struct livescan *ls = ctx;
    return linesplit_push(&ls->split[stream], p, n, on_line, ls);
}

static int on_skip(void *ctx, int stream, unsigned long long bytes, unsigned long long newlines)
{
    struct livescan *ls = ctx;
    return linesplit_skip(&ls->split[stream], bytes, newlines, on_line, ls);
}

struct livescan *livescan_start(struct od_job *job, const char *path, int streams)
{
    struct livescan *ls = calloc(1, sizeof *ls);
    if (ls == NULL)
        return NULL;
    ls->job = job;
    ls->streams = streams < 1 ? 1 : streams > SPOOL_STREAMS ? SPOOL_STREAMS : streams;
    long idx = od_job_feed_begin(job, path);
    int ok = idx >= 0;
    for (int i = 0; i < ls->streams; i++)
        if (ok && linesplit_init(&ls->split[i]) != 0)
            ok = 0;
    struct spool_consumer c = {on_data, on_skip, ls};
    if (ok)
        ls->input = (size_t)idx;
    if (ok && (ls->spool = spool_start(&c)) != NULL)
        return ls;
    for (int i = 0; i < ls->streams; i++)
        linesplit_free(&ls->split[i]);
    free(ls);
    return NULL;
}

void livescan_put(struct livescan *ls, int stream, const char *p, size_t n)
{
    spool_put(ls->spool, stream < ls->streams ? stream : 0, p, n);
}

int livescan_finish(struct livescan *ls, struct spool_stats *stats)
{
    int rc = spool_close(ls->spool, stats);
    unsigned long long bytes = 0;
    for (int i = 0; i < ls->streams; i++) {
        if (rc == 0 && linesplit_end(&ls->split[i], on_line, ls) != 0)
            rc = -1;
        /* an unfinished "\r" line of one stream still counts as a line */
        if (ls->split[i].open)
            ls->lines++;
        bytes += ls->split[i].bytes;
        linesplit_free(&ls->split[i]);
    }
    od_job_feed_end(ls->job, ls->input, ls->lines, bytes);
    free(ls);
    return rc;
}
