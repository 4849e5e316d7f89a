#include "linesplit.h"

#include <stdlib.h>
#include <string.h>

int linesplit_init(struct linesplit *ls)
{
    memset(ls, 0, sizeof *ls);
    ls->buf = malloc(READER_LINE_CAP);
    return ls->buf ? 0 : -1;
}

void linesplit_free(struct linesplit *ls)
{
    free(ls->buf);
    ls->buf = NULL;
}

static int emit(struct linesplit *ls, const char *text, size_t len, int truncated, int cr_ended,
                unsigned long long newlines, linesplit_fn fn, void *ctx)
{
    if (text == NULL)
        text = ls->buf; /* an empty line still points somewhere */
    struct line ln = {text, len, ls->lineno + 1, truncated, len > 0 && memchr(text, 0x1b, len) != NULL, cr_ended};
    int rc = fn(ctx, &ln, newlines);
    ls->lineno += newlines;
    ls->open = newlines == 0;
    return rc;
}

/* After a cut line's head, P[0, N) of its rest: the last READER_TAIL
 * bytes are kept (as the reader does; skipping 2 once more went by). */
static void keep_tail(struct linesplit *ls, const char *p, size_t n)
{
    if (ls->len + n > READER_LINE_CAP) {
        size_t have = n >= READER_TAIL ? 0 : READER_TAIL - n;
        memmove(ls->buf, ls->buf + ls->len - have, have);
        if (n > READER_TAIL) {
            p += n - READER_TAIL;
            n = READER_TAIL;
        }
        ls->len = have;
        ls->skipping = 2;
    }
    if (n > 0) /* P may be NULL then: a line that ends at a piece's start */
        memcpy(ls->buf + ls->len, p, n);
    ls->len += n;
}

/* The end of a cut line: its tail, P[0, N) after what was kept, is handed
 * out from a character's first byte, its last READER_TAIL bytes at most. */
static int emit_tail(struct linesplit *ls, const char *p, size_t n, int newline, linesplit_fn fn, void *ctx)
{
    keep_tail(ls, p, n);
    size_t len = ls->len, cut = 0;
    if (len > READER_TAIL || ls->skipping == 2) {
        cut = len - READER_TAIL;
        while (cut < len && ((unsigned char)ls->buf[cut] & 0xc0) == 0x80)
            cut++;
    }
    ls->len = 0;
    ls->skipping = 0;
    if (cut < len)
        return emit(ls, ls->buf + cut, len - cut, 1, !newline, newline ? 1 : 0, fn, ctx);
    if (!newline)
        return 0;
    int rc = fn(ctx, NULL, 1);
    ls->lineno++;
    ls->open = 0;
    return rc;
}

/* Keeps an unterminated piece aside; a line that reaches the cap is cut. */
static int keep(struct linesplit *ls, const char *p, size_t n, linesplit_fn fn, void *ctx)
{
    if (ls->skipping) {
        keep_tail(ls, p, n);
        return 0;
    }
    if (ls->len + n < READER_LINE_CAP) {
        memcpy(ls->buf + ls->len, p, n);
        ls->len += n;
        return 0;
    }
    size_t take = READER_LINE_CAP - ls->len;
    memcpy(ls->buf + ls->len, p, take);
    ls->len = 0;
    ls->skipping = 1;
    if (emit(ls, ls->buf, READER_LINE_CAP, 1, 0, 0, fn, ctx) != 0)
        return -1;
    keep_tail(ls, p + take, n - take); /* the head is handed out: buf holds the tail from now on */
    return 0;
}

/* A terminator ended the piece P[0, N): NEWLINE 1 for "\n" or "\r\n". */
static int finish(struct linesplit *ls, const char *p, size_t n, int newline, linesplit_fn fn, void *ctx)
{
    if (ls->skipping)
        return emit_tail(ls, p, n, newline, fn, ctx);
    if (ls->len > 0) {
        if (ls->len + n <= READER_LINE_CAP) {
            if (n > 0)
                memcpy(ls->buf + ls->len, p, n);
            ls->len += n;
        } else if (keep(ls, p, n, fn, ctx) != 0) {
            return -1;
        }
        if (ls->skipping)
            return finish(ls, NULL, 0, newline, fn, ctx);
        p = ls->buf;
        n = ls->len;
        ls->len = 0;
    } else if (n > READER_LINE_CAP) {
        if (emit(ls, p, READER_LINE_CAP, 1, 0, 0, fn, ctx) != 0)
            return -1;
        ls->skipping = 1;
        return emit_tail(ls, p + READER_LINE_CAP, n - READER_LINE_CAP, newline, fn, ctx);
    }
    return emit(ls, p, n, 0, !newline, newline ? 1 : 0, fn, ctx);
}

int linesplit_push(struct linesplit *ls, const char *data, size_t n, linesplit_fn fn, void *ctx)
{
    const char *p = data, *end = data + n;
    ls->bytes += n;
    if (n == 0)
        return 0;
    if (ls->cr_pending) {
        ls->cr_pending = 0;
        int crlf = *p == '\n';
        if (finish(ls, NULL, 0, crlf, fn, ctx) != 0)
            return -1;
        p += crlf;
    }
    const char *cr = p < end ? memchr(p, '\r', (size_t)(end - p)) : NULL;
    while (p < end) {
        if (cr != NULL && cr < p)
            cr = memchr(p, '\r', (size_t)(end - p));
        const char *limit = cr ? cr : end;
        const char *nl = memchr(p, '\n', (size_t)(limit - p));
        if (nl != NULL) {
            if (finish(ls, p, (size_t)(nl - p), 1, fn, ctx) != 0)
                return -1;
            p = nl + 1;
        } else if (cr != NULL) {
            if (cr + 1 == end) { /* "\r\n" or a lone "\r": the next push tells */
                ls->cr_pending = 1;
                return keep(ls, p, (size_t)(cr - p), fn, ctx);
            }
            int crlf = cr[1] == '\n';
            if (finish(ls, p, (size_t)(cr - p), crlf, fn, ctx) != 0)
                return -1;
            p = cr + 1 + crlf;
        } else {
            return keep(ls, p, (size_t)(end - p), fn, ctx);
        }
    }
    return 0;
}

int linesplit_skip(struct linesplit *ls, unsigned long long bytes, unsigned long long newlines, linesplit_fn fn,
                   void *ctx)
{
    ls->bytes += bytes;
    if (newlines == 0)
        return 0;
    int rc = 0;
    if ((ls->len > 0 || ls->cr_pending) && !ls->skipping) {
        rc = emit(ls, ls->buf, ls->len, 1, 0, 1, fn, ctx);
        newlines--;
    }
    ls->len = 0;
    ls->cr_pending = 0;
    ls->skipping = 0;
    if (newlines > 0 && rc == 0) {
        rc = fn(ctx, NULL, newlines);
        ls->lineno += newlines;
        ls->open = 0;
    }
    return rc;
}

int linesplit_end(struct linesplit *ls, linesplit_fn fn, void *ctx)
{
    if (ls->cr_pending) {
        ls->cr_pending = 0;
        return finish(ls, NULL, 0, 0, fn, ctx);
    }
    if (ls->skipping)
        return emit_tail(ls, NULL, 0, 1, fn, ctx);
    if (ls->len == 0)
        return 0;
    size_t n = ls->len;
    ls->len = 0;
    return emit(ls, ls->buf, n, 0, 0, 1, fn, ctx);
}

unsigned long long linesplit_lines(const struct linesplit *ls)
{
    return ls->lineno + (ls->len > 0 || ls->cr_pending || ls->open);
}
