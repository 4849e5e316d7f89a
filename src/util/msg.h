/* Diagnostics about oomdiag's own inputs.  The library reports through a
 * caller's od_msg_fn; msg_print is the one place that turns a message into
 * text (used by main).  Nothing here owns memory beyond a call. */
#ifndef OOMDIAG_MSG_H
#define OOMDIAG_MSG_H

#include <stdio.h>

#include "oomdiag/oomdiag.h"

struct msg_sink {
    od_msg_fn fn;
    void *ctx;
    unsigned errors, warnings;
};

#if defined(__GNUC__)
#define MSG_PRINTF(a, b) __attribute__((format(printf, a, b)))
#else
#define MSG_PRINTF(a, b)
#endif

/* Reports a message with an optional location and source line + caret. */
void msg_report(struct msg_sink *sink, enum od_severity sev, const char *file, unsigned long line, unsigned long col,
                const char *source, size_t caret, const char *fmt, ...) MSG_PRINTF(8, 9);

/* Shorthands without a source line. */
void msg_error(struct msg_sink *sink, const char *file, const char *fmt, ...) MSG_PRINTF(3, 4);
void msg_warn(struct msg_sink *sink, const char *file, const char *fmt, ...) MSG_PRINTF(3, 4);

/* Hands TEXT about FILE (may be NULL) with severity SEV to FN: a message
 * without a location in the file. */
void msg_say(od_msg_fn fn, void *ctx, enum od_severity sev, const char *file, const char *text);

/* Prints M as "oomdiag: FILE:LINE:COL: error: TEXT", then the source line
 * and a caret row, on OUT. */
void msg_print(FILE *out, const struct od_message *m, int color);

#endif
