#include "spool.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

struct block {
    struct block *next;
    int stream;
    size_t len;
    char data[SPOOL_BLOCK];
};

struct spool {
    pthread_mutex_t mu;
    pthread_cond_t cv;
    struct block *head, *tail, *free_list, *slab;
    struct {
        unsigned long long bytes, newlines;
    } lost[SPOOL_STREAMS]; /* dropped and not yet told to the consumer */
    struct spool_stats stats;
    int closed, failed;
    struct spool_consumer c;
    pthread_t thread;
};

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

static void *consume(void *arg)
{
    struct spool *s = arg;
    pthread_mutex_lock(&s->mu);
    for (;;) {
        int stream = -1;
        unsigned long long lost_bytes = 0, lost_newlines = 0;
        for (int i = 0; i < SPOOL_STREAMS && stream < 0; i++)
            if (s->lost[i].bytes > 0) {
                stream = i;
                lost_bytes = s->lost[i].bytes;
                lost_newlines = s->lost[i].newlines;
                s->lost[i].bytes = s->lost[i].newlines = 0;
            }
        if (stream >= 0) {
            pthread_mutex_unlock(&s->mu);
            if (!s->failed && s->c.skip(s->c.ctx, stream, lost_bytes, lost_newlines) != 0)
                s->failed = 1;
            pthread_mutex_lock(&s->mu);
            continue;
        }
        struct block *b = s->head;
        if (b == NULL) {
            if (s->closed)
                break;
            pthread_cond_wait(&s->cv, &s->mu);
            continue;
        }
        s->head = b->next;
        if (s->head == NULL)
            s->tail = NULL;
        pthread_mutex_unlock(&s->mu);
        if (!s->failed && s->c.data(s->c.ctx, b->stream, b->data, b->len) != 0)
            s->failed = 1;
        pthread_mutex_lock(&s->mu);
        b->next = s->free_list;
        s->free_list = b;
    }
    pthread_mutex_unlock(&s->mu);
    return NULL;
}

struct spool *spool_start(const struct spool_consumer *c)
{
    struct spool *s = calloc(1, sizeof *s);
    if (s == NULL)
        return NULL;
    s->slab = malloc(SPOOL_BLOCKS * sizeof *s->slab);
    if (s->slab == NULL) {
        free(s);
        return NULL;
    }
    for (size_t i = 0; i < SPOOL_BLOCKS; i++) {
        s->slab[i].next = s->free_list;
        s->free_list = &s->slab[i];
    }
    s->c = *c;
    pthread_mutex_init(&s->mu, NULL);
    pthread_cond_init(&s->cv, NULL);
    if (pthread_create(&s->thread, NULL, consume, s) != 0) {
        pthread_mutex_destroy(&s->mu);
        pthread_cond_destroy(&s->cv);
        free(s->slab);
        free(s);
        return NULL;
    }
    return s;
}

/* A block to fill: a free one, or the oldest queued one, its bytes lost. */
static struct block *take_block(struct spool *s)
{
    struct block *b = s->free_list;
    if (b != NULL) {
        s->free_list = b->next;
        return b;
    }
    b = s->head; /* never NULL: the consumer holds at most one block */
    s->head = b->next;
    if (s->head == NULL)
        s->tail = NULL;
    unsigned long long nl = count_newlines(b->data, b->len);
    s->lost[b->stream].bytes += b->len;
    s->lost[b->stream].newlines += nl;
    s->stats.dropped_bytes += b->len;
    s->stats.dropped_newlines += nl;
    return b;
}

void spool_put(struct spool *s, int stream, const char *p, size_t n)
{
    if (n == 0)
        return;
    pthread_mutex_lock(&s->mu);
    s->stats.put_bytes += n;
    while (n > 0) {
        struct block *b = s->tail;
        if (b == NULL || b->stream != stream || b->len == SPOOL_BLOCK) {
            b = take_block(s);
            b->stream = stream;
            b->len = 0;
            b->next = NULL;
            if (s->tail != NULL)
                s->tail->next = b;
            else
                s->head = b;
            s->tail = b;
        }
        size_t room = SPOOL_BLOCK - b->len, k = n < room ? n : room;
        memcpy(b->data + b->len, p, k);
        b->len += k;
        p += k;
        n -= k;
    }
    pthread_cond_signal(&s->cv);
    pthread_mutex_unlock(&s->mu);
}

int spool_close(struct spool *s, struct spool_stats *stats)
{
    pthread_mutex_lock(&s->mu);
    s->closed = 1;
    pthread_cond_signal(&s->cv);
    pthread_mutex_unlock(&s->mu);
    pthread_join(s->thread, NULL);
    int rc = s->failed ? -1 : 0;
    if (stats != NULL)
        *stats = s->stats;
    pthread_mutex_destroy(&s->mu);
    pthread_cond_destroy(&s->cv);
    free(s->slab);
    free(s);
    return rc;
}
