/* Where a rule came from, for messages: the JSON pointer of an item in its
 * file's text, turned into a line and column only when a message needs one
 * (so that loading stays one pass over each file).  An origin borrows its
 * file name and text (the ruleset keeps them, or they are static) and owns
 * its path; whoever holds the origin frees the path. */
#ifndef OOMDIAG_ORIGIN_H
#define OOMDIAG_ORIGIN_H

#include <stddef.h>

#include "msg.h"

struct origin {
    const char *file; /* interned in the ruleset */
    const char *text; /* the file's text, kept by the ruleset (or static) */
    size_t len;
    char *path; /* owned */
};

/* Line and column (1-based) of O; 0, 0 if unknown. */
void origin_locate(const struct origin *o, unsigned long *line, unsigned long *col);
/* msg_report at O. */
void origin_report(struct msg_sink *sink, enum od_severity sev, const struct origin *o, const char *source,
                   size_t caret, const char *fmt, ...) MSG_PRINTF(6, 7);

#endif
