/* A growable byte buffer with a ceiling (as curl's dynbuf): it is made
 * with the most bytes it may ever hold, keeps its text NUL-terminated and
 * grows by doubling (grow.h).  The buffer owns its bytes until buf_take
 * hands them to the caller; buf_free releases them. */
#ifndef OOMDIAG_BUF_H
#define OOMDIAG_BUF_H

#include <stddef.h>
#include <string.h>

struct buf {
    char *data; /* NULL until the first buf_add */
    size_t len, cap, max;
};

/* An empty buffer that will refuse to hold more than MAX bytes. */
void buf_init(struct buf *b, size_t max);

/* Makes room for N more bytes and the NUL: 0, or -1 when out of memory
 * or past the maximum (the buffer as it was). */
int buf_reserve(struct buf *b, size_t n);

/* Appends the N bytes at S (N may be 0: the text then exists, empty).
 * 0; or -1 when out of memory or past the maximum, the buffer as it was.
 * Inline: JSON output calls it for every piece. */
static inline int buf_add(struct buf *b, const void *s, size_t n)
{
    if ((n >= b->cap - b->len || n > b->max - b->len) && buf_reserve(b, n) != 0)
        return -1;
    if (n > 0)
        memcpy(b->data + b->len, s, n);
    b->len += n;
    b->data[b->len] = '\0';
    return 0;
}

/* Hands over the text (NULL if nothing was ever added) and its length
 * (LEN may be NULL); the buffer is empty again. */
char *buf_take(struct buf *b, size_t *len);

void buf_free(struct buf *b);

#endif
