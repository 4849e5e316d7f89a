/* Splits bytes that arrive in pieces (a child's pipe, a followed file)
 * into lines by the reader's rules: "\n", "\r\n" or a lone "\r" ends a
 * line, line numbers count "\n" only, a line longer than READER_LINE_CAP
 * is cut there, its head and its last READER_TAIL bytes handed out.  The splitter owns the copy of the
 * unfinished line; a line handed to the callback is valid during the call. */
#ifndef OOMDIAG_LINESPLIT_H
#define OOMDIAG_LINESPLIT_H

#include <stddef.h>

#include "reader.h"

/* LN: the next line, or NULL when only NEWLINES "\n" were consumed with
 * nothing to scan (the tail of a cut line, a skipped stretch).  NEWLINES
 * is what the line ended with: 1 for "\n", 0 for a lone "\r" or a cut.
 * Returns 0, or -1 to stop. */
typedef int (*linesplit_fn)(void *ctx, const struct line *ln, unsigned long long newlines);

struct linesplit {
    char *buf; /* the unfinished line, at most READER_LINE_CAP bytes (a cut line's tail) */
    size_t len;
    unsigned long long lineno; /* "\n" consumed so far */
    unsigned long long bytes;  /* bytes pushed or skipped */
    int cr_pending;            /* the last push ended in "\r": "\r\n" or a lone "\r"? */
    int skipping;              /* in the rest of a cut line: 1, 2 once over READER_TAIL bytes */
    int open;                  /* the last line handed out did not end with "\n" */
};

/* 0, or -1 when out of memory. */
int linesplit_init(struct linesplit *ls);
void linesplit_free(struct linesplit *ls);
/* Hands every line completed by DATA to FN. 0, or FN's -1. */
int linesplit_push(struct linesplit *ls, const char *data, size_t n, linesplit_fn fn, void *ctx);
/* Bytes were lost (BYTES of them, holding NEWLINES "\n"): the unfinished
 * line ends there if NEWLINES > 0, and counting goes on after them. */
int linesplit_skip(struct linesplit *ls, unsigned long long bytes, unsigned long long newlines, linesplit_fn fn,
                   void *ctx);
/* End of input: the unfinished line, if any, is the last one. */
int linesplit_end(struct linesplit *ls, linesplit_fn fn, void *ctx);
/* Lines so far, counting an unfinished one (as reader_lines). */
unsigned long long linesplit_lines(const struct linesplit *ls);

#endif
