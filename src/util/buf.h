/* A growable byte buffer with a ceiling (as curl's dynbuf): it is made
 * with the most bytes it may ever hold, keeps its text NUL-terminated and
 * grows by doubling (grow.h).  The buffer owns its bytes until buf_take
 * hands them to the caller; buf_free releases them. */
#ifndef OOMDIAG_BUF_H
#define OOMDIAG_BUF_H

#include <stddef.h>

struct buf {
    char *data; /* NULL until the first buf_add */
    size_t len, cap, max;
};

/* An empty buffer that will refuse to hold more than MAX bytes. */
void buf_init(struct buf *b, size_t max);

/* Appends the N bytes at S (N may be 0: the text then exists, empty).
 * 0; or -1 when out of memory or past the maximum, the buffer as it was. */
int buf_add(struct buf *b, const void *s, size_t n);

/* Hands over the text (NULL if nothing was ever added) and its length
 * (LEN may be NULL); the buffer is empty again. */
char *buf_take(struct buf *b, size_t *len);

void buf_free(struct buf *b);

#endif
