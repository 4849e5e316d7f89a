/* A bounded queue between a relay that must never wait (the job's output
 * going to the terminal) and a consumer thread that scans it.  The relay
 * copies each piece in with spool_put; when the consumer falls behind by
 * more than SPOOL_BLOCKS * SPOOL_BLOCK bytes the oldest queued bytes are
 * dropped, and the consumer is told how many bytes and "\n" it lost so that
 * line numbers stay right.  The spool owns its blocks and the thread;
 * spool_close joins it. */
#ifndef OOMDIAG_SPOOL_H
#define OOMDIAG_SPOOL_H

#include <stddef.h>

enum { SPOOL_BLOCK = 64 * 1024, SPOOL_BLOCKS = 128, SPOOL_STREAMS = 2 };

/* Called on the consumer thread, in the order the pieces were put:
 * DATA with the bytes of one stream, SKIP when bytes of it were dropped.
 * Each returns 0, or -1 to stop consuming (the rest is then discarded). */
struct spool_consumer {
    int (*data)(void *ctx, int stream, const char *p, size_t n);
    int (*skip)(void *ctx, int stream, unsigned long long bytes, unsigned long long newlines);
    void *ctx;
};

struct spool_stats {
    unsigned long long put_bytes, dropped_bytes, dropped_newlines;
};

struct spool;
/* Starts the consumer thread. NULL when out of memory or threads. */
struct spool *spool_start(const struct spool_consumer *c);
/* Copies N bytes of STREAM in; never blocks on the consumer. */
void spool_put(struct spool *s, int stream, const char *p, size_t n);
/* No more input: waits until the consumer has seen everything, joins it
 * and frees the spool. Returns the consumer's status (0 or -1). */
int spool_close(struct spool *s, struct spool_stats *stats);

#endif
