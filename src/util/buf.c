#include "buf.h"

#include <stdlib.h>
#include <string.h>

#include "grow.h"

void buf_init(struct buf *b, size_t max)
{
    b->data = NULL;
    b->len = b->cap = 0;
    b->max = max;
}

int buf_reserve(struct buf *b, size_t n)
{
    if (n > b->max - b->len)
        return -1;
    while (b->len + n + 1 > b->cap) {
        char *p = grow(b->data, &b->cap, b->cap, 1, 64);
        if (p == NULL)
            return -1;
        b->data = p;
    }
    return 0;
}

char *buf_take(struct buf *b, size_t *len)
{
    char *text = b->data;
    if (len != NULL)
        *len = b->len;
    buf_init(b, b->max);
    return text;
}

void buf_free(struct buf *b)
{
    free(b->data);
    buf_init(b, b->max);
}
