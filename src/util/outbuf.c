#include "outbuf.h"

#include <stdarg.h>
#include <stdio.h>

void outbuf_put(struct outbuf *o, const char *fmt, ...)
{
    if (o->len + 1 >= o->size)
        return;
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(o->buf + o->len, o->size - o->len, fmt, ap);
    va_end(ap);
    if (n > 0)
        o->len += (size_t)n < o->size - o->len ? (size_t)n : o->size - o->len - 1;
}
