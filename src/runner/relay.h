/* Passing a stream on: what waits on a pipe (a job's stdout, oomdiag's
 * stdin) goes to its destination and a copy to the live scan's pipe.  Where
 * the kernel allows (both ends pipes, a destination that takes splice(2)),
 * tee(2) and splice(2) move it without copying it through oomdiag's memory;
 * otherwise read(2) and write(2).  The caller owns the descriptors and the
 * buffer. */
#ifndef OOMDIAG_RELAY_H
#define OOMDIAG_RELAY_H

#include <stddef.h>
#include <sys/types.h>

struct relay {
    int from, to;  /* source; destination (-1: none) */
    int scan;      /* the live scan's pipe, or -1 */
    int fast;      /* try tee + splice (cleared when the kernel refuses) */
    int to_failed; /* writing to TO failed (a closed pipe): it gets nothing more */
    char *buf;     /* for the read/write path */
    size_t bufsize;
    int to_errno; /* why writing to TO failed (EPIPE: its reader went away) */
};

/* Moves what is waiting (call when FROM is readable). Returns the bytes
 * moved, 0 at the end of the input, -1 on a read error (errno). When BUF is
 * needed by the caller too (a log), COPY receives the bytes: then the fast
 * path is not taken. */
ssize_t relay_once(struct relay *r, void (*copy)(void *ctx, const char *p, size_t n), void *ctx);

#endif
