/* Text appended to a caller's fixed buffer (the parent's facts lines):
 * what does not fit is cut, the buffer always ends in a NUL.  The caller
 * owns the buffer. */
#ifndef OOMDIAG_OUTBUF_H
#define OOMDIAG_OUTBUF_H

#include <stddef.h>

struct outbuf {
    char *buf;
    size_t size, len; /* room, and what is written (less the NUL) */
};

/* Appends the printf-formatted text, cut to what room is left. */
void outbuf_put(struct outbuf *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#endif
